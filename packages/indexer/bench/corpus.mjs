// Offline corpora for the benchmarks, all dev dependencies of this package: zod's TypeScript
// sources, date-fns's, lodash-es's and ramda's ESM sources, and TypeScript's bundled lib .d.ts
// files under 1 MiB. Copied into a temp folder so the index sees
// an ordinary workspace.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const require = createRequire(import.meta.url);

export function zodSourceDir() {
  return join(dirname(require.resolve('zod/package.json')), 'src');
}

export function typescriptLibDir() {
  return join(dirname(require.resolve('typescript/package.json')), 'lib');
}

/** date-fns's ESM functions (top level, `_lib/`, `parse/`): no locales, no `fp/` wrappers, no
 * .cjs/.d.ts, no `cdn.js` bundle (it repeats every function). */
export function dateFnsSourceDir() {
  return dirname(require.resolve('date-fns/package.json'));
}

export function lodashSourceDir() {
  return dirname(require.resolve('lodash-es/package.json'));
}

export function ramdaSourceDir() {
  // ramda's exports map hides package.json: resolve its main file and climb to the package root.
  return join(dirname(require.resolve('ramda')), '..', 'es');
}

export const ramdaSource = () => ({ from: ramdaSourceDir(), to: 'ramda', keep: (path) => path.endsWith('.js') });
export const lodashSource = () => ({ from: lodashSourceDir(), to: 'lodash-es', keep: (path) => path.endsWith('.js') });
export const zodSource = () => ({ from: zodSourceDir(), to: 'zod', keep: (path) => /\.(ts|js)$/.test(path) });
export const dateFnsSource = () => {
  const from = dateFnsSourceDir();
  return { from, to: 'date-fns', keep: (path) => path.endsWith('.js') && !/^(locale|fp|docs)[\\/]|^cdn/.test(relative(from, path)) };
};

/** The whole ESM package as published (locales and fp wrappers included), minus the cdn bundles. */
export const dateFnsFullSource = () => {
  const from = dateFnsSourceDir();
  return { from, to: 'date-fns', keep: (path) => path.endsWith('.js') && !/^cdn|[\\/]cdn/.test(relative(from, path)) };
};

/**
 * A published npm package, fetched once with `npm pack` (the registry is the only network the
 * evaluation uses) into `node_modules/.cache/cairn-eval/`, checked against its pinned sha512 and
 * unpacked. Its own `node_modules` would hold the package's dependencies too, so it is not a
 * dev dependency: only the tarball's files (tests, docs, generated files included) are wanted.
 */
export function npmPackageDir(name, version, integrity) {
  const cache = join(dirname(require.resolve('../package.json')), 'node_modules', '.cache', 'cairn-eval');
  const dir = join(cache, `${name}-${version}`);
  if (existsSync(join(dir, 'package', 'package.json'))) return join(dir, 'package');
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, 'fetch-'));
  try {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', staging], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    const tarball = join(staging, packed.filename);
    const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (digest !== integrity) throw new Error(`${name}@${version}: the tarball's sha512 is ${digest}, expected ${integrity}`);
    execFileSync('tar', ['-xzf', tarball, '-C', staging]);
    rmSync(tarball);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return join(dir, 'package');
}

/** fastify as published: lib/, types/, its tests, docs, examples and two generated validators. */
export const fastifySource = () => ({
  from: npmPackageDir('fastify', '5.12.8', 'sha512-moP8exb2sCHLUbJkwp+I6C0padhy4D8lp0SdmzY7HhSdZuqm7O/u3o2aq7u8okaQ//33QDzj3G/u+FsSdB8Qzw=='),
  to: '',
  keep: () => true,
});

function walk(dir, keep, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, keep, out);
    else if (entry.isFile() && keep(path)) out.push(path);
  }
  return out;
}

/** Copy the corpus into a fresh temp workspace; `transform(text)` may rewrite each file. */
export function buildCorpus({ typescriptLib = true, transform, sources: chosen } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const root = join(base, 'workspace');
  const sources = chosen ?? [
    zodSource(),
    ...(typescriptLib ? [{ from: typescriptLibDir(), to: 'typescript-lib', keep: (path) => path.endsWith('.d.ts') && statSync(path).size < 1024 * 1024 }] : []),
  ];
  let files = 0;
  let lines = 0;
  let bytes = 0;
  for (const source of sources) {
    for (const path of walk(source.from, source.keep)) {
      const relativePath = source.to ? `${source.to}/${relative(source.from, path)}` : relative(source.from, path);
      const target = join(root, relativePath);
      mkdirSync(dirname(target), { recursive: true });
      let text = readFileSync(path, 'utf8');
      if (transform) text = transform(text, relativePath);
      writeFileSync(target, text);
      files++;
      lines += text.split('\n').length;
      bytes += Buffer.byteLength(text);
    }
  }
  return { base, root, home: join(base, 'home'), files, lines, bytes };
}

export { cpSync };
