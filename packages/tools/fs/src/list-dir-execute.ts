import { readlink } from 'node:fs/promises';
import { ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import { ConfinementError, walkBeneath } from '@cairn/core/node';
import { type ListDirInput, listDirDefaults } from './list-dir.js';
import { throwIfAborted } from './shared/abort.js';
import { compileGlob } from './shared/glob-match.js';
import { ignoreRulesFor } from './shared/ignore-scope.js';
import { numberSetting } from './shared/tool-settings.js';
import { type WalkEntry, type WalkResult, walkWorkspace } from './shared/walk.js';
import { withReadTarget } from './shared/workspace-target.js';

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

/** Where a link leads, judged by the same confined resolution the tools use (never followed for the listing). */
async function describeLink(root: string, walk: WalkResult, entry: WalkEntry): Promise<string> {
  const path = await walk.pathOf(entry);
  const target = path === undefined ? '?' : await readlink(path).catch(() => '?');
  let note: string;
  try {
    const resolved = await walkBeneath(root, entry.relative);
    await resolved.folder.close();
    note = !resolved.stats ? ' (broken link)' : resolved.stats.isDirectory() ? ' (folder, not followed)' : '';
  } catch (error) {
    note = error instanceof ConfinementError && error.reason === 'outside' ? ' (outside the workspace, not followed)' : ' (broken link)';
  }
  return `${entry.name} -> ${target}${note}`;
}

async function describeEntry(root: string, walk: WalkResult, entry: WalkEntry): Promise<string> {
  if (entry.kind === 'directory') return `${entry.name}/`;
  if (entry.kind === 'symlink') return describeLink(root, walk, entry);
  if (entry.kind === 'other') return `${entry.name} (special file)`;
  const stats = await walk.lstat(entry);
  return stats ? `${entry.name} (${formatSize(stats.size)})` : entry.name;
}

/** list_dir's call: loaded at the first one (see list-dir.ts for the tool). */
export async function executeListDir(input: ListDirInput, context: ToolExecutionContext): Promise<ToolResult> {
  throwIfAborted(context.signal);
  return withReadTarget(context, input.path, 'ls', async ({ resolved, entry, displayPath }) => {
    if (!entry.stats) throw new ToolError(`${displayPath} does not exist.`);
    if (!entry.stats.isDirectory()) throw new ToolError(`${displayPath} is a file, not a folder. Use read_file to read it.`);
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
      include: (walked) =>
        !ignored(walked.relative.slice(prefixLength), walked.name) && !context.isPathDenied(walked.absolute, 'ls') && !context.isPathDenied(walked.absolute, 'read'),
    });
    try {
      return await renderListing(context, walk, { displayPath, relative: resolved.relative, maxEntries, startIgnored: rules.startIgnored });
    } finally {
      await walk.close();
    }
  });
}

async function renderListing(
  context: ToolExecutionContext,
  walk: WalkResult,
  listing: { displayPath: string; relative: string; maxEntries: number; startIgnored: boolean },
): Promise<string | { content: Array<{ type: 'text'; text: string }>; truncated: true }> {
  const { displayPath } = listing;
  const shown = walk.entries.slice(0, listing.maxEntries);
  const children = new Map<string, WalkEntry[]>();
  for (const entry of shown) {
    const parent = entry.relative.includes('/') ? entry.relative.slice(0, entry.relative.lastIndexOf('/')) : '';
    children.set(parent, [...(children.get(parent) ?? []), entry]);
  }
  const lines = [`${displayPath === '.' ? '.' : displayPath}/`];
  const render = async (folder: string, indent: string) => {
    for (const entry of children.get(folder) ?? []) {
      lines.push(`${indent}${await describeEntry(context.cwd, walk, entry)}`);
      if (entry.kind === 'directory') await render(entry.relative, `${indent}  `);
    }
  };
  await render(listing.relative, '  ');
  if (shown.length === 0) lines.push('  (empty, or everything in it is ignored)');
  const notices: string[] = [];
  if (listing.startIgnored) notices.push(`[${displayPath} is itself ignored by the ignore files; listed on request.]`);
  if (walk.entries.length > shown.length || walk.truncated) {
    notices.push(`[Listing cut at ${shown.length} entries. List a subfolder, pass ignore patterns, or use glob_file_search to narrow it.]`);
  }
  if (walk.depthLimited) notices.push(`[Folders deeper than ${setting(context, 'maxDepth')} levels are not expanded; list them directly.]`);
  const text = [...lines, ...notices].join('\n');
  return notices.length > 0 && !(notices.length === 1 && listing.startIgnored) ? { content: [{ type: 'text', text }], truncated: true } : text;
}
