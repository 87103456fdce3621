import type { ModeDefinition, ModeEntry, ModeTransition } from '../spec/mode/v1/index.js';

/** Any mode, in `enterableFrom`. */
export const anyMode = '*';

const normalized = (entries: ReadonlyArray<string | ModeTransition | ModeEntry> | undefined): ModeTransition[] =>
  (entries ?? []).map((entry) => (typeof entry === 'string' ? { mode: entry } : entry));

/**
 * The `switch_mode` transition from one mode to another, or undefined when there is none. Both
 * sides may declare it: `from.transitionsTo` names the target, `to.enterableFrom` names the source
 * (or `'*'`), so a plugin's mode is reachable from the built-in ones without re-registering them.
 * When any matching declaration requires approval, the transition does: one side cannot waive
 * what the other asks for. A mode has no transition to itself.
 */
export function findModeTransition(from: ModeDefinition | undefined, to: ModeDefinition | undefined): ModeTransition | undefined {
  if (!from || !to || from.id === to.id) return undefined;
  const matches = [
    ...normalized(from.transitionsTo).filter((entry) => entry.mode === to.id),
    ...normalized(to.enterableFrom).filter((entry) => entry.mode === from.id || entry.mode === anyMode),
  ];
  if (matches.length === 0) return undefined;
  return matches.some((entry) => entry.requiresApproval === true) ? { mode: to.id, requiresApproval: true } : { mode: to.id };
}

/** Every mode `switch_mode` can reach from `from`, in the order of `modes` (for messages that list the choices). */
export function reachableModes(from: ModeDefinition | undefined, modes: readonly ModeDefinition[]): ModeTransition[] {
  return modes.flatMap((to) => {
    const transition = findModeTransition(from, to);
    return transition ? [transition] : [];
  });
}
