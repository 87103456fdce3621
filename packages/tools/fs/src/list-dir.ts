import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { defineTool, ToolError, type ToolExecutionContext } from '@cairn/core';
import { isInsideRoot } from '@cairn/core/node';
import { z } from 'zod';
import { throwIfAborted } from './shared/abort.js';
import { compileGlob } from './shared/glob-match.js';
import { ignoreRulesFor } from './shared/ignore-scope.js';
import { numberSetting } from './shared/tool-settings.js';
import { type WalkEntry, walkWorkspace } from './shared/walk.js';
import { displayPathOf, resolveReadTarget } from './shared/workspace-target.js';

/** Defaults; each can be overridden through the tool's settings (`toolSettings.ls`). */
export const listDirDefaults = { maxDepth: 3, maxEntries: 500, maxVisited: 20_000 };

export const listDirInputSchema = z.object({
  path: z.string().optional().describe('Folder to list, relative to the workspace root. Default: the workspace root.'),
  ignore: z.array(z.string()).optional().describe('Glob patterns of entries to leave out, e.g. ["*.test.ts", "fixtures/**"].'),
});

export type ListDirInput = z.infer<typeof listDirInputSchema>;

function setting(context: ToolExecutionContext, key: keyof typeof listDirDefaults): number {
  return numberSetting(context, 'ls', key, listDirDefaults[key]);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/** A pattern without a slash matches a name at any depth (like .gitignore); with one, the path from the listed folder. */
function ignoreMatcher(patterns: string[] | undefined): (relativeToListing: string, name: string) => boolean {
  if (!patterns || patterns.length === 0) return () => false;
  const byName = patterns.filter((pattern) => !pattern.includes('/')).map(compileGlob);
  const byPath = patterns.filter((pattern) => pattern.includes('/')).map((pattern) => compileGlob(pattern.replace(/^\.?\//, '')));
  return (relativeToListing, name) => byName.some((match) => match(name)) || byPath.some((match) => match(relativeToListing));
}

async function describeEntry(root: string, entry: WalkEntry): Promise<string> {
  if (entry.kind === 'directory') return `${entry.name}/`;
  if (entry.kind === 'symlink') {
    const target = await readlink(entry.absolute).catch(() => '?');
    const real = await realpath(entry.absolute).catch(() => undefined);
    let note = '';
    if (real === undefined) note = ' (broken link)';
    else if (!isInsideRoot(root, real)) note = ' (outside the workspace, not followed)';
    else if ((await stat(real)).isDirectory()) note = ' (folder, not followed)';
    return `${entry.name} -> ${target}${note}`;
  }
  const stats = await lstat(entry.absolute).catch(() => undefined);
  if (entry.kind === 'other') return `${entry.name} (special file)`;
  return stats ? `${entry.name} (${formatSize(stats.size)})` : entry.name;
}

export const listDirTool = defineTool<ListDirInput>({
  id: 'ls',
  name: 'list_dir',
  description:
    `List a folder of the workspace as a tree (${listDirDefaults.maxDepth} levels, at most ${listDirDefaults.maxEntries} entries). Folders end with "/", ` +
    'files show their size, symbolic links show their target and are not followed. Files ignored by .gitignore, .ignore, .cairnignore or ' +
    '.cursorignore are left out, as are node_modules and .git.',
  inputSchema: listDirInputSchema,
  readOnly: true,
  category: 'fs',
  paths: (input) => [input.path ?? '.'],
  async execute(input, context) {
    throwIfAborted(context.signal);
    const resolved = await resolveReadTarget(context, input.path, 'ls');
    const displayPath = displayPathOf(resolved, input.path ?? '.');
    const stats = await stat(resolved.absolute).catch(() => undefined);
    if (!stats) throw new ToolError(`${displayPath} does not exist.`);
    if (!stats.isDirectory()) throw new ToolError(`${displayPath} is a file, not a folder. Use read_file to read it.`);
    const rules = await ignoreRulesFor(context.cwd, resolved.relative);
    const ignored = ignoreMatcher(input.ignore);
    const prefixLength = resolved.relative === '' ? 0 : resolved.relative.length + 1;
    const maxEntries = setting(context, 'maxEntries');
    const walk = await walkWorkspace({
      root: context.cwd,
      start: resolved.relative,
      rules,
      maxDepth: setting(context, 'maxDepth'),
      maxVisited: setting(context, 'maxVisited'),
      signal: context.signal,
      include: (entry) =>
        !ignored(entry.relative.slice(prefixLength), entry.name) && !context.isPathDenied(entry.absolute, 'ls') && !context.isPathDenied(entry.absolute, 'read'),
    });
    const shown = walk.entries.slice(0, maxEntries);
    const children = new Map<string, WalkEntry[]>();
    for (const entry of shown) {
      const parent = entry.relative.includes('/') ? entry.relative.slice(0, entry.relative.lastIndexOf('/')) : '';
      children.set(parent, [...(children.get(parent) ?? []), entry]);
    }
    const lines = [`${displayPath === '.' ? '.' : displayPath}/`];
    const render = async (folder: string, indent: string) => {
      for (const entry of children.get(folder) ?? []) {
        lines.push(`${indent}${await describeEntry(context.cwd, entry)}`);
        if (entry.kind === 'directory') await render(entry.relative, `${indent}  `);
      }
    };
    await render(resolved.relative, '  ');
    if (shown.length === 0) lines.push('  (empty, or everything in it is ignored)');
    const notices: string[] = [];
    if (rules.startIgnored) notices.push(`[${displayPath} is itself ignored by the ignore files; listed on request.]`);
    if (walk.entries.length > shown.length || walk.truncated) {
      notices.push(`[Listing cut at ${shown.length} entries. List a subfolder, pass ignore patterns, or use glob_file_search to narrow it.]`);
    }
    if (walk.depthLimited) notices.push(`[Folders deeper than ${setting(context, 'maxDepth')} levels are not expanded; list them directly.]`);
    const text = [...lines, ...notices].join('\n');
    return notices.length > 0 && !(notices.length === 1 && rules.startIgnored) ? { content: [{ type: 'text', text }], truncated: true } : text;
  },
});
