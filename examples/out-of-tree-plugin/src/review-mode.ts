import type { ModeDefinition } from '@cairn/core';

/**
 * A read-only review mode. `enterableFrom: ['agent']` makes `switch_mode` reach it from agent mode
 * without re-registering the built-in modes; `transitionsTo` leads back. It allows no more than
 * agent mode, so the switch needs no approval; the run's rights ceiling would ask for one if it did.
 */
export const reviewMode: ModeDefinition = {
  id: 'review',
  description: 'Review the code and report findings, most important first. Nothing is changed in this mode.',
  promptBlocks: ['Read the code the user points at and list concrete findings (bugs, risks, missing tests) with file paths. Change nothing.'],
  toolPolicy: { readOnly: true, allow: ['switchMode'], mcp: 'readOnlyHint', shell: 'off' },
  sandboxProfile: 'read-only',
  transitionsTo: ['agent'],
  enterableFrom: ['agent'],
};
