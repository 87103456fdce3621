import type { RunStatus, SDKStatusMessage, TokenUsage, UsageCost } from '@cairn/core';
import type { CairnMessageMetadata, UIChunk, UIFinishReason } from './ui-chunks.js';

export type FinalRunStatus = Exclude<RunStatus, 'running'>;

export interface RunError {
  message: string;
  code?: string;
}

/** The run record's figures, when the caller has them: they replace the sum of the log's usage messages. */
export interface RunTotals {
  usage?: TokenUsage;
  cost?: UsageCost;
}

// Upper case is the SDK's; lower case is what logs of older Cairn versions hold.
const finalStatuses: Record<string, FinalRunStatus> = {
  FINISHED: 'finished', ERROR: 'error', CANCELLED: 'cancelled', EXPIRED: 'error', finished: 'finished', error: 'error', cancelled: 'cancelled',
};

/** The run's end, when this status message is the log's final event. */
export function finalStatusOf(message: SDKStatusMessage): { status: FinalRunStatus; error?: RunError } | undefined {
  const status = finalStatuses[message.status];
  if (!status) return undefined;
  if (message.error) return { status, error: message.error };
  if (message.status === 'EXPIRED') return { status, error: { message: message.message ?? 'The run expired.', code: 'expired' } };
  return status === 'error' ? { status, error: { message: message.message ?? 'The run failed.' } } : { status };
}

/** The error text of a tool part whose call had no result when the run ended. */
export function unfinishedCallText(status: FinalRunStatus): string {
  if (status === 'cancelled') return 'The call did not finish: the run was cancelled.';
  if (status === 'error') return 'The call did not finish: the run failed.';
  return 'The call did not finish before the run ended.';
}

const uiFinishReasons = new Set<string>(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

/** A step's finish reason as the protocol names them (Cairn uses the same set; anything else is `other`). */
export function uiFinishReason(reason: string | undefined): UIFinishReason {
  return reason && uiFinishReasons.has(reason) ? (reason as UIFinishReason) : 'other';
}

/**
 * The chunks that close the message. `useChat` stops reading at an `error` chunk, and the AI SDK's
 * own streams end a cancelled message with `abort` and no `finish`; so for those two the metadata
 * goes first, in a `message-metadata` chunk.
 */
export function terminalChunks(status: FinalRunStatus, metadata: CairnMessageMetadata, error: RunError | undefined): UIChunk[] {
  if (status === 'finished') return [{ type: 'finish', messageMetadata: metadata }];
  if (status === 'cancelled') return [{ type: 'message-metadata', messageMetadata: metadata }, { type: 'abort' }];
  return [{ type: 'message-metadata', messageMetadata: metadata }, { type: 'error', errorText: error?.message ?? 'The run failed.' }, { type: 'finish' }];
}
