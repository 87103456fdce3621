import type { ModeDefinition } from '../spec/mode/v1/index.js';

/**
 * The agent mode core falls back to when no modes plugin is registered, so a registry with only a
 * provider and a tool pack still runs. `@cairn/modes` replaces it with the full set.
 */
export const fallbackAgentMode: ModeDefinition = {
  id: 'agent',
  description: 'Implement, refactor and fix: every tool the permissions and sandbox settings allow.',
  promptBlocks: [],
  toolPolicy: { readOnly: false, mcp: 'all', shell: 'host' },
  sandboxProfile: 'inherit',
  transitionsTo: [],
};
