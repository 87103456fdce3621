import { Agent, type AgentUsage } from '@cairn/sdk';
import type { EntryInput, Prompt } from './chat-state.js';

/** The resumed agent's last turns for the transcript, and all its user messages for ↑. */
export async function lastTurns(agentId: string, count = 6): Promise<{ entries: EntryInput[]; history: string[] }> {
  const messages = await Agent.messages.list(agentId).catch(() => []);
  const last = messages.slice(-count);
  const entries: EntryInput[] = messages.length > last.length ? [{ kind: 'info', text: `… ${messages.length - last.length} earlier messages` }] : [];
  for (const message of last) entries.push(message.role === 'user' ? { kind: 'user', text: message.text } : { kind: 'markdown', text: message.text });
  return { entries, history: messages.filter((message) => message.role === 'user').map((message) => message.text) };
}

/** `/resume`: the picker of the workspace's other agents (by their first prompt), or undefined when there is none. */
export async function resumePicker(cwd: string, currentId: string | undefined): Promise<Extract<Prompt, { kind: 'picker' }> | undefined> {
  const page = await Agent.list({ cwd, limit: 20 }).catch(() => ({ items: [] }));
  const items = page.items
    .filter((info) => info.agentId !== currentId)
    .map((info) => ({ id: info.agentId, label: info.name, detail: `${info.agentId} · ${new Date(info.lastModified).toISOString().slice(0, 16).replace('T', ' ')}` }));
  return items.length ? { kind: 'picker', title: `Resume an agent of ${cwd}`, items, index: 0 } : undefined;
}

/** `/cost`: `2 runs · 1234 input tokens (0 cached) · 56 output tokens · $0.0012`. */
export function costLine(usage: AgentUsage): string {
  const cost = usage.cost ? ` · $${(usage.cost.chargedCents / 100).toFixed(4)}` : ' · cost unknown for this model';
  return `${usage.runs.length} run${usage.runs.length === 1 ? '' : 's'} · ${usage.usage.inputTokens} input tokens (${usage.usage.cacheReadTokens} cached) · ${usage.usage.outputTokens} output tokens${cost}`;
}
