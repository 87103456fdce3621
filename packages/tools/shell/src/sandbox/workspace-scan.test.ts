import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryWorkspace } from '../../test/tool-context.js';
import { indexGitlinks } from './index-gitlinks.js';
import { scanWorkspace } from './workspace-scan.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'pipe' });

describe('scanWorkspace', () => {
  it('finds .git folders and files at any depth, skips node_modules and symlinks, and records sensitive files', async () => {
    const root = await temporaryWorkspace();
    git(root, 'init', '-q');
    await mkdir(join(root, 'vendor', 'deep', 'lib'), { recursive: true });
    git(join(root, 'vendor', 'deep', 'lib'), 'init', '-q');
    await mkdir(join(root, 'wt'));
    await writeFile(join(root, 'wt', '.git'), 'gitdir: ../.git/worktrees/wt\n');
    await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
    git(join(root, 'node_modules', 'pkg'), 'init', '-q');
    await symlink(join(root, 'vendor'), join(root, 'linked'));
    await writeFile(join(root, 'package.json'), '{}');
    await mkdir(join(root, '.github', 'workflows'), { recursive: true });
    await writeFile(join(root, '.github', 'workflows', 'ci.yml'), 'on: push');
    const scan = await scanWorkspace(root);
    expect(scan.gitEntries.map(({ path, kind }) => [path.slice(root.length), kind])).toEqual([
      ['/.git', 'dir'],
      ['/vendor/deep/lib/.git', 'dir'],
      ['/wt/.git', 'file'],
    ]);
    expect([...scan.sensitiveFiles.keys()].map((path) => path.slice(root.length)).sort()).toEqual(['/.github/workflows/ci.yml', '/package.json']);
    expect(scan.truncated).toBe(false);
    await writeFile(join(root, 'package.json'), '{"scripts":{}}');
    expect((await scanWorkspace(root)).sensitiveFiles.get(join(root, 'package.json'))).not.toBe(scan.sensitiveFiles.get(join(root, 'package.json')));
  });

  it('finds a repository under node_modules once an index lists it as a submodule (index v2 and v4)', async () => {
    for (const version of ['2', '4']) {
      const root = await temporaryWorkspace();
      git(root, 'init', '-q');
      const inner = join(root, 'node_modules', 'é', 'x');
      await mkdir(inner, { recursive: true });
      git(inner, 'init', '-q');
      git(inner, 'commit', '-q', '--allow-empty', '-m', 'x');
      await mkdir(join(root, 'src', 'a', 'b'), { recursive: true });
      await writeFile(join(root, 'src', 'a', 'b', 'file.ts'), '');
      git(root, 'add', '-f', 'src', 'node_modules/é/x');
      git(root, 'update-index', '--index-version', version);
      expect(await indexGitlinks(join(root, '.git'))).toEqual(['node_modules/é/x']);
      expect((await scanWorkspace(root)).gitEntries.map((entry) => entry.path)).toContain(join(inner, '.git'));
    }
  });

  it('stops at the folder limit and says so', async () => {
    const root = await temporaryWorkspace();
    for (let index = 0; index < 30; index++) await mkdir(join(root, `d${index}`, 'inner'), { recursive: true });
    const scan = await scanWorkspace(root, { maxDirectories: 10 });
    expect(scan.truncated).toBe(true);
    expect(scan.directories).toBe(10);
  });
});
