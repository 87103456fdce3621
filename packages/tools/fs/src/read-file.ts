import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { defineTool, imageMediaTypeOfBytes, ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import { openEntryForReading } from '@cairn/core/node';
import { z } from 'zod';
import { throwIfAborted } from './shared/abort.js';
import { assertRegularFile } from './shared/file-kind.js';
import { readLinePage } from './shared/line-page.js';
import { setReadSnapshot, snapshotFromBytes, snapshotFromHandle } from './shared/read-snapshots.js';
import { binarySniffBytes, looksBinary } from './shared/text-codec.js';
import { numberSetting } from './shared/tool-settings.js';
import { withReadTarget } from './shared/workspace-target.js';

/** Defaults; each can be overridden through the tool's settings (`toolSettings.read`). */
export const readFileDefaults = {
  maxLines: 2000,
  maxLineChars: 2000,
  maxOutputChars: 256 * 1024,
  maxImageBytes: 5 * 1024 * 1024,
};

export const readFileInputSchema = z.object({
  path: z.string().describe('Path of the file, relative to the workspace root (or absolute inside it).'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start reading from. Default 1.'),
  limit: z.number().int().min(1).optional().describe(`Number of lines to read. Default ${readFileDefaults.maxLines}.`),
});

export type ReadFileInput = z.infer<typeof readFileInputSchema>;

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
  const page = await readLinePage(handle, {
    offset,
    limit: input.limit ?? setting(context, 'maxLines'),
    maxLineChars: setting(context, 'maxLineChars'),
    maxOutputChars: setting(context, 'maxOutputChars'),
    signal: context.signal,
  });
  setReadSnapshot(context, absolute, await snapshotFromHandle(handle, stats, context.signal));
  if (page.lines.length === 0) {
    if (page.totalLines === 0) return `${displayPath} is empty (only a byte order mark).`;
    throw new ToolError(`offset ${offset} is past the end of ${displayPath}, which has ${page.totalLines ?? page.lastLine} lines.`);
  }
  const notices: string[] = [];
  if (page.moreRemain) {
    notices.push(
      `[Showing lines ${page.firstLine}-${page.lastLine} of ${displayPath}; more lines remain. ` +
        `To read on, call read_file with offset ${page.lastLine + 1}.]`,
    );
  } else if (page.firstLine > 1) {
    notices.push(`[Showing lines ${page.firstLine}-${page.lastLine}; the file ends at line ${page.lastLine}.]`);
  }
  if (page.truncatedLines > 0) notices.push(`[${page.truncatedLines} long line(s) were cut.]`);
  const text = [...page.lines, ...notices].join('\n');
  if (!page.moreRemain && page.truncatedLines === 0) return text;
  return { content: [{ type: 'text', text }], truncated: true };
}

export const readFileTool = defineTool<ReadFileInput>({
  id: 'read',
  name: 'read_file',
  description:
    'Read a file of the workspace. Text comes back as numbered lines "     N|text" (the number and "|" are not part of the file). ' +
    `At most ${readFileDefaults.maxLines} lines per call; when more remain, the result says which offset to pass next. ` +
    'Very long lines are cut. PNG, JPEG, GIF and WebP images come back as images. Binary files, pipes and devices are refused.',
  inputSchema: readFileInputSchema,
  readOnly: true,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
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
  },
});
