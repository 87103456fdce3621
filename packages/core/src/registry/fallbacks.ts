import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { StoreFactory } from '../spec/plugin/v1/index.js';
import { createMemoryStore } from '../store/memory-store.js';

// What a registry answers when no plugin registered the id: an agent mode, so a registry with only
// a provider and a tool pack still runs, and the in-memory store. A plugin that registers the same
// id takes its place without declaring `replaces` (a fallback is not a registration).

/** The agent mode of a registry without one. `@cairn/modes` brings the full set. */
export const fallbackAgentMode: ModeDefinition = {
  id: 'agent',
  description: 'Implement, refactor and fix: every tool the permissions and sandbox settings allow.',
  promptBlocks: [],
  toolPolicy: { readOnly: false, mcp: 'all', shell: 'host' },
  sandboxProfile: 'inherit',
  transitionsTo: [],
};

/** Stores every registry can open by name: `memory` (this process only). */
export const fallbackStores: Readonly<Record<string, StoreFactory>> = {
  memory: () => createMemoryStore(),
};
