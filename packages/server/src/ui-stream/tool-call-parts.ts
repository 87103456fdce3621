import type { PartialToolCallUpdate, ToolCall, ToolCallCompletedUpdate, ToolCallStartedUpdate } from '@cairn/core';
import type { CairnToolOutput } from './cairn-data.js';
import type { UIChunk } from './ui-chunks.js';

type CallState = 'input-streaming' | 'input-available' | 'done';

interface TrackedCall {
  state: CallState;
  /** How much of the argument text was sent as `tool-input-delta`. */
  streamed: number;
}

/**
 * The tool parts of a run: each call goes input-start → input deltas → input-available → output,
 * and a state only moves forward, so an update the log repeats adds nothing. Calls are `dynamic`:
 * the client has no type for the agent's tools (they differ per agent, MCP servers included).
 */
export class ToolCallParts {
  private readonly calls = new Map<string, TrackedCall>();

  partial(update: PartialToolCallUpdate): UIChunk[] {
    const known = this.calls.get(update.callId);
    if (known && known.state !== 'input-streaming') return [];
    const chunks = known ? [] : this.begin(update.callId, update.toolCall.name);
    const call = this.track(update.callId);
    // Logs of older Cairn versions have the whole text so far but not the delta.
    const delta = update.argsTextDelta ?? (update.toolCall.argsText ?? '').slice(call.streamed);
    if (delta) {
      call.streamed += delta.length;
      chunks.push({ type: 'tool-input-delta', toolCallId: update.callId, inputTextDelta: delta });
    }
    return chunks;
  }

  started(update: ToolCallStartedUpdate): UIChunk[] {
    return this.inputAvailable(update.callId, update.toolCall);
  }

  completed(update: ToolCallCompletedUpdate): UIChunk[] {
    const { callId, toolCall } = update;
    if (this.calls.get(callId)?.state === 'done') return [];
    // A call refused before it ran may come without a started update.
    const chunks = this.inputAvailable(callId, toolCall);
    this.track(callId).state = 'done';
    const failed = toolCall.isError === true || toolCall.status === 'error';
    if (failed) chunks.push({ type: 'tool-output-error', toolCallId: callId, errorText: toolCall.result || `The ${toolCall.name} call failed.`, dynamic: true });
    else chunks.push({ type: 'tool-output-available', toolCallId: callId, output: toolOutput(toolCall), dynamic: true });
    return chunks;
  }

  /** End every call still without a result (its step or its run ended first), so no part spins forever. */
  failPending(errorText: string): UIChunk[] {
    const chunks: UIChunk[] = [];
    for (const [toolCallId, call] of this.calls) {
      if (call.state === 'done') continue;
      call.state = 'done';
      chunks.push({ type: 'tool-output-error', toolCallId, errorText, dynamic: true });
    }
    return chunks;
  }

  private inputAvailable(callId: string, toolCall: ToolCall): UIChunk[] {
    const known = this.calls.get(callId);
    if (known && known.state !== 'input-streaming') return [];
    const chunks = known ? [] : this.begin(callId, toolCall.name);
    this.track(callId).state = 'input-available';
    chunks.push({ type: 'tool-input-available', toolCallId: callId, toolName: toolCall.name, input: toolCall.args ?? {}, dynamic: true });
    return chunks;
  }

  private begin(callId: string, toolName: string): UIChunk[] {
    this.calls.set(callId, { state: 'input-streaming', streamed: 0 });
    return [{ type: 'tool-input-start', toolCallId: callId, toolName, dynamic: true }];
  }

  private track(callId: string): TrackedCall {
    return this.calls.get(callId) as TrackedCall;
  }
}

function toolOutput(toolCall: ToolCall): CairnToolOutput {
  return {
    result: toolCall.result ?? '',
    ...(toolCall.structuredContent === undefined ? {} : { structuredContent: toolCall.structuredContent }),
    ...(toolCall.truncated?.result ? { truncated: true } : {}),
  };
}
