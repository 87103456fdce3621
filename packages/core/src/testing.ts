// Test helpers for Cairn packages and for users testing their own agents. Nothing here needs a test
// runner; the store conformance suite (it runs under vitest) is `@cairn/core/testing/stores`.
export {
  type FixtureHandler, type FixtureResponse, type FixtureServer, fixtureResponse, listProviderFixtures, providerFixturesDir,
  type RecordedRequest, startFixtureServer,
} from './testing/fixture-server.js';
export { type ScriptedModel, type ScriptedTurn, scriptedModel, scriptedProvider } from './testing/scripted-model.js';
export { type ChatCompletionsServer, type ChatCompletionsTurn, startChatCompletionsServer, validateChatRequest } from './testing/chat-completions-server.js';
export type { FakeFailure, FakeFailures, FakeModelTurn, FakeProviderServer, FakeServerOptions, FakeTurns } from './testing/fake-server-core.js';
export { anthropicErrorBody, startFakeAnthropicServer, validateAnthropicRequest } from './testing/fake-anthropic-server.js';
export { geminiErrorBody, startFakeGeminiServer, validateGeminiRequest } from './testing/fake-gemini-server.js';
export { openAIErrorBody, startFakeResponsesServer, validateResponsesRequest } from './testing/fake-responses-server.js';
export { type FailureProxy, startFailureProxy } from './testing/fake-failure-proxy.js';
export { type EmbeddingFailure, type FakeEmbeddingServer, type FakeEmbeddingServerOptions, startFakeEmbeddingServer } from './testing/fake-embedding-server.js';
export { embeddingWords, hashedEmbedding, type HashedEmbeddingOptions } from './testing/hashed-embedding.js';
export { createToolContext, type TestToolContext } from './testing/tool-context.js';
export { assistantMessageFromParts, collectStream, shortenStrings, summarizeStreamParts } from './testing/stream-parts.js';
