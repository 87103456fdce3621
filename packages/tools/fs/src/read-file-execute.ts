import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { imageMediaTypeOfBytes, ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import { openEntryForReading } from '@cairn/core/node';
import { type ReadFileInput, readFileDefaults } from './read-file.js';
import { throwIfAborted } from './shared/abort.js';
import { assertRegularFile } from './shared/file-kind.js';
import { type LinePage, readLinePage } from './shared/line-page.js';
import { setReadSnapshot, snapshotFromBytes, snapshotFromHandle } from './shared/read-snapshots.js';
import { binarySniffBytes, looksBinary } from './shared/text-codec.js';
import { numberSetting } from './shared/tool-settings.js';
import { withReadTarget } from './shared/workspace-target.js';

function setting(context: ToolExecutionContext, key: keyof typeof readFileDefaults): number {
  return numberSetting(context, 'read', key, readFileDefaults[key]);
}

async function readHead(handle: FileHandle, bytes: number): Promise<Buffer> {
  const buffer = Buffer.alloc(bytes);
  const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
  return buffer.subarray(0, bytesRead);
}

async function readImage(handle: FileHandle, stats: Stats, absolute: string, displayPath: string, context: ToolExecutionContext): Promise<ToolResult | undefined> {
  const mediaType = imageMediaTypeOfBytes(await readHead(handle, 16));
  if (!mediaType) return undefined;
  const maxBytes = setting(context, 'maxImageBytes');
  if (stats.size > maxBytes) {
    throw new ToolError(`${displayPath} is an image of ${stats.size} bytes, above the ${maxBytes}-byte limit for images; it was not read.`);
  }
  const bytes = await handle.readFile();
  setReadSnapshot(context, absolute, snapshotFromBytes(bytes, stats));
  return { content: [{ type: 'image', data: bytes.toString('base64'), mediaType }] };
}

/** Everything is read from one descriptor, opened inside the folder the path was checked in. */
async function readOpenFile(handle: FileHandle, stats: Stats, absolute: string, displayPath: string, input: ReadFileInput, context: ToolExecutionContext): Promise<ToolResult> {
  if (stats.size === 0) {
    setReadSnapshot(context, absolute, await snapshotFromHandle(handle, stats));
    return `${displayPath} is empty (0 bytes).`;
  }
  // Images are recognised by their magic bytes, not their extension.
  const image = await readImage(handle, stats, absolute, displayPath, context);
  if (image) return image;
  if (looksBinary(await readHead(handle, binarySniffBytes))) {
    throw new ToolError(`${displayPath} is a binary file (${stats.size} bytes); it cannot be shown as text.`);
  }
  const offset = input.offset ?? 1;
  const limit = input.limit ?? setting(context, 'maxLines');
  const maxOutputBytes = setting(context, 'maxOutputBytes');
  // A UTF-8 character takes at least one byte, so a page cut at maxOutputBytes characters holds
  // every line that fits the byte cap; fitBytes then drops whole lines past it.
  const page = fitBytes(
    await readLinePage(handle, {
      offset,
      limit,
      maxLineChars: setting(context, 'maxLineChars'),
      maxOutputChars: Math.min(setting(context, 'maxOutputChars'), maxOutputBytes),
      signal: context.signal,
    }),
    maxOutputBytes,
  );
  setReadSnapshot(context, absolute, await snapshotFromHandle(handle, stats, context.signal));
  if (page.lines.length === 0) {
    if (page.totalLines === 0) return `${displayPath} is empty (only a byte order mark).`;
    throw new ToolError(`offset ${offset} is past the end of ${displayPath}, which has ${page.totalLines ?? page.lastLine} lines.`);
  }
  const notices: string[] = [];
  if (page.moreRemain) notices.push(readOnNotice(page, displayPath, { offset, limit, explicitLimit: input.limit !== undefined, maxOutputBytes }));
  else if (page.firstLine > 1) {
    notices.push(`[Showing lines ${page.firstLine}-${page.lastLine}; the file ends at line ${page.lastLine}.]`);
  }
  if (page.truncatedLines > 0) notices.push(`[${page.truncatedLines} long line(s) were cut.]`);
  const text = [...page.lines, ...notices].join('\n');
  if (!page.moreRemain && page.truncatedLines === 0) return text;
  return { content: [{ type: 'text', text }], truncated: true };
}

/**
 * The page without the whole lines that take it past `maxBytes` of UTF-8 (lines joined by
 * newlines). The first line always stays: it is already bounded by maxLineChars.
 */
function fitBytes(page: LinePage, maxBytes: number): LinePage {
  let bytes = 0;
  let kept = 0;
  for (const line of page.lines) {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (kept > 0 && bytes + size > maxBytes + 1) break;
    bytes += size;
    kept++;
  }
  if (kept === page.lines.length) return page;
  return { ...page, lines: page.lines.slice(0, kept), lastLine: page.firstLine + kept - 1, moreRemain: true, totalLines: undefined };
}

/** How to read on after a page that stopped before the end: the exact offset (and limit) of the next one. */
function readOnNotice(page: LinePage, displayPath: string, request: { offset: number; limit: number; explicitLimit: boolean; maxOutputBytes: number }): string {
  const next = page.lastLine + 1;
  const requestedLast = request.offset + request.limit - 1;
  const bySize = page.lastLine < requestedLast;
  const why = bySize ? ` (one read returns at most ${request.maxOutputBytes} bytes)` : '';
  // A caller that asked for a range gets the rest of it; otherwise the default page size applies.
  const rest = bySize && request.explicitLimit ? ` and limit ${requestedLast - page.lastLine}` : '';
  return `[Showing lines ${page.firstLine}-${page.lastLine} of ${displayPath}; more lines remain${why}. To read on, call read_file with offset ${next}${rest}.]`;
}

/** read_file's call: loaded at the first one (see read-file.ts for the tool). */
export async function executeReadFile(input: ReadFileInput, context: ToolExecutionContext): Promise<ToolResult> {
  throwIfAborted(context.signal);
  return withReadTarget(context, input.path, 'read', async ({ resolved, entry, displayPath }) => {
    // Nothing is opened before this kind check: opening a device can have effects of its own.
    if (entry.stats && !entry.stats.isFile()) assertRegularFile(entry.stats, displayPath, 'reading');
    const opened = await openEntryForReading(context.cwd, entry, displayPath);
    if (!opened) throw new ToolError(`${displayPath} does not exist. Check the path with list_dir or glob_file_search.`);
    try {
      return await readOpenFile(opened.handle, opened.stats, resolved.absolute, displayPath, input, context);
    } finally {
      await opened.handle.close();
    }
  });
}
