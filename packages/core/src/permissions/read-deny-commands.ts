import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type picomatchFactory from 'picomatch';
import { createDeniedFilesIndex, type DeniedFiles, type DeniedFilesIndex, hardLinkToDeniedFile, homeExpandedGlobs } from '../node/denied-files.js';
import { canonicalizePath, isInsideRoot } from '../node/workspace-path.js';
import { lazyRequire } from '../util/lazy-require.js';
import { pathRuleMatches } from './path-rules.js';
import type { ParsedPermissionRule } from './permission-rules.js';
import { candidateWords, expandGlob, expandHome, startFolders } from './read-deny-words.js';
import type { ShellCommandAnalysis } from './shell-analysis.js';

const loadPicomatch = lazyRequire<typeof picomatchFactory>('picomatch');

/** A word of a command that names a file a read deny rule hides. */
export interface ReadDenyFinding {
  word: string;
  /** The denied path it resolves to (or the rule's glob for a name of unknown folder). */
  path: string;
  rule: ParsedPermissionRule;
  /** Why the word counts: the path itself, a symlink or hard link to it, or a glob matching it. */
  via: 'path' | 'link' | 'glob' | 'name';
}

export interface ReadDenyCommandCheck {
  /**
   * The first word of the command that names a denied file, if any, as a refusal the model can
   * act on. `root` is the workspace root, `input` the shell call's input (its `cwd`).
   */
  check(analysis: ShellCommandAnalysis, root: string, input: unknown): Promise<{ reason: string; rule: ParsedPermissionRule } | undefined>;
  /** The word-level finding behind `check`. */
  find(analysis: ShellCommandAnalysis, where: { root: string; cwd: string }): Promise<ReadDenyFinding | undefined>;
  /** The denied files on disk, shared with other consumers of the same rules (the shell's masks, hard-link checks). */
  index(root: string): DeniedFilesIndex;
}

// Tokens checked against the disk (symlinks, hard links) per command; the rest by name only.
const maximumDiskChecks = 400;

export interface ReadDenyCommandOptions {
  /** The deny rules of the engine; those of the `read` family with a path glob are used. */
  denyRules: readonly ParsedPermissionRule[];
  /** The commands' HOME (the agent's environment); this process's home directory counts too. */
  home?: string;
}

/**
 * Outside the OS sandbox nothing stops `cat .env` at the file level, so a command that names a
 * file hidden by a read deny rule is refused: any word (split like a path would be) that
 * resolves to a denied path — directly, through `~`/`$HOME`, a symlink, a hard link or a glob
 * that matches an existing denied file. A word behind another expansion (`$DIR/.env`) is judged
 * by its literal file name. Inside the sandbox the same files are also masked at the OS level.
 */
export function createReadDenyCommandCheck(options: ReadDenyCommandOptions): ReadDenyCommandCheck {
  const rules = options.denyRules.filter((rule) => (rule.tool === 'read' || rule.tool === 'read_file') && rule.specifier !== undefined);
  const homes = [...new Set([options.home, homedir()].filter((home): home is string => Boolean(home)))];
  const commandHome = homes[0] ?? homedir();
  const indexes = new Map<string, DeniedFilesIndex>();
  const index = (root: string) => {
    let found = indexes.get(root);
    if (!found) {
      found = createDeniedFilesIndex({ globs: rules.map((rule) => rule.specifier as string), root, homes });
      indexes.set(root, found);
    }
    return found;
  };

  const ruleFor = (path: string, root: string) =>
    rules.find((rule) => homeExpandedGlobs([rule.specifier as string], homes).some((glob) => pathRuleMatches(glob, path, root)));
  // A file name behind an unknown folder: only globs without a folder part can match it.
  const nameRuleFor = (name: string) => rules.find((rule) => !(rule.specifier as string).includes('/') && pathRuleMatches(rule.specifier as string, `/${name}`, '/'));

  interface WordContext {
    folders: string[];
    root: string;
    denied: () => Promise<DeniedFiles>;
    diskChecks: { left: number };
    /** `shopt -s dotglob` / GLOBIGNORE: `*` matches dot files too. */
    dotGlob: boolean;
  }

  async function checkWord(word: string, context: WordContext): Promise<ReadDenyFinding | undefined> {
    const { folders } = context;
    const expanded = expandHome(word, commandHome, folders[0] as string);
    if (expanded === undefined) {
      const name = word.slice(word.lastIndexOf('/') + 1);
      const rule = name && !/[$`{}]/.test(name) ? nameRuleFor(name) : undefined;
      return rule ? { word, path: rule.specifier as string, rule, via: 'name' } : undefined;
    }
    const candidates = isAbsolute(expanded) ? [expanded] : folders.map((folder) => resolve(folder, expanded));
    for (const candidate of candidates) {
      const finding = loadPicomatch().scan(candidate).isGlob
        ? await checkGlob(word, candidate, context)
        : await checkPath(word, candidate, context);
      if (finding) return finding;
    }
    return undefined;
  }

  /** A glob names a denied file when it matches one (or lies inside a denied folder), on disk now or in the last search. */
  async function checkGlob(word: string, glob: string, context: WordContext): Promise<ReadDenyFinding | undefined> {
    const picomatch = loadPicomatch();
    const matches = picomatch(glob, { dot: context.dotGlob });
    const { base } = picomatch.scan(glob);
    const files = await context.denied();
    const hit = files.paths.find((path) => matches(path) || (base !== '' && isInsideRoot(path, base)));
    const rule = hit ? (ruleFor(hit, context.root) ?? rules[0]) : undefined;
    if (hit && rule) return { word, path: hit, rule, via: 'glob' };
    // A link made a moment ago is not in the last search yet: look at what the glob matches now.
    for (const path of await expandGlob(glob, matches, base)) {
      const finding = await checkPath(word, path, context);
      if (finding) return { ...finding, via: 'glob' };
    }
    return undefined;
  }

  async function checkPath(word: string, path: string, context: WordContext): Promise<ReadDenyFinding | undefined> {
    const rule = ruleFor(path, context.root);
    if (rule) return { word, path, rule, via: 'path' };
    if (context.diskChecks.left-- <= 0) return undefined;
    const canonical = await canonicalizePath(path).catch(() => path);
    const linkedRule = canonical !== path ? ruleFor(canonical, context.root) : undefined;
    if (linkedRule) return { word, path: canonical, rule: linkedRule, via: 'link' };
    const files = await context.denied();
    const linked = hardLinkToDeniedFile(canonical, files) ?? files.paths.find((denied) => isInsideRoot(denied, canonical));
    const linkRule = linked ? (ruleFor(linked, context.root) ?? rules[0]) : undefined;
    return linked && linkRule ? { word, path: linked, rule: linkRule, via: 'link' } : undefined;
  }

  const find: ReadDenyCommandCheck['find'] = async (analysis, { root, cwd }) => {
    if (rules.length === 0) return undefined;
    let files: Promise<DeniedFiles> | undefined;
    const context: WordContext = {
      folders: startFolders(analysis, cwd, commandHome),
      root,
      denied: () => {
        files ??= index(root).current();
        return files;
      },
      diskChecks: { left: maximumDiskChecks },
      dotGlob: /dotglob|GLOBIGNORE/.test(analysis.command),
    };
    for (const word of candidateWords(analysis)) {
      const finding = await checkWord(word, context);
      if (finding) return finding;
    }
    return undefined;
  };

  return {
    index,
    find,
    async check(analysis, root, input) {
      const requested = (input as { cwd?: unknown } | undefined)?.cwd;
      const finding = await find(analysis, { root, cwd: typeof requested === 'string' ? resolve(root, requested) : root });
      return finding ? { reason: describeFinding(finding), rule: finding.rule } : undefined;
    },
  };
}

function describeFinding(finding: ReadDenyFinding): string {
  const how = { path: '', link: ' (through a link)', glob: ' (a pattern matching it)', name: ' (by its file name)' }[finding.via];
  return `the command names ${finding.word}${how}, which the deny rule ${finding.rule.text} hides from every tool (${finding.path}); leave that file out of the command, it cannot be read`;
}
