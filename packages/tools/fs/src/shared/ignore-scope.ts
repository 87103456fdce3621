import { join } from 'node:path';
import { IgnoreRules } from '@cairn/core/node';
import type { WalkIgnoreRules } from './walk.js';

/**
 * Ignore rules for a walk starting at `start` (posix, relative to the root). Ancestor folders are
 * loaded first so their nested ignore files apply. When the start folder is itself ignored (the
 * model asked for node_modules/some-lib explicitly), rules are taken relative to that folder so
 * its contents can still be listed; default folders below it stay pruned.
 */
export async function ignoreRulesFor(root: string, start: string): Promise<WalkIgnoreRules & { startIgnored: boolean }> {
  const rules = await IgnoreRules.load(root);
  const segments = start === '' ? [] : start.split('/');
  let startIgnored = false;
  for (let depth = 0; depth < segments.length; depth++) {
    const folder = segments.slice(0, depth + 1).join('/');
    if (rules.ignores(folder, true)) {
      startIgnored = true;
      break;
    }
    await rules.loadDirectory(folder);
  }
  if (!startIgnored) {
    return { loadDirectory: (relative) => rules.loadDirectory(relative), ignores: (relative, isDirectory) => rules.ignores(relative, isDirectory), startIgnored };
  }
  const scoped = await IgnoreRules.load(join(root, start));
  const strip = (relative: string) => (relative === start ? '' : relative.slice(start.length + 1));
  return {
    loadDirectory: (relative) => scoped.loadDirectory(strip(relative)),
    ignores: (relative, isDirectory) => scoped.ignores(strip(relative), isDirectory),
    startIgnored,
  };
}
