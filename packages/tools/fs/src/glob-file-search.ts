import { realpath, stat } from 'node:fs/promises';
import { defineTool, ToolError, type ToolExecutionContext } from '@cairn/core';
import { isInsideRoot } from '@cairn/core/node';
import { z } from 'zod';
import { throwIfAborted } from './shared/abort.js';
import { compileGlob } from './shared/glob-match.js';
import { ignoreRulesFor } from './shared/ignore-scope.js';
import { numberSetting } from './shared/tool-settings.js';
import { type WalkEntry, walkWorkspace } from './shared/walk.js';
import { displayPathOf, resolveReadTarget } from './shared/workspace-target.js';

/** Defaults; each can be overridden through the tool's settings (`toolSettings.glob`). */
export const globDefaults = { maxResults: 100, maxVisited: 50_000, maxDepth: 64, maxPatternLength: 1000 };

export const globFileSearchInputSchema = z.object({
  pattern: z.string().describe('Glob pattern such as "*.ts" or "src/**/*.test.ts". Patterns not starting with "**/" match at any depth.'),
  path: z.string().optional().describe('Folder to search in, relative to the workspace root. Default: the workspace root.'),
});

export type GlobFileSearchInput = z.infer<typeof globFileSearchInputSchema>;

function setting(context: ToolExecutionContext, key: keyof typeof globDefaults): number {
  return numberSetting(context, 'glob', key, globDefaults[key]);
}

/** `*.ts` -> `**\/*.ts`, `./src/*.ts` -> `**\/src/*.ts`; refuses patterns that leave the folder. */
export function normalizeGlobPattern(pattern: string): string {
  let normalized = pattern.trim().replace(/\\/g, '/');
  if (normalized === '') throw new ToolError('The glob pattern is empty.');
  if (normalized.startsWith('/') || /^[a-zA-Z]:\//.test(normalized)) {
    throw new ToolError('The glob pattern must be relative; pass the folder to search as path instead.');
  }
  if (normalized.split('/').includes('..')) throw new ToolError('The glob pattern must not contain "..": pass the folder to search as path instead.');
  normalized = normalized.replace(/^(\.\/)+/, '');
  return normalized.startsWith('**/') || normalized === '**' ? normalized : `**/${normalized}`;
}

interface Match {
  relative: string;
  mtimeMs: number;
}

export const globFileSearchTool = defineTool<GlobFileSearchInput>({
  id: 'glob',
  name: 'glob_file_search',
  description:
    `Find files by name pattern. Results are paths relative to the workspace root, newest first, at most ${globDefaults.maxResults}. ` +
    'Patterns not starting with "**/" match at any depth ("*.ts" finds every TypeScript file). Ignored files (.gitignore, .cairnignore, ' +
    'node_modules, ...) are left out; symbolic links to folders are not followed.',
  inputSchema: globFileSearchInputSchema,
  readOnly: true,
  category: 'search',
  paths: (input) => [input.path ?? '.'],
  async execute(input, context) {
    throwIfAborted(context.signal);
    if (input.pattern.length > setting(context, 'maxPatternLength')) throw new ToolError('The glob pattern is too long; use a shorter one.');
    const pattern = normalizeGlobPattern(input.pattern);
    const resolved = await resolveReadTarget(context, input.path, 'glob');
    const displayPath = displayPathOf(resolved, input.path ?? '.');
    const folderStats = await stat(resolved.absolute).catch(() => undefined);
    if (!folderStats) throw new ToolError(`${displayPath} does not exist.`);
    if (!folderStats.isDirectory()) throw new ToolError(`${displayPath} is a file; pass a folder as path.`);
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
      include: (entry) => {
        if (entry.kind === 'directory') return true;
        if ((entry.kind === 'file' || entry.kind === 'symlink') && matches(entry.relative.slice(prefixLength))) candidates.push(entry);
        return false;
      },
    });
    const found: Match[] = [];
    for (const entry of candidates) {
      throwIfAborted(context.signal);
      let target = entry.absolute;
      if (entry.kind === 'symlink') {
        // A link counts only when it leads to a file inside the workspace.
        const real = await realpath(entry.absolute).catch(() => undefined);
        if (!real || !isInsideRoot(context.cwd, real)) continue;
        target = real;
      }
      if (context.isPathDenied(entry.absolute, 'read') || (target !== entry.absolute && context.isPathDenied(target, 'read'))) continue;
      const stats = await stat(target).catch(() => undefined);
      if (!stats?.isFile()) continue;
      found.push({ relative: entry.relative, mtimeMs: stats.mtimeMs });
    }
    found.sort((left, right) => right.mtimeMs - left.mtimeMs || (left.relative < right.relative ? -1 : 1));
    const maxResults = setting(context, 'maxResults');
    const shown = found.slice(0, maxResults);
    const notices: string[] = [];
    if (found.length > shown.length) notices.push(`[Showing the ${shown.length} newest of ${found.length} matches. Narrow the pattern or the path.]`);
    if (walk.truncated) {
      notices.push(`[The search stopped after ${setting(context, 'maxVisited')} entries; results may be incomplete. Search a subfolder.]`);
    }
    if (shown.length === 0 && notices.length === 0) return `No files match ${input.pattern} in ${displayPath}.`;
    const text = [...shown.map((match) => match.relative), ...notices].join('\n');
    return notices.length > 0 ? { content: [{ type: 'text', text }], truncated: true } : text;
  },
});
