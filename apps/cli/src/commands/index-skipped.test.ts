import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runIndexCommand } from './index-command.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { stream, read: () => text };
}

const bases: string[] = [];
afterEach(async () => {
  for (const base of bases.splice(0)) await rm(base, { recursive: true, force: true });
});

describe('cairn index reports skipped files', () => {
  it('counts them by reason and names the largest, in text and JSON', async () => {
    const base = await mkdtemp(join(tmpdir(), 'cairn-cli-skipped-'));
    bases.push(base);
    const cwd = join(base, 'proj');
    await mkdir(join(cwd, 'dist'), { recursive: true });
    await writeFile(join(cwd, 'main.ts'), 'export const answer = 42;\n');
    await writeFile(join(cwd, 'dist/bundle.js'), 'x'.repeat(3 * 1024 * 1024));
    await writeFile(join(cwd, 'data.sqlite'), Buffer.from([0x53, 0x51, 0, 0, 1, 2]));
    const home = join(base, 'home');
    const out = capture();
    expect(await runIndexCommand({ cwd, home, stdout: out.stream, stderr: capture().stream, isTTY: false })).toBe(0);
    expect(out.read().split('\n')[1]).toBe('Skipped 2 files (1 too large, 1 binary): dist/bundle.js (3.0 MB, too large), data.sqlite (1 KB, binary)');
    const json = capture();
    expect(await runIndexCommand({ cwd, home, json: true, stdout: json.stream, stderr: capture().stream, isTTY: false })).toBe(0);
    expect(JSON.parse(json.read())).toMatchObject({
      skippedFiles: 2,
      skipped: { tooLarge: 1, binary: 1, unreadable: 0 },
      largestSkipped: [{ path: 'dist/bundle.js', bytes: 3 * 1024 * 1024, reason: 'tooLarge' }, { path: 'data.sqlite', bytes: 6, reason: 'binary' }],
    });
  });
});
