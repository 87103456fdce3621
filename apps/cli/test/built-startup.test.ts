// The CLI as its own build makes it (tsup.config.ts): `cairn --help` loads only the CLI's chunks,
// with commander bundled into them, not commander's seven CommonJS files (docs/benchmarks.md,
// "Start-up"). Built into a temporary folder with a copy of package.json one level above it, as
// in the published package, and run in a fresh process.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../tsup.config.js';

const run = promisify(execFile);
const cliRoot = resolve(import.meta.dirname, '..');
const packageDir = join(cliRoot, 'node_modules', '.cache', `cairn-cli-build-${process.pid}`);
const outDir = join(packageDir, 'dist');
// Preloaded: prints to fd 3, at exit, every CommonJS file the process loaded.
const listRequired = join(packageDir, 'list-required.cjs');

beforeAll(async () => {
  mkdirSync(packageDir, { recursive: true });
  copyFileSync(join(cliRoot, 'package.json'), join(packageDir, 'package.json'));
  writeFileSync(listRequired, "process.on('exit', () => require('node:fs').writeSync(3, JSON.stringify(Object.keys(require.cache))));\n");
  await build({ ...(config as object), config: false, entry: { bin: join(cliRoot, 'src/bin.ts') }, outDir, dts: false, sourcemap: false, silent: true });
}, 60_000);
afterAll(() => rmSync(packageDir, { recursive: true, force: true }));

describe('the built cairn command', () => {
  it('prints its help without loading commander from node_modules', async () => {
    const child = spawn(process.execPath, ['-r', listRequired, join(outDir, 'bin.js'), '--help'], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], timeout: 20_000 });
    let help = '';
    let required = '';
    child.stdout?.on('data', (chunk) => (help += chunk));
    child.stdio[3]?.on('data', (chunk) => (required += chunk));
    const code = await new Promise<number | null>((resolveCode, reject) => {
      child.on('error', reject);
      child.on('close', resolveCode);
    });
    expect(code).toBe(0);
    expect(help).toContain('Usage: cairn');
    const paths = JSON.parse(required) as string[];
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => /[\\/]node_modules[\\/]commander[\\/]/.test(path))).toEqual([]);
  });

  it('runs: --help and --version from the build', async () => {
    const help = await run(process.execPath, [join(outDir, 'bin.js'), '--help'], { timeout: 20_000 });
    expect(help.stdout).toContain('Usage: cairn [options] [command] [prompt...]');
    const version = await run(process.execPath, [join(outDir, 'bin.js'), '--version'], { timeout: 20_000 });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
