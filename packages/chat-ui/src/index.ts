// @cairn/chat-ui: an embeddable React chat for Cairn agents, over the Cairn server API.
export { CairnApiError } from './client/api-error.js';
export { CairnClient, type CairnClientOptions, type PageQuery } from './client/cairn-client.js';
export type { FetchLike } from './client/http.js';
export type { ConnectionState, RunStreamEvent, StreamRunOptions } from './client/run-events.js';
export { CairnChat, type CairnChatProps } from './components/cairn-chat.js';
export * from './state/index.js';
export type * from './wire-types.js';
