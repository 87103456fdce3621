import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { temporaryWorkspace } from '../../test/tool-context.js';
import { createBubblewrapBackend } from './bubblewrap.js';

const backend = createBubblewrapBackend();

/** One workspace-write command through the backend itself: wrap, run, clean up. */
async function run(root: string, command: string, env: Record<string, string> = {}): Promise<{ code: number; output: string; report: ReturnType<NonNullable<Awaited<ReturnType<typeof backend.wrap>>['cleanupReport']>> }> {
  const launch = await backend.wrap(command, { profile: 'workspace-write', workspaceRoot: root, cwd: root, shell: '/bin/sh', env: { PATH: process.env.PATH ?? '', ...env }, networkAllow: [] });
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(launch.file, launch.args, { env: launch.env }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }));
  });
  await launch.cleanup();
  return { ...result, report: launch.cleanupReport?.() };
}

const gitInit = (root: string) => execFileSync('git', ['init', '-q', root]);

describe('protected mounts of the workspace-write sandbox', () => {
  it('makes .git and every folder on the way to a protected entry a mount point: renaming them fails', async () => {
    const root = await temporaryWorkspace();
    gitInit(root);
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    gitInit(join(root, 'a', 'b'));
    for (const command of ['mv .git g', 'mv a x', 'mv a/b a/x', 'mv a/b/.git a/b/g', 'rmdir .git/hooks', 'mv .git/config c']) {
      const result = await run(root, command);
      expect(result.code, `${command}: ${result.output}`).not.toBe(0);
      expect(result.output, command).toMatch(/busy|Read-only/i);
    }
    // Still writable: git's objects, refs and index, and ordinary files next to the nested repository.
    const work = await run(root, 'echo x > a/new.txt && git add a/new.txt && git -c user.email=a@b -c user.name=a commit -qm x && git -C a/b status --short');
    expect(work.code, work.output).toBe(0);
  });

  it('placeholders: commondir reads "." (an empty one would break git), a missing folder is guarded at its first missing parent, and all go afterwards', async () => {
    const root = await temporaryWorkspace();
    gitInit(root);
    execFileSync('git', ['-C', root, 'config', 'core.hooksPath', 'tools/git/hooks']);
    const inside = await run(root, 'cat .git/commondir; git status --short >/dev/null && echo git-works; mkdir -p tools/git/hooks; ls -d tools');
    expect(inside.output).toMatch(/^\.\ngit-works\n/);
    expect(inside.output).toMatch(/mkdir: .*(Read-only|Permission)/);
    expect(existsSync(join(root, 'tools'))).toBe(false);
    expect((await readdir(join(root, '.git'))).filter((name) => ['commondir', 'modules', 'worktrees'].includes(name))).toEqual([]);
  });

  it('shares a placeholder between concurrent commands and removes it after the last, whichever ends first', async () => {
    const root = await temporaryWorkspace();
    gitInit(root);
    const long = run(root, 'sleep 1; ls -d .vscode');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The second command starts while the first command's `.vscode` placeholder exists on the host.
    const short = await run(root, 'test -d .vscode && ! mkdir .vscode/x 2>/dev/null && echo guarded');
    expect(short.output).toContain('guarded');
    expect(existsSync(join(root, '.vscode'))).toBe(true);
    expect((await long).code).toBe(0);
    expect((await readdir(root)).sort()).toEqual(['.git']);
  });

  it('keeps folders of PATH that lie in the workspace read-only, existing or not', async () => {
    const root = await temporaryWorkspace();
    await mkdir(join(root, 'bin'));
    const env = { PATH: `${join(root, 'bin')}:${join(root, 'tools', 'bin')}:${process.env.PATH}` };
    const result = await run(root, 'echo x > bin/ls; mkdir -p tools/bin; echo ok > notes.txt && echo wrote', env);
    expect(result.output).toContain('wrote');
    expect(existsSync(join(root, 'bin', 'ls'))).toBe(false);
    expect(existsSync(join(root, 'tools'))).toBe(false);
  });

  it('a workspace inside a repository: the hooks folder that repository names in the workspace is guarded too', async () => {
    const repository = await temporaryWorkspace();
    gitInit(repository);
    execFileSync('git', ['-C', repository, 'config', 'core.hooksPath', 'app/hooks']);
    const root = join(repository, 'app');
    await mkdir(root);
    const result = await run(root, 'mkdir -p hooks && echo "touch pwned" > hooks/pre-commit');
    expect(result.code, result.output).not.toBe(0);
    expect(existsSync(join(root, 'hooks'))).toBe(false);
  });

  it('refuses to start when a protected entry is a symbolic link', async () => {
    const root = await temporaryWorkspace();
    gitInit(root);
    await mkdir(join(root, 'editor'));
    await symlink('editor', join(root, '.vscode'));
    await expect(run(root, 'true')).rejects.toThrow(ToolError);
    await expect(run(root, 'true')).rejects.toThrow(/\.vscode: it is a symbolic link/);
    expect((await readdir(root)).sort()).toEqual(['.git', '.vscode', 'editor']);
  });

  it('quarantines a repository the command created and reports it', async () => {
    const root = await temporaryWorkspace();
    gitInit(root);
    await writeFile(join(root, 'a.txt'), 'a');
    const result = await run(root, 'git init -q made && echo "[core] fsmonitor = evil" >> made/.git/config');
    expect(result.code).toBe(0);
    expect(result.report?.quarantined).toEqual([{ path: join(root, 'made', '.git'), movedTo: join(root, 'made', '.git.cairn-quarantined') }]);
    expect(await readFile(join(root, 'made', '.git.cairn-quarantined', 'config'), 'utf8')).toContain('fsmonitor = evil');
    await rename(join(root, 'made', '.git.cairn-quarantined'), join(root, 'made', '.git'));
    // Once it is there before a command, it is protected like any nested repository, not quarantined again.
    const again = await run(root, 'echo x >> made/.git/config');
    expect(again.code).not.toBe(0);
    expect(again.report?.quarantined).toEqual([]);
  });
});
