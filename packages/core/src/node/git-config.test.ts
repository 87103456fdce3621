import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configuredHooksPath, gitFileTarget, lastGitConfigValue, parseGitConfig, readRepositoryConfig } from './git-config.js';

describe('parseGitConfig', () => {
  it('reads sections, subsections, quotes, escapes, comments and continuations', () => {
    const entries = parseGitConfig(
      [
        '[core]',
        '\trepositoryformatversion = 0',
        '\tHooksPath = ".hus\\"ky" ; a comment',
        '\tbare',
        '# a comment line',
        '[includeIf "gitdir:~/work/"]',
        '\tpath = team.gitconfig',
        '[remote.origin] url = https://example.com/x \\',
        'continued',
        '[alias] st = "!f() { echo \\"#not a comment\\"; }; f"',
      ].join('\n'),
    );
    expect(lastGitConfigValue(entries, 'core', 'hookspath')).toBe('.hus"ky');
    expect(lastGitConfigValue(entries, 'core', 'bare')).toBe('true');
    expect(entries.find((entry) => entry.section === 'includeif')).toMatchObject({ subsection: 'gitdir:~/work/', key: 'path', value: 'team.gitconfig' });
    expect(entries.find((entry) => entry.section === 'remote')).toMatchObject({ subsection: 'origin', key: 'url', value: 'https://example.com/x continued' });
    expect(lastGitConfigValue(entries, 'alias', 'st')).toBe('!f() { echo "#not a comment"; }; f');
  });

  it('skips what it does not understand instead of guessing', () => {
    expect(parseGitConfig('key = before any section\n[ broken\n=value\n')).toEqual([]);
  });
});

describe('readRepositoryConfig', () => {
  it('follows includes (existing or not), lists every include, and resolves core.hooksPath against the work tree', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cairn-git-config-'));
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git', 'config'), '[include]\n\tpath = ../team.gitconfig\n\tpath = ../missing.gitconfig\n');
    await writeFile(join(root, 'team.gitconfig'), '[core]\n\thooksPath = tools/hooks\n');
    const config = readRepositoryConfig(join(root, '.git'));
    expect(config.includes).toEqual([join(root, 'team.gitconfig'), join(root, 'missing.gitconfig')]);
    expect(config.files).toContain(join(root, 'team.gitconfig'));
    expect(configuredHooksPath(config, root)).toBe(join(root, 'tools', 'hooks'));
  });

  it('reads a .git file and a linked worktree git dir through commondir', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cairn-git-config-'));
    await mkdir(join(root, 'main', 'worktrees', 'wt'), { recursive: true });
    await writeFile(join(root, 'main', 'config'), '[core]\n\thooksPath = .husky\n');
    await writeFile(join(root, 'main', 'worktrees', 'wt', 'commondir'), '../..\n');
    await mkdir(join(root, 'wt'));
    await writeFile(join(root, 'wt', '.git'), 'gitdir: ../main/worktrees/wt\n');
    const gitDir = gitFileTarget(join(root, 'wt', '.git')) as string;
    expect(gitDir).toBe(join(root, 'main', 'worktrees', 'wt'));
    expect(configuredHooksPath(readRepositoryConfig(gitDir), join(root, 'wt'))).toBe(join(root, 'wt', '.husky'));
  });
});
