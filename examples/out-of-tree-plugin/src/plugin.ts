import { join } from 'node:path';
import { type CairnPlugin, ConfigurationError, type LanguageModelV1 } from '@cairn/core';
import { createJournalStore } from './journal-store.js';
import { lineCountTool } from './line-count-tool.js';
import { createLocalModelsProvider } from './local-models-provider.js';
import { reviewMode } from './review-mode.js';

export interface ExamplePluginOptions {
  /** The models of the `local` provider, by id (`local/<id>` in model ids). */
  models: Record<string, LanguageModelV1>;
}

/** The store name agents pick this package's store by: `local: { store: 'journal' }`. */
export const journalStoreName = 'journal';

/**
 * One plugin with one of everything a registry takes: the `local` provider, the `line_count` tool,
 * the `journal` store (in `$CAIRN_HOME/journal` of the agent's environment) and the `review` mode.
 */
export function createExamplePlugin(options: ExamplePluginOptions): CairnPlugin {
  return {
    name: 'cairn-plugin-example',
    providers: [createLocalModelsProvider({ models: options.models })],
    tools: [lineCountTool],
    modes: [reviewMode],
    stores: {
      [journalStoreName]: ({ env }) => {
        const home = env.CAIRN_HOME;
        if (!home) throw new ConfigurationError('The journal store keeps its file under $CAIRN_HOME: set CAIRN_HOME in the agent\'s env (AgentOptions.env) or the process environment.');
        return createJournalStore(join(home, 'journal'));
      },
    },
  };
}
