// A Cairn run as the Vercel AI SDK UI message stream (v1), the stream `useChat` reads.
export type * from './cairn-data.js';
export { type ChatImage, type ChatUserMessage, lastUserText } from './last-user-text.js';
export type { FinalRunStatus, RunError, RunTotals } from './run-end.js';
export { createUiChunkConverter, type UiChunkConverter, type UiChunkConverterOptions, uiChunksOfRun } from './run-to-ui-chunks.js';
export { uiChunksToSse, uiChunkToSse, type UiSseOptions, uiMessageStreamHeaders } from './sse.js';
export type { CairnMessageMetadata, UIChunk, UIChunkType, UIDataChunk, UIFinishReason } from './ui-chunks.js';
