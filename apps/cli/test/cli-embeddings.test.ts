import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from './pty/build-cli.js';

// The bundled CLI as a real process, embedding through the real openai SDK into a local server.
let cli: BuiltCli;
let server: FakeEmbeddingServer;

beforeAll(async () => {
  cli = await buildCli('embeddings');
  server = await startFakeEmbeddingServer({ concepts: { automobile: 'car' } });
}, 180_000);

afterAll(async () => {
  await server?.close();
  cli?.dispose();
});

const topic = (name: string, words: string) => `export function ${name}() {\n${Array.from({ length: 12 }, (_, line) => `  const step${line} = '${words} ${line} of ${name} in this workspace';`).join('\n')}\n  return step0;\n}\n`;

async function workspace(extra: Record<string, string> = {}): Promise<{ cwd: string; home: string }> {
  const base = await mkdtemp(join(tmpdir(), 'cairn-cli-embed-'));
  const files = { 'src/car.ts': topic('startCarEngine', 'turn the car key'), 'src/button.ts': topic('renderButton', 'draw a button label'), ...extra };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(base, 'proj', path)), { recursive: true });
    await writeFile(join(base, 'proj', path), text);
  }
  await mkdir(join(base, 'home'), { recursive: true });
  return { cwd: join(base, 'proj'), home: join(base, 'home') };
}

function cairn(args: string[], home: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Nothing of this machine's provider setup leaks in: only what the test gives.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OPENAI|GEMINI|GOOGLE|OLLAMA)_/.test(key)));
  const child = spawn(process.execPath, [cli.bin, ...args], { env: { ...clean, CAIRN_HOME: home, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('cairn index / search --embeddings', () => {
  it('indexes with vectors from an OpenAI-compatible server and finds code by meaning', async () => {
    const { cwd, home } = await workspace();
    const flags = ['--embeddings', 'openai/local-embed', '--embeddings-base-url', `${server.url}/v1`];
    server.resetCounts();
    const indexed = await cairn(['index', '--cwd', cwd, '--json', ...flags], home);
    expect(indexed.code, indexed.stderr).toBe(0);
    const stats = JSON.parse(indexed.stdout) as { totalChunks: number; vectors: number };
    expect([stats.vectors, server.inputs.length]).toEqual([stats.totalChunks, stats.totalChunks]);
    const searched = await cairn(['search', 'automobile', '--cwd', cwd, '--json', ...flags], home);
    expect(searched.code, searched.stderr).toBe(0);
    expect((JSON.parse(searched.stdout) as Array<{ path: string }>)[0]?.path).toBe('src/car.ts');
    // Without a model the same query is keyword-only, and no file says "automobile".
    const keywords = await cairn(['search', 'automobile', '--cwd', cwd, '--json'], home);
    expect(JSON.parse(keywords.stdout)).toEqual([]);
  });

  it('takes the model from index.embeddings of the user settings file', async () => {
    const { cwd, home } = await workspace();
    await writeFile(join(home, 'settings.json'), JSON.stringify({ index: { embeddings: { model: 'openai/local-embed', baseURL: `${server.url}/v1` } } }));
    const searched = await cairn(['search', 'automobile', '--cwd', cwd, '--json'], home);
    expect(searched.code, searched.stderr).toBe(0);
    expect((JSON.parse(searched.stdout) as Array<{ path: string }>)[0]?.path).toBe('src/car.ts');
  });

  it('reports a failed embedding pass with exit code 1, and the next run embeds only the rest', async () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, file) => [`src/m${file}.ts`, Array.from({ length: 10 }, (_, index) => topic(`job${file}n${index}`, `queue item ${file} ${index}`)).join('\n')]));
    const { cwd, home } = await workspace(many);
    const flags = ['--embeddings', 'openai/local-embed', '--embeddings-base-url', `${server.url}/v1`];
    server.resetCounts();
    server.setFailures((request) => (request >= 1 ? { status: 400, body: { error: { message: 'input too large for this test' } } } : undefined));
    const failed = await cairn(['index', '--cwd', cwd, ...flags], home);
    server.setFailures(undefined);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/302 chunks, 256 vectors/);
    expect(failed.stderr).toContain('Embeddings failed: OpenAI request failed with status 400: input too large for this test');
    expect(failed.stderr).toContain('Keyword search works and the 256 vectors made are kept; 46 chunks still need one. Run cairn index again to embed only those.');
    server.resetCounts();
    const resumed = await cairn(['index', '--cwd', cwd, '--json', ...flags], home);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect([JSON.parse(resumed.stdout).vectors, server.inputs.length]).toEqual([302, 46]);
  });

  it('says in one line what to fix for a malformed model, a missing key and an untrusted project base URL', async () => {
    const { cwd, home } = await workspace({ '.cairn/settings.json': JSON.stringify({ index: { embeddings: { model: 'openai/x', baseURL: 'http://attacker.example/v1' } } }) });
    const malformed = await cairn(['index', '--cwd', cwd, '--embeddings', 'text-embedding-3-small'], home);
    expect([malformed.code, malformed.stderr]).toEqual([2, expect.stringMatching(/^cairn index: The embedding model must be "provider\/model", e\.g\. /)]);
    const noKey = await cairn(['search', 'x', '--cwd', cwd, '--embeddings', 'openai/text-embedding-3-small'], home);
    expect([noKey.code, noKey.stderr]).toEqual([2, expect.stringContaining('OPENAI_API_KEY')]);
    const untrusted = await cairn(['index', '--cwd', cwd], home);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toMatch(/index\.embeddings in .*\.cairn\/settings\.json sets baseURL or apiKey/);
  });
});
