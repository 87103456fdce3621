import type { CairnPlugin, ModeDefinition } from '@cairn/core';
import { builtInModes } from './modes.js';

export { debugInstrumentationMarker, debugReminder, remainingInstrumentation } from './debug-reminder.js';
export { agentMode, askMode, builtInModes, debugMode, planMode } from './modes.js';

/** Registers the agent, plan, ask and debug modes. */
export const modesPlugin: CairnPlugin = { name: '@cairn/modes', modes: builtInModes };

/**
 * The built-in modes plus your own (a mode with a built-in id replaces it), as one plugin, for a
 * registry you build yourself. On a registry that already has the built-ins (the SDK's), register
 * only your modes: `{ name, modes: [myMode] }`, reachable from the built-ins through
 * `enterableFrom`; to swap a built-in there, declare it: `{ name, modes: [myAgent], replaces: { modes: ['agent'] } }`.
 */
export function createModesPlugin(options: { modes?: ModeDefinition[]; name?: string } = {}): CairnPlugin {
  const extra = options.modes ?? [];
  const ids = new Set(extra.map((mode) => mode.id));
  return { name: options.name ?? '@cairn/modes', modes: [...builtInModes.filter((mode) => !ids.has(mode.id)), ...extra] };
}
