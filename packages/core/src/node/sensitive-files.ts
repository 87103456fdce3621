import { isAbsolute, relative, sep } from 'node:path';

// Files that are not code themselves but make other programs run code: a package manager, make,
// a CI service or a git hook manager runs what they say, often on a command as plain as
// `npm install`, `make` or `git commit`. Writing them is allowed, but it is shown to the user
// (a `sensitive-file-changed` update) and needs approval when someone can approve.
const packageManagerFiles = new Set(['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.pnpmfile.mjs', 'bunfig.toml']);
const buildFiles = new Set(['makefile', 'gnumakefile', 'justfile', '.justfile', 'taskfile.yml', 'taskfile.yaml']);
const ciFiles = new Set(['.gitlab-ci.yml', '.travis.yml', 'azure-pipelines.yml', 'bitbucket-pipelines.yml', 'jenkinsfile', '.drone.yml']);
const ciFolders = ['.github/workflows', '.github/actions', '.circleci', '.buildkite', '.gitea/workflows', '.forgejo/workflows', '.woodpecker'];
const hookManagerFiles = new Set(['.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', 'lefthook.yaml', '.lintstagedrc', '.lintstagedrc.json', '.lintstagedrc.js', '.lintstagedrc.cjs', '.lintstagedrc.mjs']);

/**
 * Why a change to `absolutePath` (inside `root`) deserves a flag, or undefined. Files under
 * `node_modules` are the package manager's own output and never count.
 */
export function sensitiveFileReason(root: string, absolutePath: string): string | undefined {
  const rel = relative(root, absolutePath);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  const segments = rel.split(sep).map((segment) => segment.toLowerCase());
  if (segments.includes('node_modules')) return undefined;
  const name = segments[segments.length - 1] ?? '';
  const posix = segments.join('/');
  if (packageManagerFiles.has(name)) return `${name} tells the package manager what to run (scripts, hooks, node options)`;
  if (buildFiles.has(name)) return `${name} holds the recipes make, just or task run`;
  if (ciFiles.has(name) || ciFolders.some((folder) => `/${posix}`.includes(`/${folder}/`))) return 'it is a CI configuration: the CI service runs what it says';
  if (hookManagerFiles.has(name)) return `${name} tells a git hook manager what to run on commit`;
  return undefined;
}
