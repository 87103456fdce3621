import type { TokenUsage, UsageCost } from '@cairn/core';
import type { CairnDataTypes } from './cairn-data.js';

// The chunks of the AI SDK UI message stream protocol (v1) that Cairn sends, field for field as the
// protocol defines them. Only the fields AI SDK 5.0 already knew are used: AI SDK 5 clients validate
// each chunk with a strict schema and reject the whole stream on a field they do not know (the
// `finish` chunk's `finishReason`, added later, is one), so the finish reason travels in the message
// metadata instead.

/** What `message.metadata` holds on the client: set on `start`, completed on `finish`. */
export interface CairnMessageMetadata {
  runId?: string;
  status?: 'running' | 'finished' | 'error' | 'cancelled';
  /** Why the last model step stopped: the protocol's finish reasons. */
  finishReason?: UIFinishReason;
  usage?: TokenUsage;
  cost?: UsageCost;
  error?: { message: string; code?: string };
}

export type UIFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** A `data-cairn-*` chunk. With an `id`, a later chunk of the same type and id replaces its data. */
export type UIDataChunk = {
  [Name in keyof CairnDataTypes]: { type: `data-${Name}`; id?: string; data: CairnDataTypes[Name]; transient?: boolean };
}[keyof CairnDataTypes];

/** One chunk of the stream, as `useChat` reads it. */
export type UIChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: CairnMessageMetadata }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic?: boolean }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic?: boolean }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic?: boolean }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic?: boolean }
  | UIDataChunk
  | { type: 'message-metadata'; messageMetadata: CairnMessageMetadata }
  | { type: 'error'; errorText: string }
  | { type: 'abort' }
  | { type: 'finish'; messageMetadata?: CairnMessageMetadata };

export type UIChunkType = UIChunk['type'];
