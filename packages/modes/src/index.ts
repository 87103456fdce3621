import type { CairnPlugin } from '@cairn/core';
import { builtInModes } from './modes.js';

export { agentMode, askMode, builtInModes, debugMode, planMode } from './modes.js';

/** Registers the agent, plan, ask and debug modes. */
export const modesPlugin: CairnPlugin = { name: '@cairn/modes', modes: builtInModes };
