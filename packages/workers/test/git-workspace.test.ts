import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commitSubject, finalizeGitWorkspace, GitWorkspaceError, prepareGitWorkspace, workspaceFolderName } from '../src/git-workspace.js';
import { bareOrigin, fileAt, isolateGitConfig, logOf, sh, tempDir } from './git-fixture.js';

beforeAll(isolateGitConfig);

const run = (runId: string, prompt: string) => ({ runId, agentId: 'agent-1', prompt });

describe('git workspaces against a local bare origin', () => {
  it('clones, commits the agent changes as Cairn and pushes the branch; a second run continues on it', async () => {
    const { bare, url } = await bareOrigin();
    const workDir = await tempDir('cairn-workers-work-');
    const first = await prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url } });
    expect(first).toMatchObject({ cwd: join(workDir, 'agent-1'), branch: 'cairn/agent-1', repoUrl: url });
    expect(await readFile(join(first.cwd, 'README.md'), 'utf8')).toBe('# fixture\n');
    await writeFile(join(first.cwd, 'notes.txt'), 'one\n');
    expect(await finalizeGitWorkspace(first, run('run-1', 'Write the notes\nwith detail'))).toEqual({ branches: [{ repoUrl: url, branch: 'cairn/agent-1' }] });
    expect(logOf(bare, 'cairn/agent-1')).toEqual([
      { subject: 'Write the notes', author: 'Cairn <cairn@localhost>', body: 'Cairn run run-1 of agent agent-1.' },
      { subject: 'initial', author: 'Tester <tester@example.com>', body: '' },
    ]);
    expect(logOf(bare, 'main')).toHaveLength(1);

    const second = await prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url } });
    expect(await readFile(join(second.cwd, 'notes.txt'), 'utf8')).toBe('one\n');
    await writeFile(join(second.cwd, 'notes.txt'), 'one\ntwo\n');
    await finalizeGitWorkspace(second, run('run-2', 'Add a second line'));
    expect(logOf(bare, 'cairn/agent-1').map((commit) => commit.subject)).toEqual(['Add a second line', 'Write the notes', 'initial']);
    expect(fileAt(bare, 'cairn/agent-1', 'notes.txt')).toBe('one\ntwo\n');
  });

  it('a run without changes makes no commit and still reports the branch, which then exists on the origin', async () => {
    const { bare, url } = await bareOrigin();
    const workspace = await prepareGitWorkspace({ workDir: await tempDir('cairn-workers-work-'), agentId: 'agent-1', git: { repoUrl: url, branch: 'feature/quiet' } });
    expect(await finalizeGitWorkspace(workspace, run('run-1', 'Only look around'))).toEqual({ branches: [{ repoUrl: url, branch: 'feature/quiet' }] });
    expect(logOf(bare, 'feature/quiet').map((commit) => commit.subject)).toEqual(['initial']);
  });

  it('starts a new branch at ref (a branch or a tag); commits carry the identity git is configured with, when it has one', async () => {
    const { bare, url } = await bareOrigin();
    const seed = join(bare, '..', 'seed');
    await writeFile(join(seed, 'release.txt'), 'v1\n');
    sh(seed, 'checkout', '--quiet', '-b', 'release');
    sh(seed, 'add', 'release.txt');
    sh(seed, 'commit', '--quiet', '-m', 'release work');
    sh(seed, 'push', '--quiet', 'origin', 'release');
    sh(seed, 'tag', 'v1');
    sh(seed, 'push', '--quiet', 'origin', 'v1');
    const workDir = await tempDir('cairn-workers-work-');
    const fromBranch = await prepareGitWorkspace({ workDir, agentId: 'agent-a', git: { repoUrl: url, ref: 'release' } });
    expect(await readFile(join(fromBranch.cwd, 'release.txt'), 'utf8')).toBe('v1\n');
    const fromTag = await prepareGitWorkspace({ workDir, agentId: 'agent-b', git: { repoUrl: url, ref: 'v1' } });
    const global = process.env.GIT_CONFIG_GLOBAL as string;
    await writeFile(global, '[user]\n\tname = Repo Owner\n\temail = owner@example.com\n');
    try {
      await writeFile(join(fromTag.cwd, 'tagged.txt'), 'x\n');
      await finalizeGitWorkspace(fromTag, { runId: 'run-t', agentId: 'agent-b', prompt: 'From the tag' });
    } finally {
      await writeFile(global, '');
    }
    expect(logOf(bare, 'cairn/agent-b')[0]).toMatchObject({ subject: 'From the tag', author: 'Repo Owner <owner@example.com>' });
    expect(logOf(bare, 'cairn/agent-b').map((commit) => commit.subject)).toEqual(['From the tag', 'release work', 'initial']);
  });

  it('a resumed run keeps the working tree a stopped worker left; a new run starts clean from the pushed branch', async () => {
    const { url } = await bareOrigin();
    const workDir = await tempDir('cairn-workers-work-');
    const first = await prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url } });
    await writeFile(join(first.cwd, 'half-done.txt'), 'edited before the worker stopped\n');
    const resumed = await prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url }, resume: true });
    expect(await readFile(join(resumed.cwd, 'half-done.txt'), 'utf8')).toBe('edited before the worker stopped\n');
    const fresh = await prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url } });
    expect(existsSync(join(fresh.cwd, 'half-done.txt'))).toBe(false);
  });

  it('a resumed run in an old clone behind what another worker pushed starts from the pushed branch', async () => {
    const { url } = await bareOrigin();
    const here = await tempDir('cairn-workers-here-');
    const old = await prepareGitWorkspace({ workDir: here, agentId: 'agent-1', git: { repoUrl: url } });
    await writeFile(join(old.cwd, 'stale.txt'), 'from an older run\n');
    const elsewhere = await prepareGitWorkspace({ workDir: await tempDir('cairn-workers-there-'), agentId: 'agent-1', git: { repoUrl: url } });
    await writeFile(join(elsewhere.cwd, 'progress.txt'), 'pushed when handed back\n');
    await finalizeGitWorkspace(elsewhere, { ...run('run-2', 'Go on'), note: 'Handed back to another worker before it finished.' });
    const resumed = await prepareGitWorkspace({ workDir: here, agentId: 'agent-1', git: { repoUrl: url }, resume: true });
    expect(await readFile(join(resumed.cwd, 'progress.txt'), 'utf8')).toBe('pushed when handed back\n');
    expect(existsSync(join(resumed.cwd, 'stale.txt'))).toBe(false);
  });

  it('a ref the repository does not have, an unreachable repository and an invalid branch name fail naming the problem', async () => {
    const { url } = await bareOrigin();
    const workDir = await tempDir('cairn-workers-work-');
    await expect(prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url, ref: 'no-such-branch' } })).rejects.toThrow(
      `${url} has no branch, tag or commit "no-such-branch" (workspace.git.ref).`,
    );
    const missing = join(workDir, 'nowhere.git');
    const error = await prepareGitWorkspace({ workDir, agentId: 'agent-2', git: { repoUrl: missing } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitWorkspaceError);
    expect((error as GitWorkspaceError).code).toBe('git_workspace_failed');
    expect((error as Error).message).toMatch(new RegExp(`^Could not fetch ${missing}: git clone failed \\(exit 128\\): .*does not exist`, 's'));
    await expect(prepareGitWorkspace({ workDir, agentId: 'agent-3', git: { repoUrl: url, branch: 'bad..name' } })).rejects.toThrow('"bad..name" is not a valid git branch name');
  });

  it('credentials in the repository URL never reach the message', async () => {
    const error = await prepareGitWorkspace({ workDir: await tempDir('cairn-workers-work-'), agentId: 'agent-1', git: { repoUrl: 'http://someone:s3cret-token@127.0.0.1:9/repo.git' } }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toContain('Could not fetch http://***@127.0.0.1:9/repo.git');
    expect(error?.message).not.toContain('s3cret');
  });

  it('a push the origin rejects (someone else moved the branch) fails with git reason', async () => {
    const { bare, url } = await bareOrigin();
    const workspace = await prepareGitWorkspace({ workDir: await tempDir('cairn-workers-work-'), agentId: 'agent-1', git: { repoUrl: url } });
    const other = await tempDir('cairn-workers-other-');
    sh(other, 'clone', '--quiet', bare, 'clone');
    await writeFile(join(other, 'clone', 'theirs.txt'), 'theirs\n');
    sh(join(other, 'clone'), 'add', 'theirs.txt');
    sh(join(other, 'clone'), 'commit', '--quiet', '-m', 'theirs');
    sh(join(other, 'clone'), 'push', '--quiet', 'origin', 'HEAD:refs/heads/cairn/agent-1');
    await writeFile(join(workspace.cwd, 'mine.txt'), 'mine\n');
    await expect(finalizeGitWorkspace(workspace, run('run-1', 'Mine'))).rejects.toThrow(/^Could not push branch cairn\/agent-1 to .*origin\.git: git push failed \(exit 1\): .*rejected/s);
    expect(logOf(bare, 'cairn/agent-1').map((commit) => commit.subject)).toEqual(['theirs', 'initial']);
  });

  it('settings a crashed run planted in .git/config are gone before the next run fetches', async () => {
    const { bare, url } = await bareOrigin();
    const workDir = await tempDir('cairn-workers-work-');
    const first = await prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url } });
    // No finalize: the worker died with the planted settings in place.
    sh(first.cwd, 'config', 'remote.origin.url', join(bare, '..', 'elsewhere.git'));
    sh(first.cwd, 'config', 'core.hooksPath', join(first.cwd, 'planted'));
    const next = await prepareGitWorkspace({ workDir, agentId: 'agent-1', git: { repoUrl: url } });
    expect(sh(next.cwd, 'config', '--get', 'remote.origin.url').trim()).toBe(url);
    expect(() => sh(next.cwd, 'config', '--get', 'core.hooksPath')).toThrow();
    expect(await readFile(join(next.cwd, 'README.md'), 'utf8')).toBe('# fixture\n');
  });

  it('hooks and settings the agent plants in the clone never run in the worker', async () => {
    const { bare, url } = await bareOrigin();
    const workspace = await prepareGitWorkspace({ workDir: await tempDir('cairn-workers-work-'), agentId: 'agent-1', git: { repoUrl: url } });
    const marker = join(workspace.cwd, '..', 'hook-ran');
    const hooks = join(workspace.cwd, 'planted-hooks');
    await mkdir(hooks);
    for (const hook of ['pre-commit', 'post-commit', 'pre-push']) {
      await writeFile(join(workspace.cwd, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${marker}'\n`);
      await chmod(join(workspace.cwd, '.git', 'hooks', hook), 0o755);
      await writeFile(join(hooks, hook), `#!/bin/sh\ntouch '${marker}'\n`);
      await chmod(join(hooks, hook), 0o755);
    }
    sh(workspace.cwd, 'config', 'core.hooksPath', hooks);
    sh(workspace.cwd, 'config', 'remote.origin.url', join(bare, '..', 'elsewhere.git'));
    await writeFile(join(workspace.cwd, 'change.txt'), 'x\n');
    await finalizeGitWorkspace(workspace, run('run-1', 'Change'));
    expect(existsSync(marker)).toBe(false);
    expect(logOf(bare, 'cairn/agent-1')[0]?.subject).toBe('Change');
  });
});

describe('names', () => {
  it('folder names stay inside workDir whatever the agent id; subjects are one short line', () => {
    expect(workspaceFolderName('agent-0f3a')).toBe('agent-0f3a');
    for (const id of ['../up', '.', '..', 'a/b', 'spaces here', `x${'y'.repeat(200)}`]) expect(workspaceFolderName(id)).toMatch(/^agent-[0-9a-f]{32}$/);
    expect(commitSubject('\n\n  Fix the bug  \nmore')).toBe('Fix the bug');
    expect(commitSubject('x'.repeat(100))).toBe(`${'x'.repeat(71)}…`);
    expect(commitSubject('')).toBe('Changes');
  });
});
