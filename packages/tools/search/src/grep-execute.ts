import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError, type ToolExecutionContext, type ToolResultContent } from '@cairn/core';
import { type BeneathEntry, type ConfinedDirectory, hardLinkReadRefusal, IgnoreRules, openWorkspacePath } from '@cairn/core/node';
import { searchWithFallback } from './grep-fallback.js';
import { type GrepInput, type GrepPlan, planGrep } from './grep-input.js';
import { type GrepEntry, renderEntries } from './grep-output.js';
import { runRipgrep } from './grep-ripgrep.js';
import { grepDefaults } from './grep-tool.js';
import { locateRipgrep } from './ripgrep-binary.js';
import { type RipgrepJail, ripgrepJail } from './ripgrep-jail.js';

function numberSetting(context: ToolExecutionContext, key: keyof typeof grepDefaults): number {
  const value = context.settings?.[key];
  return typeof value === 'number' && value > 0 ? value : grepDefaults[key];
}

/**
 * Which engine runs: `settings.engine` = 'ripgrep' | 'builtin' (tests force one). Default: ripgrep
 * when its binary is present and it can run jailed (see ripgrepJail), otherwise the built-in one.
 */
async function chooseEngine(context: ToolExecutionContext): Promise<{ jail?: RipgrepJail }> {
  const engine = context.settings?.engine;
  if (engine === 'builtin') return {};
  const custom = context.settings?.rgPath;
  const rgPath = typeof custom === 'string' ? custom : await locateRipgrep();
  if (!rgPath && engine === 'ripgrep') throw new ToolError('The ripgrep binary is not available on this machine; remove the engine setting to use the built-in engine.');
  const jail = rgPath ? await ripgrepJail(rgPath) : undefined;
  if (!jail && rgPath && engine === 'ripgrep') {
    throw new ToolError('ripgrep only runs inside bubblewrap (apt-get install bubblewrap), which cannot start here; remove the engine setting to use the built-in engine.');
  }
  return jail ? { jail } : {};
}

interface SearchScope {
  root: string;
  target: string;
  targetIsFile: boolean;
  plan: GrepPlan;
  rules: IgnoreRules;
  isDenied(relativePath: string): boolean;
}

/** grep's call, loaded at the first one (see grep-tool.ts for the tool). */
export async function runGrep(input: GrepInput, context: ToolExecutionContext): Promise<ToolResultContent> {
  context.signal.throwIfAborted();
  const plan = planGrep(input);
  const root = context.cwd;
  const { resolved, entry } = await openWorkspacePath(root, input.path ?? '', { allowRoot: true });
  try {
    const denied = (absolute: string) => context.isPathDenied(absolute, 'read') || context.isPathDenied(absolute, 'grep');
    if (denied(resolved.absolute) || (resolved.lexical !== resolved.absolute && denied(resolved.lexical))) {
      throw new ToolError(`Searching ${input.path} is denied by the permission rules. Do not try to reach it another way.`);
    }
    const targetStats = entry.stats;
    if (!targetStats) throw new ToolError(`${input.path} does not exist. Check the path with list_dir or glob_file_search.`);
    // A FIFO, socket or device would block the search (or never end): only files and folders.
    if (!targetStats.isFile() && !targetStats.isDirectory()) {
      throw new ToolError(`${input.path} is not a regular file or folder (a pipe, socket or device), so it cannot be searched.`);
    }
    const scope: SearchScope = {
      root, target: resolved.relative, targetIsFile: targetStats.isFile(), plan, rules: await IgnoreRules.load(root),
      isDenied: (relativePath) => denied(join(root, relativePath)),
    };
    const { entries, stoppedBy } = await search(context, scope, entry);
    context.signal.throwIfAborted();
    return render(context, plan, entries, stoppedBy);
  } finally {
    await entry.folder.close();
  }
}

async function search(context: ToolExecutionContext, scope: SearchScope, entry: BeneathEntry): Promise<{ entries: GrepEntry[]; stoppedBy?: string }> {
  const limits = { maxLines: numberSetting(context, 'maxLines'), maxBytes: numberSetting(context, 'maxBytes') };
  const maxColumns = numberSetting(context, 'maxColumns');
  const timeoutMs = numberSetting(context, 'timeoutMs');
  const { jail } = await chooseEngine(context);
  if (jail) {
    const { root, target, plan } = scope;
    const result = await runRipgrep({ jail, root, target, plan, maxColumns, maxOutputBytes: limits.maxBytes * 8, timeoutMs, signal: context.signal });
    // Entries are in path order: the first ones allowed are the answer, one more shows there is more.
    const wanted = Math.min(limits.maxLines, plan.headLimit ?? Number.POSITIVE_INFINITY) + 1;
    return { entries: await filterRipgrepEntries(scope, result.entries, wanted), ...(result.stoppedBy ? { stoppedBy: result.stoppedBy } : {}) };
  }
  const start = scope.targetIsFile ? entry.folder : await openTargetFolder(entry, scope.target);
  try {
    const result = await searchWithFallback({
      target: scope.target, start, ...(scope.targetIsFile ? { fileName: entry.name } : {}), plan: scope.plan, rules: scope.rules, maxColumns,
      maxEntries: limits.maxLines * 4, maxFiles: numberSetting(context, 'maxFiles'), maxFileBytes: numberSetting(context, 'maxFileBytes'),
      deadline: Date.now() + timeoutMs, signal: context.signal, isAllowed: (path) => !scope.isDenied(path),
    });
    return { entries: result.entries, ...(result.stoppedBy ? { stoppedBy: result.stoppedBy } : {}) };
  } finally {
    if (start !== entry.folder) await start.close();
  }
}

/** The searched folder itself, opened inside the folder that holds it (the root when the entry is ''). */
async function openTargetFolder(entry: BeneathEntry, target: string): Promise<ConfinedDirectory> {
  if (entry.name === '') return entry.folder;
  const lookup = await entry.folder.openChild(entry.name);
  if (lookup.kind !== 'folder') throw new ToolError(`${target} changed while it was being searched (it is no longer a folder); try again.`);
  return lookup.folder;
}

/**
 * rg does not know .cairnignore / .cursorignore, the permission rules or the hard-link rule: filter
 * what it printed, up to `wanted` results (lines, files or counts; the renderer prints fewer). A
 * file given explicitly is searched even when ignored, as rg does.
 */
async function filterRipgrepEntries(scope: SearchScope, found: GrepEntry[], wanted: number): Promise<GrepEntry[]> {
  const verdicts = new Map<string, Promise<boolean>>();
  const judge = (path: string) => {
    let verdict = verdicts.get(path);
    if (!verdict) {
      verdict = isShown(scope, path);
      verdicts.set(path, verdict);
    }
    return verdict;
  };
  const entries: GrepEntry[] = [];
  let results = 0;
  for (let start = 0; start < found.length && results < wanted; start += verdictBatch) {
    // The files of a batch are judged together (their ignore files read at once), in output order after.
    const batch = found.slice(start, start + verdictBatch);
    const allowed = await Promise.all(batch.map((entry) => (entry.type === 'separator' ? true : judge(entry.path))));
    for (const [index, entry] of batch.entries()) {
      if (results >= wanted) break;
      if (entry.type === 'separator') entries.push(entry);
      else if (allowed[index]) {
        entries.push(entry);
        results++;
      }
    }
  }
  return entries;
}

/** How many of rg's entries are judged at once: enough to overlap the reads, few past the cap. */
const verdictBatch = 256;

function isShown(scope: SearchScope, path: string): Promise<boolean> {
  if (scope.isDenied(path)) return Promise.resolve(false);
  const ignored = scope.targetIsFile ? Promise.resolve(false) : ignoredByRules(scope.rules, path);
  return Promise.all([ignored, readableLink(scope.root, path)]).then(([isIgnored, readable]) => !isIgnored && readable);
}

/**
 * read_file's hard-link rule, so grep never shows what read_file refuses. A plain lstat is enough
 * here: rg ran jailed and read only workspace files; this only judges where their other names
 * might be (only the host can make such links, not a race).
 */
async function readableLink(root: string, relativePath: string): Promise<boolean> {
  const stats = await lstat(join(root, relativePath)).catch(() => undefined);
  return stats !== undefined && hardLinkReadRefusal(relativePath, stats.nlink) === undefined;
}

function render(context: ToolExecutionContext, plan: GrepPlan, entries: GrepEntry[], stoppedBy: string | undefined): ToolResultContent {
  const limits = { maxLines: numberSetting(context, 'maxLines'), maxBytes: numberSetting(context, 'maxBytes') };
  const timeoutMs = numberSetting(context, 'timeoutMs');
  const rendered = renderEntries(entries, { ...limits, ...(plan.headLimit ? { headLimit: plan.headLimit } : {}) });
  const notices: string[] = [];
  if (stoppedBy === 'timeout') notices.push(`[Search stopped after ${timeoutMs} ms; results are partial. Narrow it with path, glob or type, or use a simpler pattern.]`);
  else if (rendered.stoppedBy === 'cap' || stoppedBy) notices.push(`[Output truncated after ${rendered.lines} results. Narrow the search with path, glob or type, use output_mode files_with_matches, or set head_limit.]`);
  else if (rendered.stoppedBy === 'head_limit') notices.push(`[Showing the first ${rendered.lines} results (head_limit); more exist.]`);
  const body = rendered.lines === 0 ? 'No matches found.' : rendered.text;
  const text = notices.length > 0 ? `${body}\n${notices.join('\n')}` : body;
  return { content: [{ type: 'text', text }], ...(notices.length > 0 && rendered.stoppedBy !== 'head_limit' ? { truncated: true } : {}) };
}

async function ignoredByRules(rules: IgnoreRules, relativePath: string): Promise<boolean> {
  const segments = relativePath.split('/');
  await Promise.all(segments.map((_, depth) => rules.loadDirectory(segments.slice(0, depth).join('/'))));
  return rules.ignores(relativePath, false);
}

