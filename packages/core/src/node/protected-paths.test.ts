import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentHomes, protectedPathReason } from './protected-paths.js';

const homes = { cairnHome: '/home/u/.config/cairn-home', userHome: '/home/u' };
const root = '/home/u/project';
const reason = (path: string) => protectedPathReason(root, path.startsWith('/') ? path : join(root, path), homes);

describe("the agent's own settings are protected like .git", () => {
  it('protects $CAIRN_HOME outside the workspace, whatever its name', () => {
    for (const path of ['/home/u/.config/cairn-home/permissions.json', '/home/u/.config/cairn-home/settings.json', '/home/u/.config/cairn-home/agents.db', '/home/u/.config/cairn-home']) {
      expect(reason(path), path).toMatch(/CAIRN_HOME/);
    }
  });

  it('protects the user-level configuration in the home folder', () => {
    for (const path of ['/home/u/.cairn/permissions.json', '/home/u/.cursor/mcp.json', '/home/u/.cursor/permissions.json', '/home/u/.cursor/cli-config.json', '/home/u/.claude/settings.json', '/home/u/.claude/agents/x.md', '/home/u/.gitconfig', '/home/u/.config/git/config', '/home/u/.bashrc', '/home/u/.zshrc']) {
      expect(reason(path), path).toMatch(/user/);
    }
    for (const path of ['/home/u/notes.txt', '/home/u/.cursor/rules/x.mdc', '/tmp/x', '/home/u/other/readme.md']) expect(reason(path), path).toBeUndefined();
  });

  it('protects agent configuration in the workspace: .cairn, .cursor, .claude settings, .mcp.json', () => {
    for (const path of ['.cairn/permissions.json', '.cairn/sandbox.json', '.cursor/permissions.json', '.cursor/sandbox.json', '.cursor/hooks.json', '.cursor/hooks/x.sh', '.cursor/agents/a.md', '.claude/settings.json', '.claude/settings.local.json', '.claude/agents/a.md', '.mcp.json', '.CAIRN/PERMISSIONS.JSON']) {
      expect(reason(path), path).toBeDefined();
    }
    for (const path of ['src/a.ts', '.cursor/rules/a.mdc', '.claude/commands/x.md', 'docs/.mcp.json.md']) expect(reason(path), path).toBeUndefined();
  });

  it('reads the homes from the agent environment, with the loaders default for $CAIRN_HOME', () => {
    expect(agentHomes({ HOME: '/h', CAIRN_HOME: '/c' })).toEqual({ cairnHome: '/c', userHome: '/h' });
    expect(agentHomes({ HOME: '/h' }).userHome).toBe('/h');
  });
});
