import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import type ignoreFactory from 'ignore';
import { lazyRequire } from '../util/lazy-require.js';

const loadIgnore = lazyRequire<typeof ignoreFactory>('ignore');

/** Folders no tool should walk by default, ignore files or not. */
export const defaultIgnoredDirectories = ['.git', 'node_modules', '.hg', '.svn', '.turbo', '.next', '.cache', '__pycache__', '.venv', '.DS_Store'];

/** Ignore files honoured in every folder, in this order (later files can re-include with `!`). */
export const ignoreFileNames = ['.gitignore', '.ignore', '.cairnignore', '.cursorignore'];

/**
 * Gitignore semantics for a whole tree: nested ignore files apply to their own folder and below,
 * using the `ignore` package (the matcher eslint and others use). Folders are loaded lazily as a
 * walk reaches them; call `ignores` with posix paths relative to the root.
 */
export class IgnoreRules {
  private readonly matchers = new Map<string, Ignore | null>();
  private readonly loading = new Map<string, Promise<void>>();

  private constructor(
    readonly root: string,
    private readonly extraPatterns: string[],
  ) {}

  static async load(root: string, options: { extraPatterns?: string[]; includeDefaults?: boolean } = {}): Promise<IgnoreRules> {
    const defaults = options.includeDefaults === false ? [] : defaultIgnoredDirectories.map((name) => `${name}/`);
    const rules = new IgnoreRules(root, [...defaults, ...(options.extraPatterns ?? [])]);
    await rules.loadDirectory('');
    return rules;
  }

  /** Read the ignore files of one folder (relative posix path, '' = root). Idempotent. */
  loadDirectory(relativeDirectory: string): Promise<void> {
    // Callers that judge many paths at once ask for the same folder together: one read serves them.
    let loading = this.loading.get(relativeDirectory);
    if (!loading) {
      loading = this.readDirectory(relativeDirectory);
      this.loading.set(relativeDirectory, loading);
    }
    return loading;
  }

  private async readDirectory(relativeDirectory: string): Promise<void> {
    // The files are read together (most are missing: one failed open each), added in their order.
    const texts = await Promise.all(ignoreFileNames.map((name) => readFile(join(this.root, relativeDirectory, name), 'utf8').catch(() => undefined)));
    const matcher = loadIgnore()({ allowRelativePaths: true });
    let any = false;
    if (relativeDirectory === '' && this.extraPatterns.length > 0) {
      matcher.add(this.extraPatterns);
      any = true;
    }
    for (const text of texts) {
      // A missing or unreadable ignore file adds nothing.
      if (text === undefined) continue;
      matcher.add(text);
      any = true;
    }
    this.matchers.set(relativeDirectory, any ? matcher : null);
  }

  /**
   * True when the path is ignored by any ignore file of its ancestors. Folders must have been
   * loaded (a top-down walk does that); unloaded folders count as having no ignore file.
   */
  ignores(relativePath: string, isDirectory: boolean): boolean {
    if (relativePath === '' || relativePath === '.') return false;
    const segments = relativePath.split('/');
    let ignored = false;
    for (let depth = 0; depth < segments.length; depth++) {
      const base = segments.slice(0, depth).join('/');
      const matcher = this.matchers.get(base);
      if (!matcher) continue;
      const rest = segments.slice(depth).join('/');
      const candidate = isDirectory || depth < segments.length - 1 ? rest : rest;
      const result = matcher.test(isDirectory ? `${candidate}/` : candidate);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    // A file inside an ignored folder is ignored too (gitignore cannot re-include it).
    for (let depth = 1; depth < segments.length && !ignored; depth++) {
      if (this.ignoresDirectoryOnly(segments.slice(0, depth).join('/'))) return true;
    }
    return ignored;
  }

  private ignoresDirectoryOnly(relativeDirectory: string): boolean {
    const segments = relativeDirectory.split('/');
    let ignored = false;
    for (let depth = 0; depth < segments.length; depth++) {
      const matcher = this.matchers.get(segments.slice(0, depth).join('/'));
      if (!matcher) continue;
      const result = matcher.test(`${segments.slice(depth).join('/')}/`);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
