import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import { walkBeneath } from '@cairn/core/node';
import { type GlobFileSearchInput, globDefaults, normalizeGlobPattern } from './glob-file-search.js';
import { throwIfAborted } from './shared/abort.js';
import { compileGlob } from './shared/glob-match.js';
import { ignoreRulesFor } from './shared/ignore-scope.js';
import { numberSetting } from './shared/tool-settings.js';
import { type WalkEntry, type WalkResult, walkWorkspace } from './shared/walk.js';
import { withReadTarget } from './shared/workspace-target.js';

function setting(context: ToolExecutionContext, key: keyof typeof globDefaults): number {
  return numberSetting(context, 'glob', key, globDefaults[key]);
}

interface Match {
  relative: string;
  mtimeMs: number;
}

/** glob_file_search's call: loaded at the first one (see glob-file-search.ts for the tool). */
export async function executeGlobFileSearch(input: GlobFileSearchInput, context: ToolExecutionContext): Promise<ToolResult> {
  throwIfAborted(context.signal);
  if (input.pattern.length > setting(context, 'maxPatternLength')) throw new ToolError('The glob pattern is too long; use a shorter one.');
  const pattern = normalizeGlobPattern(input.pattern);
  return withReadTarget(context, input.path, 'glob', async ({ resolved, entry, displayPath }) => {
    if (!entry.stats) throw new ToolError(`${displayPath} does not exist.`);
    if (!entry.stats.isDirectory()) throw new ToolError(`${displayPath} is a file; pass a folder as path.`);
    const matches = compileGlob(pattern);
    const prefixLength = resolved.relative === '' ? 0 : resolved.relative.length + 1;
    const candidates: WalkEntry[] = [];
    const walk = await walkWorkspace({
      root: context.cwd,
      start: resolved.relative,
      rules: await ignoreRulesFor(context.cwd, resolved.relative),
      maxDepth: setting(context, 'maxDepth'),
      maxVisited: setting(context, 'maxVisited'),
      signal: context.signal,
      include: (walked) => {
        if (walked.kind === 'directory') return true;
        if ((walked.kind === 'file' || walked.kind === 'symlink') && matches(walked.relative.slice(prefixLength))) candidates.push(walked);
        return false;
      },
    });
    try {
      const found: Match[] = [];
      for (const candidate of candidates) {
        throwIfAborted(context.signal);
        const match = await matchOf(context, walk, candidate);
        if (match) found.push(match);
      }
      return render(context, input, displayPath, found, walk.truncated);
    } finally {
      await walk.close();
    }
  });
}

/** A candidate counts when it is a file, or a link that leads to a file inside the workspace; both not denied. */
async function matchOf(context: ToolExecutionContext, walk: WalkResult, entry: WalkEntry): Promise<Match | undefined> {
  let stats: Stats | undefined;
  let target = entry.absolute;
  if (entry.kind === 'symlink') {
    const resolved = await walkBeneath(context.cwd, entry.relative).catch(() => undefined);
    if (!resolved) return undefined;
    await resolved.folder.close();
    stats = resolved.stats;
    target = join(context.cwd, resolved.relative);
  } else {
    stats = await walk.lstat(entry);
  }
  if (context.isPathDenied(entry.absolute, 'read') || (target !== entry.absolute && context.isPathDenied(target, 'read'))) return undefined;
  if (!stats?.isFile()) return undefined;
  return { relative: entry.relative, mtimeMs: stats.mtimeMs };
}

function render(context: ToolExecutionContext, input: GlobFileSearchInput, displayPath: string, found: Match[], walkTruncated: boolean) {
  found.sort((left, right) => right.mtimeMs - left.mtimeMs || (left.relative < right.relative ? -1 : 1));
  const maxResults = setting(context, 'maxResults');
  const shown = found.slice(0, maxResults);
  const notices: string[] = [];
  if (found.length > shown.length) notices.push(`[Showing the ${shown.length} newest of ${found.length} matches. Narrow the pattern or the path.]`);
  if (walkTruncated) {
    notices.push(`[The search stopped after ${setting(context, 'maxVisited')} entries; results may be incomplete. Search a subfolder.]`);
  }
  if (shown.length === 0 && notices.length === 0) return `No files match ${input.pattern} in ${displayPath}.`;
  const text = [...shown.map((match) => match.relative), ...notices].join('\n');
  return notices.length > 0 ? { content: [{ type: 'text' as const, text }], truncated: true } : text;
}
