import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** git in a test, as a person would type it (an identity of its own, so the worker's default author stays observable). */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * Git configuration of the test process only: no global or system file, so commits made by the
 * worker show its own default author and no hook or setting of the machine leaks in.
 */
export async function isolateGitConfig(): Promise<void> {
  const home = await tempDir('cairn-workers-gitconfig-');
  const global = join(home, 'gitconfig');
  await writeFile(global, '');
  process.env.GIT_CONFIG_GLOBAL = global;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
}

/** A bare repository (the origin) whose `main` has one commit with README.md. */
export async function bareOrigin(): Promise<{ bare: string; url: string }> {
  const root = await tempDir('cairn-workers-origin-');
  const bare = join(root, 'origin.git');
  sh(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  const seed = join(root, 'seed');
  sh(root, 'clone', '--quiet', bare, seed);
  await writeFile(join(seed, 'README.md'), '# fixture\n');
  sh(seed, 'add', 'README.md');
  sh(seed, 'commit', '--quiet', '-m', 'initial');
  sh(seed, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main');
  return { bare, url: bare };
}

/** `git log` of a branch in the bare repository: subject and author per commit, newest first. */
export function logOf(bare: string, branch: string): Array<{ subject: string; author: string; body: string }> {
  const out = execFileSync('git', [`--git-dir=${bare}`, 'log', '--format=%s%x1f%an <%ae>%x1f%b%x1e', branch], { encoding: 'utf8' });
  return out
    .split('\x1e')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [subject = '', author = '', body = ''] = entry.split('\x1f');
      return { subject, author, body: body.trim() };
    });
}

export function fileAt(bare: string, branch: string, path: string): string {
  return execFileSync('git', [`--git-dir=${bare}`, 'show', `${branch}:${path}`], { encoding: 'utf8' });
}
