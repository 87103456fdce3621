import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findEslintConfig, findInstalledPackage } from './find-linters.js';

let base: string;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

async function fakePackage(folder: string, name: string, bin: string): Promise<void> {
  await mkdir(join(folder, 'node_modules', name, 'bin'), { recursive: true });
  await writeFile(join(folder, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: '9.9.9', bin: { [name === 'typescript' ? 'tsc' : name]: bin } }));
  await writeFile(join(folder, 'node_modules', name, 'bin', 'cli'), '');
}

describe('findInstalledPackage', () => {
  it("finds only the workspace root's own node_modules, never one in a folder above", async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-find-linters-')));
    const root = join(base, 'proj');
    await mkdir(root);
    await fakePackage(base, 'typescript', 'bin/cli');
    expect(findInstalledPackage(root, 'typescript', 'tsc')).toBeUndefined();
    await fakePackage(root, 'typescript', 'bin/cli');
    expect(findInstalledPackage(root, 'typescript', 'tsc')).toMatchObject({ version: '9.9.9', program: 'node_modules/typescript/bin/cli', displayPath: 'node_modules/typescript' });
  });

  it('ignores a bin entry that leaves its package', async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-find-linters-')));
    await fakePackage(base, 'typescript', '../../outside.js');
    await writeFile(join(base, 'outside.js'), '');
    expect(findInstalledPackage(base, 'typescript', 'tsc')).toBeUndefined();
  });
});

describe('findEslintConfig', () => {
  it('reads the configuration at the root only, never one above it', async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-find-linters-')));
    const root = join(base, 'proj');
    await mkdir(root);
    await writeFile(join(base, 'eslint.config.js'), 'export default [];\n');
    await writeFile(join(base, 'package.json'), JSON.stringify({ eslintConfig: {} }));
    expect(findEslintConfig(root)).toBeUndefined();
    await writeFile(join(root, 'eslint.config.mjs'), 'export default [];\n');
    expect(findEslintConfig(root)).toBe('eslint.config.mjs');
  });
});
