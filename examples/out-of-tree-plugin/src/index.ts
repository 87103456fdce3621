export { createJournalStore, type JournalLine, journalFileName } from './journal-store.js';
export { lineCountTool } from './line-count-tool.js';
export { createLocalModelsProvider, type LocalModelsProviderOptions } from './local-models-provider.js';
export { createExamplePlugin, type ExamplePluginOptions, journalStoreName } from './plugin.js';
export { reviewMode } from './review-mode.js';
