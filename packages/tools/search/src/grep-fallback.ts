import { constants } from 'node:fs';
import { type FileHandle, open, readdir } from 'node:fs/promises';
import { type ConfinedDirectory, hardLinkReadRefusal, type IgnoreRules } from '@cairn/core/node';
import picomatch from 'picomatch';
import { fileTypeGlobs } from './file-types.js';
import type { GrepPlan } from './grep-input.js';
import type { GrepEntry } from './grep-output.js';
import { MatchSandbox } from './match-sandbox.js';
import { translateRustRegex } from './rust-regex.js';

export interface FallbackSearch {
  /** Posix path relative to the root ('' = the root); a file is searched even when ignored, like rg. */
  target: string;
  /**
   * The open folder to search, or for a file target the open folder holding it: everything is read
   * through folders opened inside it (never by path), so a folder swapped for a link is skipped.
   */
  start: ConfinedDirectory;
  /** The file's name in `start` when the target is a file. */
  fileName?: string;
  plan: GrepPlan;
  rules: IgnoreRules;
  maxColumns: number;
  /** Stop after this many entries (the renderer caps further). */
  maxEntries: number;
  maxFiles: number;
  maxFileBytes: number;
  deadline: number;
  signal: AbortSignal;
  isAllowed(relativePath: string): boolean;
}

export interface FallbackResult {
  entries: GrepEntry[];
  /** Why the walk stopped early, if it did. */
  stoppedBy?: 'timeout' | 'entries' | 'files';
}

const compareNames = (left: string, right: string) => Buffer.compare(Buffer.from(left), Buffer.from(right));

/**
 * ripgrep-compatible glob filter: a glob without `/` matches the file name at any depth; one with
 * `/` is anchored at the workspace root (rg runs there), whatever folder is searched.
 */
function globFilter(glob: string | undefined): ((relativePath: string, name: string, isDirectory: boolean) => boolean) | undefined {
  if (!glob) return undefined;
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  const anchored = body.includes('/');
  const matcher = picomatch(body.replace(/^\//, ''), { dot: true });
  return (relativePath, name, isDirectory) => {
    const matches = matcher(anchored ? relativePath : name) || (isDirectory && matcher(`${anchored ? relativePath : name}/`));
    if (isDirectory) return negated ? !matches : true;
    return negated ? !matches : matches;
  };
}

/**
 * The built-in engine used when no ripgrep binary is available: the same walk order as
 * `rg --sort path` (depth first, names sorted bytewise), the same ignore rules, binary files
 * skipped, symbolic links not followed, and the same entries as the ripgrep parser produces.
 */
export async function searchWithFallback(search: FallbackSearch): Promise<FallbackResult> {
  const { plan } = search;
  const sandbox = new MatchSandbox(translateRustRegex(plan.pattern, plan), plan.multiline);
  const globMatches = globFilter(plan.glob);
  const typeMatcher = plan.type ? picomatch(fileTypeGlobs[plan.type] ?? [], { dot: true }) : undefined;
  const entries: GrepEntry[] = [];
  let files = 0;
  let stoppedBy: FallbackResult['stoppedBy'];
  const context = plan.before > 0 || plan.after > 0;
  let printedFile = false;

  const searchFile = async (folder: ConfinedDirectory, name: string, relativePath: string): Promise<void> => {
    const text = await readText(folder, name, relativePath, search.maxFileBytes);
    if (text === undefined) return;
    const remaining = search.deadline - Date.now();
    if (remaining <= 0) throw new FallbackTimeout();
    let blocks: Array<[number, number]>;
    try {
      blocks = sandbox.search(text, remaining);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new FallbackTimeout();
      throw error;
    }
    if (blocks.length === 0) return;
    if (plan.mode === 'files_with_matches') {
      entries.push({ type: 'file', path: relativePath });
      return;
    }
    if (plan.mode === 'count') {
      entries.push({ type: 'count', path: relativePath, count: blocks.length });
      return;
    }
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    const matched = new Set<number>();
    for (const [first, last] of blocks) for (let line = first; line <= last; line++) matched.add(line);
    const printed = new Set<number>(matched);
    for (const line of matched) {
      for (let offset = 1; offset <= plan.before; offset++) if (line - offset >= 0) printed.add(line - offset);
      for (let offset = 1; offset <= plan.after; offset++) if (line + offset < lines.length) printed.add(line + offset);
    }
    if (context && printedFile) entries.push({ type: 'separator' });
    printedFile = true;
    let previous = -2;
    for (const line of [...printed].sort((left, right) => left - right)) {
      if (context && previous >= 0 && line !== previous + 1) entries.push({ type: 'separator' });
      previous = line;
      const raw = lines[line] ?? '';
      const text = raw.length > search.maxColumns ? `${raw.slice(0, search.maxColumns)} [... omitted end of long line]` : raw;
      entries.push({ type: 'line', path: relativePath, lineNumber: line + 1, isMatch: matched.has(line), text });
    }
  };

  const visit = async (folder: ConfinedDirectory, relativeFolder: string): Promise<void> => {
    await search.rules.loadDirectory(relativeFolder);
    const names = await readdir(folder.path, { withFileTypes: true }).catch(() => []);
    names.sort((left, right) => compareNames(left.name, right.name));
    for (const entry of names) {
      if (stoppedBy) return;
      search.signal.throwIfAborted();
      if (Date.now() > search.deadline) throw new FallbackTimeout();
      const relativePath = relativeFolder === '' ? entry.name : `${relativeFolder}/${entry.name}`;
      // Like rg without -L: symbolic links are skipped, so loops and links out of the workspace never matter.
      if (entry.isDirectory()) {
        if (search.rules.ignores(relativePath, true)) continue;
        if (globMatches && !globMatches(relativePath, entry.name, true)) continue;
        const lookup = await folder.openChild(entry.name).catch(() => undefined);
        // Swapped for a link (or removed) since the listing: not entered.
        if (lookup?.kind !== 'folder') continue;
        try {
          await visit(lookup.folder, relativePath);
        } finally {
          await lookup.folder.close();
        }
        continue;
      }
      if (!entry.isFile() || search.rules.ignores(relativePath, false)) continue;
      if (globMatches && !globMatches(relativePath, entry.name, false)) continue;
      if (typeMatcher && !typeMatcher(entry.name)) continue;
      if (!search.isAllowed(relativePath)) continue;
      if (++files > search.maxFiles) {
        stoppedBy = 'files';
        return;
      }
      await searchFile(folder, entry.name, relativePath);
      if (entries.length >= search.maxEntries) stoppedBy = 'entries';
    }
  };

  try {
    if (search.fileName !== undefined) {
      if (search.isAllowed(search.target)) await searchFile(search.start, search.fileName, search.target);
    } else {
      await visit(search.start, search.target);
    }
  } catch (error) {
    if (!(error instanceof FallbackTimeout)) throw error;
    stoppedBy = 'timeout';
  }
  return stoppedBy ? { entries, stoppedBy } : { entries };
}

class FallbackTimeout extends Error {}

/**
 * File text, or undefined for binary files (a NUL byte, as ripgrep detects them), unreadable ones
 * and hard links read_file refuses too. Opened inside its open folder without following a link.
 */
async function readText(folder: ConfinedDirectory, name: string, relativePath: string, maxFileBytes: number): Promise<string | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder.child(name), constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxFileBytes || hardLinkReadRefusal(relativePath, stats.nlink)) return undefined;
    const buffer = await handle.readFile();
    if (buffer.includes(0)) return undefined;
    return buffer.toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
