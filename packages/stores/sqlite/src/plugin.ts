import type { CairnPlugin } from '@cairn/core';
import { createSqliteStore } from './sqlite-store.js';

/** Registers the store `sqlite`: `$CAIRN_HOME/agents.db` of the agent's environment (default `~/.cairn`). */
export const sqliteStorePlugin: CairnPlugin = {
  name: '@cairn/store-sqlite',
  stores: { sqlite: ({ env }) => createSqliteStore(env.CAIRN_HOME ? { home: env.CAIRN_HOME } : {}) },
};
