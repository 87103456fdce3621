import type { RunStreamEvent } from '../../src/client/run-events.js';
import type { InteractionUpdate, Run, SDKMessage } from '../../src/wire-types.js';

// Event logs shaped the way the runtime writes them (run-start-events.ts, run-stream-step.ts,
// run-tool-calls.ts, run-approvals.ts, run-finish.ts), offsets counted from 1 like the store's.

type Body = Record<string, unknown> & { type: string };

export class RunLog {
  readonly events: RunStreamEvent[] = [];

  constructor(
    readonly runId = 'run-1',
    readonly agentId = 'agent-1',
  ) {}

  message(body: Body): this {
    const message = { ...body, agent_id: this.agentId, run_id: this.runId } as unknown as SDKMessage;
    this.events.push({ kind: 'message', offset: this.events.length + 1, message });
    return this;
  }

  update(update: Body): this {
    this.events.push({ kind: 'update', offset: this.events.length + 1, update: update as unknown as InteractionUpdate });
    return this;
  }

  /** init, RUNNING, the user's message and its update: how every run opens. */
  start(text: string, mode = 'agent'): this {
    return this.message({ type: 'system', subtype: 'init', model: { id: 'openai/gpt-5.2' }, tools: ['read_file', 'edit_file'], mode, cwd: '/workspace' })
      .message({ type: 'status', status: 'RUNNING', mode })
      .message({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } })
      .update({ type: 'user-message-appended', userMessage: { text } });
  }

  /** A streamed turn's end: the assistant message, its usage and turn-ended. */
  endTurn(content: unknown[], usage = tokens(100, 20)): this {
    return this.message({ type: 'assistant', message: { role: 'assistant', content } })
      .message({ type: 'usage', usage })
      .update({ type: 'turn-ended', usage });
  }

  /** A tool call as it streams, starts, runs and completes. */
  toolCall(callId: string, name: string, type: string, args: unknown): this {
    return this.update({ type: 'partial-tool-call', callId, modelCallId: callId, toolCall: { type, name, callId, argsText: '' }, argsTextDelta: '' })
      .update({ type: 'partial-tool-call', callId, modelCallId: callId, toolCall: { type, name, callId, argsText: JSON.stringify(args).slice(0, 10) }, argsTextDelta: JSON.stringify(args).slice(0, 10) })
      .update({ type: 'tool-call-started', callId, modelCallId: callId, toolCall: { type, name, callId, args, status: 'running' } });
  }

  runTool(callId: string, name: string, type: string, args: unknown, result: string, structuredContent?: unknown): this {
    const toolCall = { type, name, callId, args, status: 'completed', result, isError: false, ...(structuredContent === undefined ? {} : { structuredContent }) };
    return this.message({ type: 'tool_call', call_id: callId, name, status: 'running', args })
      .update({ type: 'tool-call-completed', callId, modelCallId: callId, toolCall })
      .message({ type: 'tool_call', call_id: callId, name, status: 'completed', args, result });
  }

  finish(status: 'FINISHED' | 'ERROR' | 'CANCELLED' = 'FINISHED', error?: { message: string; code: string }): this {
    return this.message({ type: 'status', status, ...(error ? { error, message: error.message } : {}) });
  }

  run(status: Run['status'], extra: Partial<Run> = {}): Run {
    return { id: this.runId, agentId: this.agentId, requestId: 'req-1', status, mode: 'agent', model: { id: 'openai/gpt-5.2' }, createdAt: 1, pendingApprovals: 0, ...extra };
  }
}

export function tokens(input: number, output: number) {
  return { inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: input + output };
}
