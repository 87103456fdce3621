import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdir, open, readFile, rename, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@cairn/core';
import { openEntryForReading, openWorkspacePath } from '@cairn/core/node';
import { describe, expect, it } from 'vitest';
import { readFileDefaults, readFileTool } from './read-file.js';
import { searchReplaceTool } from './search-replace.js';
import { assertRegularFile } from './shared/file-kind.js';
import { readSnapshotsStateKey } from './shared/read-snapshots.js';
import { createTestToolContext, createWorkspace, run, textOf } from './test-support/tool-context.js';

async function setup() {
  const workspace = await createWorkspace();
  return { ...workspace, ...createTestToolContext(workspace.root) };
}

const read = (input: unknown, context: Parameters<typeof run>[2]) => run(readFileTool, input, context);

describe('read_file', () => {
  it('returns numbered lines and records a read snapshot', async () => {
    const { root, context, state } = await setup();
    await writeFile(join(root, 'a.txt'), 'alpha\nbeta\n');
    const result = await read({ path: 'a.txt' }, context);
    expect(result).toBe('     1|alpha\n     2|beta');
    const snapshots = state.get(readSnapshotsStateKey) as Record<string, { size: number; sha256: string }>;
    expect(snapshots[join(root, 'a.txt')]).toMatchObject({ size: 11, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('paginates with offset and limit and says how to read on', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'long.txt'), Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n'));
    const page = await read({ path: 'long.txt', offset: 3, limit: 2 }, context);
    expect(textOf(page)).toContain('     3|line 3\n     4|line 4');
    expect(textOf(page)).toContain('call read_file with offset 5');
    expect(page).toMatchObject({ truncated: true });
    const tail = await read({ path: 'long.txt', offset: 9 }, context);
    expect(textOf(tail)).toBe('     9|line 9\n    10|line 10\n[Showing lines 9-10; the file ends at line 10.]');
    await expect(read({ path: 'long.txt', offset: 50 }, context)).rejects.toThrow(/past the end.*10 lines/);
  });

  it('huge file: reads the first page without loading the whole file', async () => {
    const { root } = await setup();
    // A byte cap above the page, so the line limit is what ends it.
    const { context } = createTestToolContext(root, { settings: { read: { maxOutputBytes: 1024 * 1024 } } });
    const handle = await open(join(root, 'huge.log'), 'w');
    const block = `${'x'.repeat(99)}\n`.repeat(10_000); // 1 MB per block
    for (let index = 0; index < 40; index++) await handle.write(block);
    await handle.close();
    const result = await read({ path: 'huge.log' }, context);
    const text = textOf(result);
    expect(text.split('\n').filter((line) => /^\s+\d+\|/.test(line))).toHaveLength(2000);
    expect(text).toContain('call read_file with offset 2001');
  });

  it('caps one read at 64 KB of UTF-8 by whole lines, and the offset it names continues exactly', async () => {
    const { root, context } = await setup();
    // Multi-byte lines (2- and 4-byte characters), so bytes and characters differ.
    const lines = Array.from({ length: 3000 }, (_, index) => `row ${index + 1} ${'é'.repeat(20)} ${'😀'.repeat(5)} ${'x'.repeat(index % 37)}`);
    await writeFile(join(root, 'wide.txt'), `${lines.join('\n')}\n`);
    const seen: string[] = [];
    let offset = 1;
    let reads = 0;
    for (;;) {
      const result = await read({ path: 'wide.txt', offset }, context);
      const text = textOf(result);
      const numbered = text.split('\n').filter((line) => /^\s+\d+\|/.test(line));
      expect(Buffer.byteLength(numbered.join('\n'), 'utf8')).toBeLessThanOrEqual(readFileDefaults.maxOutputBytes);
      // No character is split: the text re-encodes to the same bytes, and every line is whole.
      expect(text).not.toContain('\uFFFD');
      for (const line of numbered) expect(lines).toContain(line.slice(line.indexOf('|') + 1));
      seen.push(...numbered.map((line) => line.slice(line.indexOf('|') + 1)));
      reads++;
      const next = /call read_file with offset (\d+)/.exec(text);
      if (!next) break;
      expect(text).toContain('one read returns at most 65536 bytes');
      expect(result).toMatchObject({ truncated: true });
      offset = Number(next[1]);
    }
    expect(reads).toBeGreaterThan(2);
    expect(seen).toEqual(lines);
  });

  it('a byte-capped read of an explicit range says the offset and limit for the rest of it', async () => {
    const { root } = await setup();
    const { context } = createTestToolContext(root, { settings: { read: { maxOutputBytes: 100 } } });
    await writeFile(join(root, 'ten.txt'), Array.from({ length: 40 }, (_, index) => `line number ${index + 1}`).join('\n'));
    const first = textOf(await read({ path: 'ten.txt', offset: 5, limit: 20 }, context));
    const shown = first.split('\n').filter((line) => /^\s+\d+\|/.test(line));
    expect(shown[0]).toBe('     5|line number 5');
    const last = 5 + shown.length - 1;
    expect(first).toContain(`call read_file with offset ${last + 1} and limit ${24 - last}.`);
    const rest = textOf(await read({ path: 'ten.txt', offset: last + 1, limit: 24 - last }, context));
    expect(rest.split('\n').find((line) => /^\s+\d+\|/.test(line))).toBe(`${String(last + 1).padStart(6)}|line number ${last + 1}`);
    // A single line longer than the cap is still shown whole (lines are bounded by maxLineChars).
    await writeFile(join(root, 'one.txt'), `${'y'.repeat(500)}\nshort\n`);
    const long = textOf(await read({ path: 'one.txt' }, context));
    expect(long).toContain(`     1|${'y'.repeat(500)}`);
    expect(long).toContain('call read_file with offset 2.');
  });

  it('a file above the hash limit (sparse, 70 MB): first page read, size+mtime snapshot, edits refused', async () => {
    const { root, context, state } = await setup();
    const path = join(root, 'big.txt');
    await writeFile(path, Array.from({ length: 3000 }, (_, index) => `row ${index + 1}`).join('\n'));
    await truncate(path, 70 * 1024 * 1024);
    const text = textOf(await read({ path: 'big.txt' }, context));
    expect(text).toContain('  2000|row 2000');
    expect(text).toContain('offset 2001');
    expect((state.get(readSnapshotsStateKey) as Record<string, { sha256: string | null }>)[path]?.sha256).toBeNull();
    await expect(run(searchReplaceTool, { path: 'big.txt', old_string: 'row 1', new_string: 'x' }, context)).rejects.toThrow(/above the \d+-byte limit/);
  });

  it('one-line minified file: the line is cut with a marker', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'bundle.min.js'), `var a=${'1+'.repeat(500_000)}1;`);
    const text = textOf(await read({ path: 'bundle.min.js' }, context));
    expect(text.length).toBeLessThan(3000);
    expect(text).toMatch(/line cut: \d+ more characters/);
    expect(text).toContain('1 long line(s) were cut');
  });

  it('binary file: refused with a clear message', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'tool.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    await expect(read({ path: 'tool.bin' }, context)).rejects.toThrow(/binary file/);
  });

  it('FIFO inside the workspace: refused without blocking', async () => {
    const { root, context } = await setup();
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await expect(read({ path: 'pipe' }, context)).rejects.toThrow(/named pipe \(FIFO\)/);
  });

  it('device file through a symlink: refused (outside the workspace) and never opened', async () => {
    const { root, context } = await setup();
    await symlink('/dev/zero', join(root, 'zero'));
    await expect(read({ path: 'zero' }, context)).rejects.toThrow(/outside the workspace/);
  });

  it('device files are refused by the kind check that runs before any open', async () => {
    expect(() => assertRegularFile(statSync('/dev/null'), 'null', 'reading')).toThrow(/character device/);
  });

  it('empty file: says so', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'empty.txt'), '');
    expect(await read({ path: 'empty.txt' }, context)).toMatch(/empty \(0 bytes\)/);
  });

  it('invalid UTF-8: decoded lossily', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6b]));
    expect(await read({ path: 'latin1.txt' }, context)).toBe('     1|caf\uFFFD\n     2|ok');
  });

  it('UTF-16 with BOM (both byte orders): decoded', async () => {
    const { root, context } = await setup();
    const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')]);
    await writeFile(join(root, 'le.txt'), little);
    expect(await read({ path: 'le.txt' }, context)).toBe('     1|héllo\n     2|wörld');
    const big = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('one\ntwo', 'utf16le').swap16()]);
    await writeFile(join(root, 'be.txt'), big);
    expect(await read({ path: 'be.txt' }, context)).toBe('     1|one\n     2|two');
  });

  it('UTF-8 BOM is not shown and CRLF is not shown', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\r\n')]));
    expect(await read({ path: 'bom.txt' }, context)).toBe('     1|a\n     2|b');
  });

  it('images come back as image content, with a size cap', async () => {
    const { root, context } = await setup();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
    await writeFile(join(root, 'pixel.png'), png);
    expect(await read({ path: 'pixel.png' }, context)).toEqual({ content: [{ type: 'image', data: png.toString('base64'), mediaType: 'image/png' }] });
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20, 0)]);
    await writeFile(join(root, 'anim.gif'), gif);
    expect(await read({ path: 'anim.gif' }, context)).toMatchObject({ content: [{ type: 'image', mediaType: 'image/gif' }] });
    const small = createTestToolContext(root, { settings: { maxImageBytes: 10 } });
    await expect(read({ path: 'pixel.png' }, small.context)).rejects.toThrow(/above the 10-byte limit/);
    const scoped = createTestToolContext(root, { settings: { read: { maxImageBytes: 20 } } });
    await expect(read({ path: 'pixel.png' }, scoped.context)).rejects.toThrow(/above the 20-byte limit/);
  });

  it('a directory is refused with a hint to list it', async () => {
    const { root, context } = await setup();
    await mkdir(join(root, 'src'));
    await expect(read({ path: 'src' }, context)).rejects.toThrow(/directory.*list_dir/);
  });

  it('deny rules are honoured, also through a link to the denied file', async () => {
    const { root } = await setup();
    await writeFile(join(root, '.env'), 'KEY=1\n');
    await symlink('.env', join(root, 'innocent'));
    const { context } = createTestToolContext(root, { deny: (path, tool) => tool === 'read' && path === join(root, '.env') });
    await expect(read({ path: '.env' }, context)).rejects.toThrow(/denied/);
    await expect(read({ path: 'innocent' }, context)).rejects.toThrow(/denied/);
  });

  it('missing file: says so', async () => {
    const { context } = await setup();
    await expect(read({ path: 'nope.txt' }, context)).rejects.toBeInstanceOf(ToolError);
  });

  it('a read does not change the file', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'same.txt'), 'x');
    await read({ path: 'same.txt' }, context);
    expect(await readFile(join(root, 'same.txt'), 'utf8')).toBe('x');
  });
});

describe('reading through the folder that was checked', () => {
  it('reads the inside file even when its folder is swapped for a link to outside after the check', async () => {
    const { root, outside } = await createWorkspace();
    await mkdir(join(root, 'real'));
    await writeFile(join(root, 'real', 'secret.txt'), 'inside\n');
    const { entry } = await openWorkspacePath(root, 'real/secret.txt');
    try {
      await rename(join(root, 'real'), join(root, 'moved'));
      await symlink(outside, join(root, 'real'));
      const opened = await openEntryForReading(root, entry, 'real/secret.txt');
      expect(await opened?.handle.readFile('utf8')).toBe('inside\n');
      await opened?.handle.close();
    } finally {
      await entry.folder.close();
    }
  });
});
