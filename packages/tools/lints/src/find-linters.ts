import { existsSync, readFileSync, realpathSync } from 'node:fs';
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
 * Find a package the way the workspace's own scripts would: `node_modules/<name>` in the workspace
 * root or a folder above it (a monorepo root). Deliberately not `require.resolve`, which also
 * honours NODE_PATH and global folders and would pick up a linter that is not the workspace's.
 */
export function findInstalledPackage(root: string, packageName: string, binName: string): InstalledLinter | undefined {
  for (let directory = root; ; directory = dirname(directory)) {
    const local = join(directory, 'node_modules', packageName);
    const found = readInstalledPackage(root, local, binName);
    if (found) return found;
    if (dirname(directory) === directory) return undefined;
  }
}

function readInstalledPackage(root: string, packageDirectory: string, binName: string): InstalledLinter | undefined {
  let manifest: { version?: string; bin?: string | Record<string, string> };
  let directory: string;
  try {
    // Follow the pnpm/yarn link to the real folder, so the script runs from where its dependencies are.
    directory = realpathSync(packageDirectory);
    manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  if (!bin) return undefined;
  const binScript = join(directory, bin);
  if (!existsSync(binScript)) return undefined;
  const fromRoot = toPosix(relative(root, packageDirectory));
  return { directory, version: manifest.version ?? 'unknown', binScript, displayPath: fromRoot.startsWith('..') ? packageDirectory : fromRoot };
}

const eslintConfigNames = [
  'eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts',
  '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.yaml', '.eslintrc.yml', '.eslintrc.json', '.eslintrc',
];

/**
 * The ESLint configuration that applies at the workspace root: the first config file in the root or
 * a folder above it, as ESLint looks it up (ESLint refuses to run without one). Relative to the root.
 */
export function findEslintConfig(root: string): string | undefined {
  for (let directory = root; ; directory = dirname(directory)) {
    const name = eslintConfigNames.find((candidate) => existsSync(join(directory, candidate)));
    if (name) return toPosix(relative(root, join(directory, name)));
    try {
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { eslintConfig?: unknown };
      if (manifest.eslintConfig) return `${toPosix(relative(root, join(directory, 'package.json')))} (eslintConfig)`;
    } catch {
      // no package.json here
    }
    if (dirname(directory) === directory) return undefined;
  }
}
