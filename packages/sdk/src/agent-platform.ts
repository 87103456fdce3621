import { createIndex } from '@cairn/indexer';

/**
 * Warm-up for a workspace before the first send: builds or refreshes the codebase index in the
 * background so the agent's first `codebase_search` answers at once. `release()` stops and closes it.
 */
export function createAgentPlatform() {
  return {
    prewarmLocalWorkspace(options: { cwd: string; home?: string }): { ready: Promise<void>; release(): Promise<void> } {
      const index = createIndex({ cwd: options.cwd, ...(options.home ? { home: options.home } : {}) });
      const ready = index.then((opened) => opened.sync()).then(() => undefined);
      return {
        ready,
        async release() {
          await ready.catch(() => undefined);
          await index.then((opened) => opened.close()).catch(() => undefined);
        },
      };
    },
  };
}
