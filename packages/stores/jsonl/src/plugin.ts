import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CairnPlugin } from '@cairn/core';
import { cairnHome } from '@cairn/core/node';
import { createJsonlStore } from './jsonl-store.js';

/** Registers the store `jsonl`: the folder `$CAIRN_HOME/agents-jsonl` of the agent's environment (default `~/.cairn`). */
export const jsonlStorePlugin: CairnPlugin = {
  name: '@cairn/store-jsonl',
  stores: {
    jsonl: ({ env }) => {
      const dir = join(cairnHome(env), 'agents-jsonl');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return createJsonlStore({ dir });
    },
  },
};
