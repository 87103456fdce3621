// An agent that asks for hooks files (the CLI asks for the project's and the user's at every run)
// loads the hooks dispatcher, and with it child_process, only when a file declares a hook: a run
// without any loads neither (docs/benchmarks.md, "Start-up"). A fresh process per case, built
// from the sources, so no other test has loaded child_process first.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'tsup';

const run = promisify(execFile);
const packageRoot = resolve(import.meta.dirname, '..');
// Inside node_modules, so the bundle resolves core's dependencies; split like core's own build, so a
// dynamic import stays one (a single-file bundle would hoist the dispatcher's child_process import).
const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-hooks-load-${process.pid}`);
const childScript = join(outDir, 'hooks-load-child.js');
let root: string;

beforeAll(async () => {
  await build({ config: false, entry: { 'hooks-load-child': join(packageRoot, 'test/fixtures/hooks-load-child.ts') }, outDir, format: ['esm'], platform: 'node', target: 'node20', splitting: true, dts: false, sourcemap: false, silent: true });
  root = await mkdtemp(join(tmpdir(), 'cairn-hooks-load-'));
}, 60_000);
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function runIn(name: string, userHooks?: unknown): Promise<{ status: string; childProcess: boolean }> {
  const cwd = join(root, name, 'workspace');
  const home = join(root, name, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(join(home, '.cursor'), { recursive: true });
  if (userHooks) await writeFile(join(home, '.cursor/hooks.json'), JSON.stringify(userHooks));
  const { stdout } = await run(process.execPath, [childScript, cwd, home], { timeout: 20_000 });
  return JSON.parse(stdout);
}

describe('hooks files asked for', () => {
  it('none found: the run finishes without loading the hooks dispatcher', async () => {
    expect(await runIn('none')).toEqual({ status: 'finished', childProcess: false });
  });

  it('a user hooks file with a hook: the dispatcher loads and the run finishes', async () => {
    expect(await runIn('one', { version: 1, hooks: { stop: [{ command: 'true' }] } })).toEqual({ status: 'finished', childProcess: true });
  });
});
