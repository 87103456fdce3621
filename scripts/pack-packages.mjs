// Packs every publishable package of the monorepo with `pnpm pack` (which turns `workspace:` and
// `catalog:` into real versions and applies `publishConfig`) and writes the npm project that installs
// them without the registry knowing them: each `@cairn/*` package is a direct dependency on its
// tarball and an `overrides` entry, so the packages' own dependencies on each other resolve to the
// tarballs too. Used by scripts/install-cli.sh and by the packaging test.
//
//   node scripts/pack-packages.mjs <tarball-dir> [<npm-project-dir>]   (adds to an existing package.json)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The packages that are published: every workspace package that is not private, as pnpm sees them. */
export function publishable() {
  const listing = JSON.parse(execFileSync('pnpm', ['ls', '-r', '--json', '--depth', '-1'], { cwd: root, encoding: 'utf8' }));
  return listing.filter((pkg) => !pkg.private).map((pkg) => ({ name: pkg.name, dir: relative(root, pkg.path) }));
}

/** Pack every publishable package into `dest` (emptied first); returns `{ name, dir, file }` per package. */
export function packAll(dest) {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  return publishable().map((pkg) => {
    const before = new Set(readdirSync(dest));
    execFileSync('pnpm', ['pack', '--pack-destination', dest], { cwd: join(root, pkg.dir), stdio: ['ignore', 'ignore', 'inherit'] });
    const created = readdirSync(dest).filter((name) => !before.has(name) && name.endsWith('.tgz'));
    if (created.length !== 1) throw new Error(`pnpm pack in ${pkg.dir} made ${created.length} tarballs, expected 1`);
    return { name: pkg.name, dir: pkg.dir, file: join(dest, created[0]) };
  });
}

/**
 * The package.json of an npm project that installs `wanted` (package names) from the tarballs.
 * Every tarball is listed so a package depending on another `@cairn/*` one gets the tarball, never
 * the registry.
 */
export function installManifest(projectDir, tarballs, extra = {}) {
  const specs = Object.fromEntries(tarballs.map((tarball) => [tarball.name, `file:${relative(projectDir, tarball.file)}`]));
  return { name: 'cairn-install', private: true, type: 'module', dependencies: { ...specs, ...extra }, overrides: specs };
}

/** An existing package.json keeps everything; the tarballs are added to its dependencies and overrides. */
function mergedManifest(projectDir, tarballs) {
  const file = join(projectDir, 'package.json');
  const fresh = installManifest(projectDir, tarballs);
  if (!existsSync(file)) return fresh;
  const existing = JSON.parse(readFileSync(file, 'utf8'));
  return { ...existing, dependencies: { ...existing.dependencies, ...fresh.dependencies }, overrides: { ...existing.overrides, ...fresh.overrides } };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dest, projectDir] = process.argv.slice(2);
  if (!dest) {
    console.error('usage: node scripts/pack-packages.mjs <tarball-dir> [<npm-project-dir>]');
    process.exit(2);
  }
  const tarballs = packAll(resolve(dest));
  if (projectDir) {
    mkdirSync(projectDir, { recursive: true });
    writeFileSync(join(projectDir, 'package.json'), `${JSON.stringify(mergedManifest(resolve(projectDir), tarballs), null, 2)}\n`);
  }
  for (const tarball of tarballs) console.log(tarball.file);
}
