import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryWorkspace, textOf, toolContext } from '../../test/tool-context.js';
import { runTerminalCmdTool as tool } from '../run-terminal-cmd.js';

describe.each(['read-only', 'workspace-write'] as const)('read deny masks in the %s sandbox', (profile) => {
  it('makes denied files and folders unreadable, and their hard links impossible', async () => {
    const root = await temporaryWorkspace();
    await writeFile(join(root, '.env'), 'TOKEN=sandbox-secret\n');
    await mkdir(join(root, 'secrets'));
    await writeFile(join(root, 'secrets', 'key'), 'folder-secret\n');
    await writeFile(join(root, 'a.txt'), 'alpha\n');
    const { context } = toolContext(root, {
      sandbox: { profile, networkAllow: [], required: true },
      readDeniedFiles: async () => ({ paths: [join(root, '.env'), join(root, 'secrets')], complete: true }),
    });
    const result = await tool.execute({ command: 'cat .env; ls -A secrets; cat secrets/key; grep -r secret . ; ln .env copy; cat a.txt' }, context);
    expect(textOf(result)).not.toMatch(/sandbox-secret|folder-secret/);
    expect(textOf(result)).toContain('alpha');
    await expect(readFile(join(root, 'copy'))).rejects.toThrow();
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('TOKEN=sandbox-secret\n');
  });
});
