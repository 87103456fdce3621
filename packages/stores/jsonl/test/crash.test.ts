import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJsonlStore } from '../src/index.js';

const packageRoot = resolve(import.meta.dirname, '..');
const bundleDir = join(packageRoot, 'node_modules', '.cache', `cairn-jsonl-child-${process.pid}`);
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-jsonl-crash-'));
  await build({
    config: false,
    entry: { 'append-forever': join(packageRoot, 'test/fixtures/append-forever.ts') },
    outDir: bundleDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    noExternal: [/^@cairn\//],
    esbuildOptions(options) {
      options.conditions = ['cairn-source'];
    },
  });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

it('kill -9 while appending: every acknowledged event survives, offsets stay dense, appends continue', async () => {
  const dir = join(root, 'store');
  const child = spawn(process.execPath, [join(bundleDir, 'append-forever.js'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let acknowledged = 0;
  await new Promise<void>((resolvePromise) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) acknowledged = Number(line);
      if (acknowledged >= 300 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', () => resolvePromise());
  });
  expect(acknowledged).toBeGreaterThanOrEqual(300);

  // The dead writer's lock is taken over; whatever it wrote loads, a torn tail (if any) is skipped.
  const store = createJsonlStore({ dir });
  const { events } = await store.runEvents.list('run-crash');
  expect(events.length).toBeGreaterThanOrEqual(acknowledged);
  expect(events.map((stored) => stored.offset)).toEqual(Array.from({ length: events.length }, (_, index) => index + 1));
  expect(store.warnings.length).toBeLessThanOrEqual(1);
  expect((await store.runEvents.append('run-crash', [{ kind: 'update', update: { type: 'text-delta', text: 'after' } }])).lastOffset).toBe(events.length + 1);
  await store.close();
});
