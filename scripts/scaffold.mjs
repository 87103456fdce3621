// Writes package.json (when missing), tsconfig.json, tsconfig.build.json, tsup.config.ts and
// vitest.config.ts for every package of scripts/packages.mjs. Existing package.json files are
// left alone so hand edits survive; delete one to regenerate it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packages } from './packages.mjs';

const root = new URL('..', import.meta.url).pathname;

for (const pkg of packages) {
  const dir = join(root, pkg.dir);
  const up = relative(dir, root) || '.';
  mkdirSync(join(dir, 'src'), { recursive: true });
  const exportsMap = {};
  for (const entry of pkg.entries) {
    if (entry === 'bin') continue;
    const key = entry === 'index' ? '.' : `./${entry}`;
    exportsMap[key] = { 'cairn-source': `./src/${entry}.ts`, types: `./dist/${entry}.d.ts`, import: `./dist/${entry}.js` };
  }
  const dependencies = {};
  const devDependencies = { '@types/node': 'catalog:', tsup: 'catalog:', typescript: 'catalog:', vitest: 'catalog:' };
  const peerDependencies = {};
  for (const dep of pkg.deps) dependencies[dep] = 'catalog:';
  for (const dep of pkg.devDeps ?? []) devDependencies[dep] = 'catalog:';
  for (const short of pkg.cairn) {
    const full = short === 'sdk' || short === 'core' || short.startsWith('provider-') || short.startsWith('tools-') || short.startsWith('store-') || short === 'modes' || short === 'indexer' ? `@cairn/${short}` : short;
    if (pkg.cairnAsDeps || pkg.cairnAsDepsOnly?.includes(short)) dependencies[full] = 'workspace:*';
    else { peerDependencies[full] = 'workspace:^'; devDependencies[full] = 'workspace:*'; }
  }
  const packageJsonPath = join(dir, 'package.json');
  if (!existsSync(packageJsonPath)) {
    const json = {
      name: pkg.name, version: '0.1.0', description: pkg.description, license: 'Apache-2.0',
      ...(pkg.private ? { private: true } : {}),
      type: 'module', sideEffects: false, engines: { node: '>=20.19.0' },
      ...(pkg.bin ? { bin: pkg.bin } : {}),
      ...(Object.keys(exportsMap).length ? { exports: exportsMap } : {}),
      files: ['dist', 'README.md'],
      scripts: {
        ...(pkg.entries.length ? { build: 'tsup' } : {}),
        typecheck: 'tsc --noEmit -p tsconfig.json',
        test: 'vitest run',
        lint: 'biome check .',
      },
      dependencies, ...(Object.keys(peerDependencies).length ? { peerDependencies } : {}), devDependencies,
    };
    writeFileSync(packageJsonPath, JSON.stringify(json, null, 2) + '\n');
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: `${up}/tsconfig.base.json`, include: ['src', 'test', 'bench'] }, null, 2) + '\n');
  // The build resolves other @cairn packages through their built dist, not their sources.
  writeFileSync(join(dir, 'tsconfig.build.json'), JSON.stringify({ extends: `${up}/tsconfig.base.json`, compilerOptions: { customConditions: [] }, include: ['src'], exclude: ['src/**/*.test.ts', 'src/**/__fixtures__'] }, null, 2) + '\n');
  if (pkg.entries.length) {
    const entry = Object.fromEntries(pkg.entries.map((name) => [name, `src/${name}.ts`]));
    writeFileSync(join(dir, 'tsup.config.ts'), `import { defineConfig } from 'tsup';\n\nexport default defineConfig({\n  entry: ${JSON.stringify(entry)},\n  format: ['esm'],\n  dts: true,\n  sourcemap: true,\n  clean: true,\n  target: 'node20',\n  tsconfig: 'tsconfig.build.json',\n});\n`);
  }
  writeFileSync(join(dir, 'vitest.config.ts'), `import { sharedConfig } from '${up}/vitest.shared.ts';\n\nexport default sharedConfig;\n`);
}
console.log(`scaffolded ${packages.length} packages`);
