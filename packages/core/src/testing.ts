// Test helpers for Cairn packages and for users testing their own agents.
export {
  type FixtureHandler, type FixtureResponse, type FixtureServer, fixtureResponse, listProviderFixtures, providerFixturesDir,
  type RecordedRequest, startFixtureServer,
} from './testing/fixture-server.js';
export { type ScriptedModel, type ScriptedTurn, scriptedModel, scriptedProvider } from './testing/scripted-model.js';
export { runStoreConformance, type StoreConformanceOptions } from './testing/store-conformance.js';
export { type ChatCompletionsServer, type ChatCompletionsTurn, startChatCompletionsServer, validateChatRequest } from './testing/chat-completions-server.js';
