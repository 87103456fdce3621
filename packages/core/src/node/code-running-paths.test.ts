import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { protectedPathReason } from './protected-paths.js';
import { sensitiveFileReason } from './sensitive-files.js';

async function repository(...config: string[][]): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-code-paths-')));
  execFileSync('git', ['init', '-q', root]);
  for (const args of config) execFileSync('git', ['-C', root, 'config', ...args]);
  return root;
}

describe('protectedPathReason: what the host runs later', () => {
  it('covers whole editor folders at any depth, hook folders by name and .devcontainer.json', async () => {
    const root = await repository();
    for (const path of ['.vscode/mcp.json', '.vscode/extensions.json', 'packages/app/.vscode/tasks.json', '.idea/workspace.xml', '.devcontainer/devcontainer.json', '.devcontainer.json', '.zed/tasks.json', '.husky/pre-commit', 'sub/.githooks/post-checkout', '.VSCode/Tasks.json']) {
      expect(protectedPathReason(root, join(root, path)), path).toBeDefined();
    }
    for (const path of ['src/vscode.ts', 'docs/husky.md', 'idea/notes.md']) expect(protectedPathReason(root, join(root, path)), path).toBeUndefined();
  });

  it('covers the folder core.hooksPath names and the config files an include names, existing or not', async () => {
    const root = await repository(['core.hooksPath', 'tools/git-hooks'], ['include.path', '../team.gitconfig']);
    expect(protectedPathReason(root, join(root, 'tools/git-hooks/pre-commit'))).toMatch(/core\.hooksPath/);
    expect(protectedPathReason(root, join(root, 'tools/git-hooks/helpers/lib.sh'))).toMatch(/core\.hooksPath/);
    expect(protectedPathReason(root, join(root, 'team.gitconfig'))).toMatch(/includes/);
    expect(protectedPathReason(root, join(root, 'tools/build.sh'))).toBeUndefined();
  });

  it('a workspace inside a repository: the hooks folder that repository names is protected', async () => {
    const repositoryRoot = await repository(['core.hooksPath', 'app/hooks']);
    const root = join(repositoryRoot, 'app');
    expect(protectedPathReason(root, join(root, 'hooks', 'pre-push'))).toMatch(/core\.hooksPath/);
    expect(protectedPathReason(root, join(root, 'src', 'index.ts'))).toBeUndefined();
  });

  it('with core.hooksPath = . only the hook names at the root count', async () => {
    const root = await repository(['core.hooksPath', '.']);
    expect(protectedPathReason(root, join(root, 'pre-commit'))).toMatch(/core\.hooksPath/);
    expect(protectedPathReason(root, join(root, 'src/pre-commit'))).toBeUndefined();
    expect(protectedPathReason(root, join(root, 'README.md'))).toBeUndefined();
  });

  it('covers git dirs of nested repositories and .git files at any depth', async () => {
    const root = await repository();
    for (const path of ['vendor/lib/.git/config', 'vendor/lib/.git/commondir', 'sub/.git', '.git/modules/sub/hooks/pre-commit']) {
      expect(protectedPathReason(root, join(root, path)), path).toMatch(/\.git/);
    }
  });
});

describe('sensitiveFileReason', () => {
  it('names package-manager, build, CI and hook-manager files, never under node_modules', () => {
    const root = '/w/proj';
    for (const path of ['package.json', 'packages/a/package.json', '.npmrc', '.yarnrc.yml', 'Makefile', 'GNUmakefile', 'justfile', '.github/workflows/ci.yml', 'sub/.github/workflows/x.yaml', '.gitlab-ci.yml', '.pre-commit-config.yaml', 'lefthook.yml']) {
      expect(sensitiveFileReason(root, join(root, path)), path).toBeDefined();
    }
    for (const path of ['node_modules/x/package.json', 'src/index.ts', 'docs/Makefile.md', '../proj-evil/package.json', '.github/CODEOWNERS']) {
      expect(sensitiveFileReason(root, join(root, path)), path).toBeUndefined();
    }
  });
});
