import { lazyImplementation } from '@cairn/core';
import type { BubblewrapOptions } from './bubblewrap.js';
import type { SandboxBackend } from './sandbox-backend.js';

const bubblewrap = lazyImplementation(() => import('./bubblewrap.js'));

/**
 * The bubblewrap backend (see bubblewrap.ts) behind a front that loads it at the first
 * `isAvailable` or `wrap`: the shell tool builds its default backend when the pack is imported, and
 * the sandbox code (child_process, the network proxy's http server) is only needed once a command runs.
 */
export function createBubblewrapBackend(options: BubblewrapOptions = {}): SandboxBackend {
  const backend = lazyImplementation(async () => (await bubblewrap()).createBubblewrapBackend(options));
  return {
    name: 'bubblewrap',
    isAvailable: async () => (await backend()).isAvailable(),
    wrap: async (command, wrapOptions) => (await backend()).wrap(command, wrapOptions),
  };
}
