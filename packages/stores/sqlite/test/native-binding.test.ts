// better-sqlite3 finds its addon through the `bindings` package unless told where it is; the store
// names the file npm builds (build/Release), which saves that search at every start
// (docs/benchmarks.md, "Start-up"). A fresh process, so no other test has loaded the addon first.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSources } from '../../../../scripts/testing/bundle-sources.js';

const run = promisify(execFile);
const packageRoot = resolve(import.meta.dirname, '..');
let root: string;
let child: Awaited<ReturnType<typeof bundleSources>>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-addon-'));
  child = await bundleSources(join(packageRoot, 'test/fixtures/addon-child.ts'), join(root, 'bundle'), 'addon-child');
});
afterAll(() => {
  child?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('the SQLite addon', () => {
  it('loads from build/Release without the bindings package', async () => {
    const { stdout } = await run(process.execPath, [child.file, join(root, 'agents.db')], { timeout: 15_000 });
    expect(JSON.parse(stdout)).toEqual({ bindings: false, addon: true });
  });
});
