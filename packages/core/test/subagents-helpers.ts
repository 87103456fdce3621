import { z } from 'zod';
import { createMemoryStore, defineTool, type ModeDefinition, type ToolDefinition } from '../src/index.js';
import type { LanguageModelV1CallOptions } from '../src/spec/language-model/v1/index.js';
import { createCairn, subagentsPlugin } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';

/** What a routed turn knows about the request: whose conversation it is and how far it got. */
export interface TurnView {
  call: LanguageModelV1CallOptions;
  /** The first user message's text (the task prompt for a subagent). */
  firstUser: string;
  /** Tool results so far in this conversation, oldest first. */
  toolResults: string[];
  toolNames: string[];
}

/**
 * One scripted model for the parent and every subagent: parallel children make the order of
 * requests unpredictable, so each request is answered from its own conversation.
 */
export function routedModel(route: (view: TurnView) => ScriptedTurn) {
  return scriptedModel([(call) => route(viewOf(call))], { repeatLast: true });
}

function viewOf(call: LanguageModelV1CallOptions): TurnView {
  const user = call.prompt.find((message) => message.role === 'user');
  const toolResults = call.prompt.filter((message) => message.role === 'tool').flatMap((message) => message.content.map((part) => JSON.stringify(part)));
  return { call, firstUser: JSON.stringify(user ?? ''), toolResults, toolNames: (call.tools ?? []).map((tool) => tool.name) };
}

/** A read-only mode like plan/ask, with no subagentMode: its subagents run in it too. */
export const readOnlyMode: ModeDefinition = {
  id: 'readonly',
  description: 'Read-only.',
  promptBlocks: [],
  toolPolicy: { readOnly: true, mcp: 'readOnlyHint', shell: 'off' },
  sandboxProfile: 'read-only',
  transitionsTo: [],
};

export function textTool(options: { id: string; readOnly: boolean; execute: (text: string, signal: AbortSignal) => Promise<string> | string }): ToolDefinition {
  return defineTool({
    id: options.id,
    name: options.id,
    description: `The ${options.id} test tool.`,
    inputSchema: z.object({ text: z.string() }),
    readOnly: options.readOnly,
    category: 'custom',
    execute: (input: { text: string }, context) => options.execute(input.text, context.signal),
  });
}

export function subagentSetup(route: (view: TurnView) => ScriptedTurn, tools: ToolDefinition[]) {
  const model = routedModel(route);
  const { Agent } = createCairn({
    plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': model })], tools, modes: [readOnlyMode] }, subagentsPlugin],
  });
  return { model, Agent, store: createMemoryStore() };
}

/** A promise with its resolve function. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
