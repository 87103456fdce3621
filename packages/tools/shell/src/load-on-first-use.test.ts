import { beforeEach, describe, expect, it, vi } from 'vitest';
import { temporaryWorkspace, toolContext } from '../test/tool-context.js';

// Modules swapped for pass-throughs that note when they are imported: the shell's execute body,
// the sandbox, and the builtins a call needs but importing the pack must not load.
const watched = {
  './run-terminal-cmd-execute.js': 'execute body',
  './sandbox/bubblewrap.js': 'bubblewrap sandbox',
  './sandbox/sandboxed-launch.js': 'sandboxed launch',
  'node:child_process': 'child_process',
  'node:http': 'http',
  'node:net': 'net',
} as const;
const loaded: string[] = [];

// A fresh module registry and fresh pass-throughs per test: each test sees only its own loads.
beforeEach(() => {
  vi.resetModules();
  loaded.length = 0;
  for (const [specifier, label] of Object.entries(watched)) {
    vi.doMock(specifier, async (importOriginal) => {
      loaded.push(label);
      return importOriginal();
    });
  }
});

describe('@cairn/tools-shell loads process and sandbox code on first use', () => {
  it('importing the pack (tool, helpers, default backend) loads none of it', async () => {
    const shell = await import('./index.js');
    expect(shell.shellToolsPlugin.tools?.map((tool) => tool.name)).toEqual(['run_terminal_cmd']);
    expect(shell.runTerminalCmdTool.ruleSubject?.({ command: 'ls -la' })).toBe('ls -la');
    expect(shell.defaultSandboxBackend().name).toBe(process.platform === 'linux' ? 'bubblewrap' : 'none');
    expect(shell.shellCommandLine(['echo', "it's"])).toBe("echo 'it'\\''s'");
    expect(shell.listBackgroundProcesses()).toEqual([]);
    expect(loaded).toEqual([]);
  });

  it('the first command loads the body and the launch code, and runs as before', async () => {
    const { runTerminalCmdTool } = await import('./index.js');
    const { context } = toolContext(await temporaryWorkspace());
    const result = await runTerminalCmdTool.execute({ command: 'echo first-use' }, { ...context, settings: { processIsolation: 'off' } });
    expect(JSON.stringify(result)).toContain('first-use');
    expect(loaded).toEqual(expect.arrayContaining(['execute body', 'sandboxed launch', 'child_process']));
  });

  it('a helper exported by name loads its module at its first call', async () => {
    const { prepareLaunch } = await import('./index.js');
    const cwd = await temporaryWorkspace();
    const prepared = await prepareLaunch('true', {
      requirement: { profile: 'none', networkAllow: [], required: false }, workspaceRoot: cwd, cwd, shell: '/bin/sh', env: {}, processIsolation: 'off', label: 'The test',
    });
    expect(prepared).toMatchObject({ sandbox: 'none', isolation: 'none' });
    expect(loaded).toContain('sandboxed launch');
  });
});
