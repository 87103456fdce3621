// better-sqlite3 finds its addon through the `bindings` package unless told where it is; the store
// names the file npm builds (build/Release), which saves that search at every start
// (docs/benchmarks.md, "Start-up"). A fresh process, so no other test has loaded the addon first.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageRoot = resolve(import.meta.dirname, '..');
// Inside node_modules so the bundle resolves better-sqlite3 (kept external: it loads a native addon).
const bundleDir = join(packageRoot, 'node_modules', '.cache', `cairn-sqlite-addon-${process.pid}`);
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-addon-'));
  await build({
    config: false,
    entry: { 'addon-child': join(packageRoot, 'test/fixtures/addon-child.ts') },
    outDir: bundleDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    noExternal: [/^@cairn\//],
    external: ['better-sqlite3'],
    esbuildOptions(options) {
      options.conditions = ['cairn-source'];
    },
  });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe('the SQLite addon', () => {
  it('loads from build/Release without the bindings package', async () => {
    const { stdout } = await run(process.execPath, [join(bundleDir, 'addon-child.js'), join(root, 'agents.db')], { timeout: 15_000 });
    expect(JSON.parse(stdout)).toEqual({ bindings: false, addon: true });
  });
});
