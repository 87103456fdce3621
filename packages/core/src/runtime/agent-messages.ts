import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import { loadConversation } from './conversation-checkpoint.js';
import { repairConversation } from './conversation-repair.js';

/**
 * One message of `Agent.messages.list()`: what the user asked and what the assistant answered, as
 * text. Tool calls, tool results, reasoning and the context Cairn adds to a user message
 * (`<user_info>`, `<project_layout>`, reminders) are left out.
 */
export interface AgentMessage {
  /** 0-based position among the agent's listed messages; `offset` counts the same way. */
  index: number;
  role: 'user' | 'assistant';
  text: string;
}

/** Cairn: one message of the stored model conversation, as the model sees it (every role, every part). */
export interface ModelConversationMessage {
  index: number;
  role: ModelMessage['role'];
  content: ModelMessage['content'];
}

export interface MessagePage {
  limit?: number;
  offset?: number;
}

/** The agent's conversation as stored in its newest checkpoint, repaired like a resume would (tool calls answered). */
async function storedConversation(store: AgentStore, agentId: string): Promise<ModelMessage[]> {
  const record = await store.agents.get(agentId);
  if (!record) throw new ConfigurationError(`No agent ${agentId} in the store. List agents with Agent.list().`);
  return repairConversation((await loadConversation(store.checkpoints, record.checkpointRoot)).messages).messages;
}

export async function listAgentMessages(store: AgentStore, agentId: string, page: MessagePage = {}): Promise<AgentMessage[]> {
  const listed: Array<Omit<AgentMessage, 'index'>> = [];
  for (const message of await storedConversation(store, agentId)) {
    const text = message.role === 'user' ? userQuery(message) : message.role === 'assistant' ? assistantText(message) : undefined;
    if (text !== undefined) listed.push({ role: message.role as AgentMessage['role'], text });
  }
  return slicePage(listed, page, 'Agent.messages.list').map((message, position) => ({ index: pageOffset(page) + position, ...message }));
}

export async function listModelMessages(store: AgentStore, agentId: string, page: MessagePage = {}): Promise<ModelConversationMessage[]> {
  const messages = await storedConversation(store, agentId);
  return slicePage(messages, page, 'Agent.messages.listModelMessages').map((message, position) => ({ index: pageOffset(page) + position, role: message.role, content: message.content }));
}

const queryOpen = '<user_query>\n';
const queryClose = '\n</user_query>';

/**
 * The user's own words: the `<user_query>` block of a message Cairn built from a send. A user-role
 * message without one was added by Cairn (a reminder, a compaction summary), not by a person.
 */
function userQuery(message: Extract<ModelMessage, { role: 'user' }>): string | undefined {
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  const start = text.indexOf(queryOpen);
  // The last closing tag: the query itself may quote the tag; the blocks after it are Cairn's.
  const end = text.lastIndexOf(queryClose);
  if (start === -1 || end === -1 || end < start) return undefined;
  const bodyStart = start + queryOpen.length;
  // An empty query (images only) renders as "<user_query>\n\n</user_query>".
  return end >= bodyStart ? text.slice(bodyStart, end) : '';
}

/** The text of an assistant message; a step that only called tools (no text) is not listed. */
function assistantText(message: Extract<ModelMessage, { role: 'assistant' }>): string | undefined {
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  return text.trim() ? text : undefined;
}

function pageOffset(page: MessagePage): number {
  return page.offset ?? 0;
}

function slicePage<T>(items: T[], page: MessagePage, where: string): T[] {
  const { limit, offset = 0 } = page;
  if (!Number.isInteger(offset) || offset < 0) throw new ConfigurationError(`${where}: offset must be a non-negative integer, got ${String(offset)}.`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new ConfigurationError(`${where}: limit must be a positive integer, got ${String(limit)}.`);
  return items.slice(offset, limit === undefined ? undefined : offset + limit);
}
