import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { toPosix } from '@cairn/core/node';

export interface InstalledLinter {
  /** Package folder. */
  directory: string;
  version: string;
  /** The JavaScript entry of its command line, run with this Node binary. */
  binScript: string;
  /** Where it was found, for the report (relative to the workspace when inside it). */
  displayPath: string;
}

/**
 * Find a package the way the workspace's own tools would (Node resolution from the workspace root,
 * so a hoisted or parent `node_modules` counts), and the script behind its `bin` entry.
 */
export function findInstalledPackage(root: string, packageName: string, binName: string): InstalledLinter | undefined {
  const require = createRequire(join(root, '__cairn_lints__.js'));
  let packageJsonPath: string;
  try {
    packageJsonPath = require.resolve(`${packageName}/package.json`);
  } catch {
    // Packages whose `exports` hide package.json: resolve the main entry and walk up to it.
    try {
      packageJsonPath = findPackageJsonAbove(require.resolve(packageName), packageName) ?? '';
    } catch {
      return undefined;
    }
    if (!packageJsonPath) return undefined;
  }
  const directory = dirname(packageJsonPath);
  let manifest: { version?: string; bin?: string | Record<string, string> };
  try {
    manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  } catch {
    return undefined;
  }
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  if (!bin) return undefined;
  const binScript = join(directory, bin);
  if (!existsSync(binScript)) return undefined;
  // Resolution follows symlinks (pnpm stores); name the workspace's own link when there is one.
  const local = join(root, 'node_modules', packageName);
  const fromRoot = toPosix(relative(root, directory));
  const displayPath = existsSync(join(local, 'package.json')) ? `node_modules/${packageName}` : fromRoot.startsWith('..') ? directory : fromRoot;
  return { directory, version: manifest.version ?? 'unknown', binScript, displayPath };
}

function findPackageJsonAbove(entry: string, packageName: string): string | undefined {
  let directory = dirname(entry);
  for (;;) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      try {
        if ((JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === packageName) return candidate;
      } catch {
        // keep walking
      }
    }
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

const eslintConfigNames = [
  'eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts',
  '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.yaml', '.eslintrc.yml', '.eslintrc.json', '.eslintrc',
];

/** The ESLint configuration file at the workspace root, if any (ESLint refuses to run without one). */
export function findEslintConfig(root: string): string | undefined {
  const name = eslintConfigNames.find((candidate) => existsSync(join(root, candidate)));
  if (name) return name;
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { eslintConfig?: unknown };
    return manifest.eslintConfig ? 'package.json (eslintConfig)' : undefined;
  } catch {
    return undefined;
  }
}
