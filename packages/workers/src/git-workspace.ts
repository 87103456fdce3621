import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CairnError, type GitWorkspace, type RunGitInfo } from '@cairn/core';
import { git, gitTest, maskCredentials } from './git-command.js';

/** A clone ready for a run: the agent works in `cwd`, and `finalizeGitWorkspace` pushes `branch`. */
export interface PreparedGitWorkspace {
  cwd: string;
  repoUrl: string;
  branch: string;
  /** `.git/config` as the worker wrote it, put back before the worker runs git on the agent's work. */
  config: string;
}

export class GitWorkspaceError extends CairnError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'git_workspace_failed', ...(cause === undefined ? {} : { cause }) });
    this.name = 'GitWorkspaceError';
  }
}

/**
 * Settings for every git command on a clone the agent has worked in: its hooks and fsmonitor never
 * run in the worker, and no URL may name the `ext::` transport (a command line, off by default).
 */
const untrusted = { 'core.hooksPath': '/dev/null', 'core.fsmonitor': 'false', 'protocol.ext.allow': 'never' };

const defaultAuthor = { 'user.name': 'Cairn', 'user.email': 'cairn@localhost' };

/** A folder per agent; an id that is not a plain file name gets its hash instead. */
export function workspaceFolderName(agentId: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/.test(agentId) ? agentId : `agent-${createHash('sha256').update(agentId).digest('hex').slice(0, 32)}`;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Clone (first run of the agent in this workDir) or fetch (later runs) the repository into
 * `<workDir>/<agentId>` and check out the agent's branch: where the remote has it already (an
 * earlier run pushed it), else at `ref`, else at the remote's HEAD. The tree is reset and cleaned,
 * so a run starts from exactly what the remote holds (unless `resume` keeps it).
 */
export async function prepareGitWorkspace(options: {
  workDir: string;
  agentId: string;
  git: GitWorkspace;
  /**
   * The run was started before (a worker stopped mid-run): a clone here already on the branch keeps
   * its working tree, so the files match the conversation the run resumes from.
   */
  resume?: boolean;
  signal?: AbortSignal;
}): Promise<PreparedGitWorkspace> {
  const { repoUrl } = options.git;
  const branch = options.git.branch ?? `cairn/${options.agentId}`;
  const cwd = join(options.workDir, workspaceFolderName(options.agentId));
  const signal = options.signal;
  if (!(await gitTest(['check-ref-format', '--branch', branch]).catch(() => false))) {
    throw new GitWorkspaceError(`"${branch}" is not a valid git branch name; pass workspace.git.branch.`);
  }
  let config: string;
  try {
    config = await cloneOrFetch(repoUrl, cwd, options.workDir, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new GitWorkspaceError(`Could not fetch ${maskCredentials(repoUrl)}: ${errorText(error)}`, error);
  }
  if (options.resume && (await holdsLatest(cwd, branch))) return { cwd, repoUrl, branch, config };
  const start = await startPoint(cwd, branch, options.git.ref, repoUrl);
  if (start === undefined) {
    // An empty repository: the branch starts with no commit.
    await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { cwd });
    await git(['update-ref', '-d', `refs/heads/${branch}`], { cwd });
    await git(['read-tree', '--empty'], { cwd });
  } else {
    await git(['checkout', '--quiet', '--force', '--no-track', '-B', branch, start], { cwd, config: untrusted });
  }
  await git(['clean', '-ffdxq'], { cwd, config: untrusted });
  return { cwd, repoUrl, branch, config };
}

/**
 * The clone is on the branch and has everything the remote has of it: it is where the stopped
 * attempt worked (a clone left from an older run, behind a branch another worker pushed since, is not).
 */
async function holdsLatest(cwd: string, branch: string): Promise<boolean> {
  const current = (await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd }).catch(() => '')).trim();
  if (current !== branch || !(await gitTest(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd }))) return false;
  if (!(await commitOf(cwd, `refs/remotes/origin/${branch}`))) return true;
  return gitTest(['merge-base', '--is-ancestor', `refs/remotes/origin/${branch}`, 'HEAD'], { cwd });
}

/**
 * The clone's `.git/config` as the worker wrote it lives beside the clone (`<folder>.config`): an
 * agent can edit the one inside (hooks, filters, credential helpers, the remote's URL), and a run
 * that crashed never had it put back. Every reuse of a clone starts by restoring it; a clone
 * without that copy is cloned again.
 */
async function cloneOrFetch(repoUrl: string, cwd: string, workDir: string, signal: AbortSignal | undefined): Promise<string> {
  const pristinePath = `${cwd}.config`;
  const pristine = await readFile(pristinePath, 'utf8').catch(() => undefined);
  if (pristine !== undefined && (await stat(join(cwd, '.git')).catch(() => undefined))?.isDirectory()) {
    await writeFile(join(cwd, '.git', 'config'), pristine);
    const url = (await git(['config', '--get', 'remote.origin.url'], { cwd }).catch(() => '')).trim();
    if (url === repoUrl) {
      await git(['fetch', '--quiet', '--prune', '--tags', '--force', 'origin'], { cwd, signal, config: untrusted });
      // The remote's default branch may have changed since the clone; an empty remote has none.
      await git(['remote', 'set-head', 'origin', '--auto'], { cwd, signal }).catch(() => undefined);
      return pristine;
    }
  }
  // The copy goes first: a clone cut short must not be taken for a clone with a saved config.
  await rm(pristinePath, { force: true });
  await rm(cwd, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  await git(['clone', '--quiet', '--no-checkout', '--origin', 'origin', '--', repoUrl, cwd], { signal, config: untrusted });
  const written = await readFile(join(cwd, '.git', 'config'), 'utf8');
  await writeFile(pristinePath, written);
  return written;
}

const commitOf = async (cwd: string, name: string) => {
  const found = await gitTest(['rev-parse', '--verify', '--quiet', `${name}^{commit}`], { cwd });
  return found ? name : undefined;
};

/** The agent's branch on the remote, else `ref` (a remote branch, a tag or a commit), else the remote's HEAD; undefined for an empty remote. */
async function startPoint(cwd: string, branch: string, ref: string | undefined, repoUrl: string): Promise<string | undefined> {
  const continued = await commitOf(cwd, `refs/remotes/origin/${branch}`);
  if (continued) return continued;
  if (ref !== undefined) {
    const found = (await commitOf(cwd, `refs/remotes/origin/${ref}`)) ?? (await commitOf(cwd, `refs/tags/${ref}`)) ?? (/^[0-9a-f]{7,64}$/i.test(ref) ? await commitOf(cwd, ref) : undefined);
    if (!found) throw new GitWorkspaceError(`${maskCredentials(repoUrl)} has no branch, tag or commit "${ref}" (workspace.git.ref).`);
    return found;
  }
  const head = await commitOf(cwd, 'refs/remotes/origin/HEAD');
  if (head) return head;
  const anyBranch = (await git(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/remotes/origin/'], { cwd })).trim();
  if (anyBranch) throw new GitWorkspaceError(`${maskCredentials(repoUrl)} has no default branch (HEAD); pass workspace.git.ref.`);
  return undefined;
}

/** The commit subject: the prompt's first line, cut to fit a log line. */
export function commitSubject(prompt: string): string {
  const line = prompt.split('\n').map((text) => text.trim()).find((text) => text !== '') ?? 'Changes';
  return line.length <= 72 ? line : `${line.slice(0, 71)}…`;
}

/**
 * After the run: commit everything the agent changed (author `Cairn <cairn@localhost>` unless git
 * is configured with one) and push the branch. Nothing changed: no commit, the branch is still
 * pushed (so it exists) and reported. A rejected push fails, naming git's reason.
 */
export async function finalizeGitWorkspace(
  workspace: PreparedGitWorkspace,
  run: { runId: string; agentId: string; prompt: string; /** A sentence for the commit body (how the run ended, when not finished). */ note?: string; signal?: AbortSignal },
): Promise<RunGitInfo> {
  const { cwd, branch, repoUrl } = workspace;
  // The agent could have edited .git/config (hooks, filters, the remote's URL): git here runs with the worker's rights.
  await writeFile(join(cwd, '.git', 'config'), workspace.config);
  await git(['add', '--all'], { cwd, config: untrusted });
  if (!(await gitTest(['diff', '--cached', '--quiet'], { cwd, config: untrusted }))) {
    const author = (await hasAuthor(cwd)) ? {} : defaultAuthor;
    await git(['commit', '--quiet', '--no-verify', '-m', commitSubject(run.prompt), '-m', `Cairn run ${run.runId} of agent ${run.agentId}.${run.note ? ` ${run.note}` : ''}`], { cwd, config: { ...untrusted, ...author } });
  }
  if (!(await gitTest(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd }))) return { branches: [{ repoUrl, branch }] };
  try {
    await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], { cwd, signal: run.signal, config: untrusted });
  } catch (error) {
    throw new GitWorkspaceError(`Could not push branch ${branch} to ${maskCredentials(repoUrl)}: ${errorText(error)}`, error);
  }
  return { branches: [{ repoUrl, branch }] };
}

async function hasAuthor(cwd: string): Promise<boolean> {
  const name = await git(['config', '--get', 'user.name'], { cwd }).catch(() => '');
  const email = await git(['config', '--get', 'user.email'], { cwd }).catch(() => '');
  return name.trim() !== '' && email.trim() !== '';
}
