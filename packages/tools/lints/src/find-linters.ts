import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isInsideRoot, toPosix } from '@cairn/core/node';

export interface InstalledLinter {
  /** Package folder (links followed). */
  directory: string;
  version: string;
  /** The JavaScript entry of its command line, relative to the workspace root (`node_modules/typescript/bin/tsc`). */
  program: string;
  /** Where it was found, for the report (relative to the workspace). */
  displayPath: string;
}

/**
 * The workspace's own installation of a package: `<root>/node_modules/<name>` and nothing else. Not
 * the folders above the root: a `node_modules` in a parent (a shared temp folder, another user's
 * home) is not the workspace's, and whatever it holds would run with the agent's rights. Not
 * `require.resolve` either, which honours NODE_PATH and global folders. A link there (pnpm, yarn)
 * is followed: the workspace's installation put it there, and the program runs only where the shell
 * may run it (see run-linter.ts), so it can do nothing a shell command could not.
 */
export function findInstalledPackage(root: string, packageName: string, binName: string): InstalledLinter | undefined {
  const linkPath = join(root, 'node_modules', packageName);
  let manifest: { version?: string; bin?: string | Record<string, string> };
  let directory: string;
  try {
    directory = realpathSync(linkPath);
    manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  // A bin that leaves its package (`../../x`) is not the package's program.
  if (typeof bin !== 'string' || !isInsideRoot(directory, resolve(directory, bin)) || !existsSync(resolve(directory, bin))) return undefined;
  const displayPath = toPosix(join('node_modules', packageName));
  return { directory, version: manifest.version ?? 'unknown', program: toPosix(join(displayPath, bin)), displayPath };
}

const eslintConfigNames = [
  'eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts',
  '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.yaml', '.eslintrc.yml', '.eslintrc.json', '.eslintrc',
];

/**
 * The ESLint configuration at the workspace root, relative to it. Only the root: a configuration in
 * a folder above is JavaScript the workspace does not own, and ESLint would load (run) it.
 */
export function findEslintConfig(root: string): string | undefined {
  const name = eslintConfigNames.find((candidate) => existsSync(join(root, candidate)));
  if (name) return name;
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { eslintConfig?: unknown };
    if (manifest.eslintConfig) return 'package.json (eslintConfig)';
  } catch {
    // no package.json
  }
  return undefined;
}
