import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runIndexCommand } from './index-command.js';
import { runSearchCommand } from './search-command.js';

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

async function workspace() {
  const base = await mkdtemp(join(tmpdir(), 'cairn-cli-index-'));
  bases.push(base);
  const cwd = join(base, 'proj');
  await mkdir(join(cwd, 'src'), { recursive: true });
  await writeFile(join(cwd, 'src/parser.ts'), 'export function parseConfigFile(text: string) {\n  return JSON.parse(text);\n}\n');
  await writeFile(join(cwd, 'src/server.py'), 'def start_http_server(port):\n    return port\n');
  return { cwd, home: join(base, 'home') };
}

describe('cairn index / cairn search', () => {
  it('indexes with plain progress lines, then searches in text and JSON', async () => {
    const { cwd, home } = await workspace();
    const out = capture();
    const err = capture();
    expect(await runIndexCommand({ cwd, home, stdout: out.stream, stderr: err.stream, isTTY: false })).toBe(0);
    expect(out.read()).toMatch(/^Indexed 2 files \(2 updated, 0 removed, 0 unchanged\), 2 chunks in \d+\.\d s\.\n$/);
    expect(err.read()).toContain('Scanning');
    expect(err.read()).not.toContain('\r');

    const text = capture();
    expect(await runSearchCommand('parse config file', { cwd, home, limit: 5, json: false, stdout: text.stream, stderr: capture().stream })).toBe(0);
    expect(text.read().split('\n')[0]).toBe('src/parser.ts:1-3  parseConfigFile');

    const json = capture();
    expect(await runSearchCommand('start http server', { cwd, home, limit: 1, json: true, stdout: json.stream, stderr: capture().stream })).toBe(0);
    const rows = JSON.parse(json.read());
    expect(rows).toEqual([{
      path: 'src/server.py', startLine: 1, endLine: 2, score: expect.any(Number), symbol: 'start_http_server', kind: 'function', role: 'source',
      snippet: 'def start_http_server(port):\n    return port', snippetLine: 1, scoreParts: { bm25: 1, name: 1 },
    }]);
  });

  it('answers from the tree as it is now: an edit in place, a new file and a deleted one since the last index', async () => {
    const { cwd, home } = await workspace();
    expect(await runIndexCommand({ cwd, home, stdout: capture().stream, stderr: capture().stream, isTTY: false })).toBe(0);
    const search = async (query: string) => {
      const out = capture();
      expect(await runSearchCommand(query, { cwd, home, limit: 5, json: false, stdout: out.stream, stderr: capture().stream })).toBe(0);
      return out.read();
    };
    await writeFile(join(cwd, 'src/parser.ts'), 'export function parseYamlFile(text: string) {\n  return text;\n}\n');
    expect(await search('parse yaml file')).toContain('src/parser.ts:1-3  parseYamlFile');
    await writeFile(join(cwd, 'src/client.py'), 'def open_http_client(url):\n    return url\n');
    expect(await search('open http client')).toContain('src/client.py:1-2  open_http_client');
    await rm(join(cwd, 'src/client.py'));
    expect(await search('open http client')).not.toContain('src/client.py');
  });

  it('draws a progress bar on a TTY and prints JSON summaries', async () => {
    const { cwd, home } = await workspace();
    const err = capture();
    expect(await runIndexCommand({ cwd, home, stdout: capture().stream, stderr: err.stream, isTTY: true })).toBe(0);
    expect(err.read()).toContain('\r\x1b[2K[');
    const out = capture();
    expect(await runIndexCommand({ cwd, home, json: true, stdout: out.stream, stderr: capture().stream, isTTY: false })).toBe(0);
    expect(JSON.parse(out.read())).toMatchObject({ indexedFiles: 0, unchangedFiles: 2, files: 2 });
  });

  it('fails with one clear line for a missing folder or an empty query', async () => {
    const err = capture();
    expect(await runIndexCommand({ cwd: join(tmpdir(), 'cairn-no-such-folder-xyz'), stdout: capture().stream, stderr: err.stream, isTTY: false })).toBe(1);
    expect(err.read()).toMatch(/^cairn index: The workspace folder .* does not exist or cannot be read\.\n$/);
    const searchErr = capture();
    expect(await runSearchCommand('  ', { cwd: '.', limit: 5, json: false, stdout: capture().stream, stderr: searchErr.stream })).toBe(2);
    expect(searchErr.read()).toContain('give a query');
  });
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
