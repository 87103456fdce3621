import { stat } from 'node:fs/promises';
import { defineTool, ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import { z } from 'zod';
import { throwIfAborted } from './shared/abort.js';
import { assertRegularFile } from './shared/file-kind.js';
import { sniffImageType } from './shared/image.js';
import { readLinePage } from './shared/line-page.js';
import { openRegularFile } from './shared/open-regular-file.js';
import { setReadSnapshot, snapshotFromBytes, snapshotFromFile } from './shared/read-snapshots.js';
import { binarySniffBytes, looksBinary } from './shared/text-codec.js';
import { numberSetting } from './shared/tool-settings.js';
import { displayPathOf, resolveReadTarget } from './shared/workspace-target.js';

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

async function readHead(path: string, displayPath: string, bytes: number): Promise<Buffer> {
  const handle = await openRegularFile(path, displayPath);
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readImage(path: string, displayPath: string, size: number, context: ToolExecutionContext): Promise<ToolResult | undefined> {
  const head = await readHead(path, displayPath, 16);
  const mediaType = sniffImageType(head);
  if (!mediaType) return undefined;
  const maxBytes = setting(context, 'maxImageBytes');
  if (size > maxBytes) {
    throw new ToolError(`${displayPath} is an image of ${size} bytes, above the ${maxBytes}-byte limit for images; it was not read.`);
  }
  const handle = await openRegularFile(path, displayPath);
  try {
    const bytes = await handle.readFile();
    setReadSnapshot(context, path, snapshotFromBytes(bytes, await handle.stat()));
    return { content: [{ type: 'image', data: bytes.toString('base64'), mediaType }] };
  } finally {
    await handle.close();
  }
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
    const resolved = await resolveReadTarget(context, input.path, 'read');
    const displayPath = displayPathOf(resolved, input.path);
    let stats: Awaited<ReturnType<typeof stat>>;
    try {
      // The resolved path is canonical, so stat sees the real file; nothing is opened before this check.
      stats = await stat(resolved.absolute);
    } catch {
      throw new ToolError(`${displayPath} does not exist. Check the path with list_dir or glob_file_search.`);
    }
    assertRegularFile(stats, displayPath, 'reading');
    if (stats.size === 0) {
      setReadSnapshot(context, resolved.absolute, await snapshotFromFile(resolved.absolute, stats));
      return `${displayPath} is empty (0 bytes).`;
    }
    // Images are recognised by their magic bytes, not their extension.
    const image = await readImage(resolved.absolute, displayPath, stats.size, context);
    if (image) return image;
    const head = await readHead(resolved.absolute, displayPath, binarySniffBytes);
    if (looksBinary(head)) {
      throw new ToolError(`${displayPath} is a binary file (${stats.size} bytes); it cannot be shown as text.`);
    }
    const offset = input.offset ?? 1;
    const page = await readLinePage(resolved.absolute, displayPath, {
      offset,
      limit: input.limit ?? setting(context, 'maxLines'),
      maxLineChars: setting(context, 'maxLineChars'),
      maxOutputChars: setting(context, 'maxOutputChars'),
      signal: context.signal,
    });
    setReadSnapshot(context, resolved.absolute, await snapshotFromFile(resolved.absolute, stats, context.signal));
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
  },
});
