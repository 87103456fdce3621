import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ShellCommandAnalysis } from './shell-analysis.js';

// Words are split where the shell or a program would split a path out of them: operators,
// quotes, `--opt=value`, `host:path` and `a,b` lists. Over-splitting only adds candidates.
const separators = /[\s;|&<>()`'"=:]+/;

/** Every word of the command that could name a file, split like a program would split a path out of it. */
export function candidateWords(analysis: ShellCommandAnalysis): string[] {
  const words = new Set<string>();
  const split = (text: string) => {
    for (const piece of text.split(separators)) {
      const clean = piece.replace(/\\(.)/gs, '$1');
      if (!clean) continue;
      words.add(clean);
      for (const item of clean.split(',')) if (item) words.add(item);
    }
  };
  split(analysis.command);
  for (const part of analysis.parts) {
    for (const word of [...part.argv, ...part.assignments]) {
      words.add(word);
      split(word);
    }
  }
  return [...words].filter((word) => word.length <= 4096);
}

const globLimits = { entries: 5000, matches: 200 };

/** What `glob` matches on disk now, walking from its literal base (bounded; symlinked folders not followed). */
export async function expandGlob(glob: string, matches: (path: string) => boolean, base: string): Promise<string[]> {
  const found: string[] = [];
  let entries = 0;
  const depth = glob.includes('**') ? Number.POSITIVE_INFINITY : glob.slice(base.length).split('/').filter(Boolean).length;
  const visit = async (folder: string, level: number): Promise<void> => {
    if (level > depth) return;
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      if (++entries > globLimits.entries || found.length >= globLimits.matches) return;
      const path = join(folder, entry.name);
      if (matches(path)) found.push(path);
      if (entry.isDirectory()) await visit(path, level + 1);
    }
  };
  await visit(base || '/', 1);
  return found;
}

/** Folders relative words are resolved against: where the command starts and every `cd` target. */
export function startFolders(analysis: ShellCommandAnalysis, cwd: string, home: string): string[] {
  const folders = new Set([cwd]);
  for (const part of analysis.parts) {
    if ((part.program === 'cd' || part.program === 'pushd') && part.argv[1] && !part.dynamic) {
      folders.add(resolve(cwd, expandHome(part.argv[1], home, cwd) ?? part.argv[1]));
    }
  }
  return [...folders];
}

/** `~`, `$HOME`, `${HOME}`, `$PWD` at the start of a word; undefined when another expansion remains. */
export function expandHome(word: string, home: string, cwd: string): string | undefined {
  const expanded = word
    .replace(/^~(?=\/|$)/, home)
    .replace(/^\$(?:HOME\b|\{HOME\})/, home)
    .replace(/^\$(?:PWD\b|\{PWD\})/, cwd);
  return /[$`]/.test(expanded) ? undefined : expanded;
}
