import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processesMatching, structured, temporaryWorkspace, textOf, toolContext, waitFor } from '../../test/tool-context.js';
import { runTerminalCmdTool as tool } from '../run-terminal-cmd.js';
import { pidNamespaceAvailability } from './pid-namespace.js';

const seconds = () => `1000.${Math.floor(Math.random() * 1e6)}`;

describe('host commands in their own PID namespace', () => {
  it('is available on this machine (bubblewrap)', async () => {
    expect(await pidNamespaceAvailability()).toMatchObject({ available: true });
  });

  it('hides the agent process: /proc/$PPID and /proc/<agent pid> show nothing of it', async () => {
    const root = await temporaryWorkspace();
    const { context } = toolContext(root, { env: { ...process.env, OPENAI_API_KEY: 'sk-unit-secret' } });
    const result = await tool.execute({ command: `echo "pid $$ parent $PPID"; cat /proc/${process.pid}/environ; tr '\\0' '\\n' < /proc/$PPID/environ` }, context);
    expect(structured(result)).toMatchObject({ sandbox: 'none', isolation: 'pid-namespace' });
    expect(textOf(result)).toMatch(/pid \d parent 1/);
    expect(textOf(result)).toContain(`/proc/${process.pid}/environ: No such file`);
    expect(textOf(result)).not.toContain('sk-unit-secret');
  });

  it('ends everything a foreground command detached (setsid, double fork, nohup, disown) when it returns', async () => {
    const root = await temporaryWorkspace();
    const marker = seconds();
    const { context } = toolContext(root);
    const command = `setsid sleep ${marker} >/dev/null 2>&1 & (sleep ${marker} >/dev/null 2>&1 &); nohup sleep ${marker} >/dev/null 2>&1 & sleep ${marker} >/dev/null 2>&1 & disown; setsid -f sleep ${marker} >/dev/null 2>&1; echo ok`;
    expect(textOf(await tool.execute({ command }, context))).toMatch(/ok\s+Exit code: 0/);
    expect(await waitFor(async () => (await processesMatching(`sleep ${marker}`)).length === 0, 3000)).toBe(true);
  });

  it('ends what a background command detached when the run aborts', async () => {
    const root = await temporaryWorkspace();
    const marker = seconds();
    const { context, controller } = toolContext(root);
    await tool.execute({ command: `setsid sleep ${marker} >/dev/null 2>&1 & echo started`, is_background: true }, context);
    expect(await waitFor(async () => (await processesMatching(`sleep ${marker}`)).length > 0, 3000)).toBe(true);
    controller.abort();
    expect(await waitFor(async () => (await processesMatching(`sleep ${marker}`)).length === 0, 5000)).toBe(true);
  });

  it.each([
    ['on the host', { profile: 'none', networkAllow: [], required: false }],
    ['sandboxed', { profile: 'workspace-write', networkAllow: [], required: true }],
  ] as const)('ends a background command aborted while bubblewrap is still starting (%s)', async (_label, sandbox) => {
    const root = await temporaryWorkspace();
    const marker = seconds();
    for (let attempt = 0; attempt < 5; attempt++) {
      const { context, controller } = toolContext(root, { sandbox: { ...sandbox, networkAllow: [] } });
      await tool.execute({ command: `setsid sleep ${marker} >/dev/null 2>&1 &`, is_background: true }, context);
      controller.abort();
    }
    await new Promise((settle) => setTimeout(settle, 1000));
    expect(await waitFor(async () => (await processesMatching(`sleep ${marker}`)).length === 0, 5000)).toBe(true);
  });

  it('masks the files and folders the read deny rules hide; writing them fails', async () => {
    const root = await temporaryWorkspace();
    await writeFile(join(root, '.env'), 'TOKEN=masked-secret\n');
    await mkdir(join(root, 'secrets'));
    await writeFile(join(root, 'secrets', 'key'), 'folder-secret\n');
    const { context } = toolContext(root, { readDeniedFiles: async () => ({ paths: [join(root, '.env'), join(root, 'secrets')], complete: true }) });
    const result = await tool.execute({ command: 'cat .env; ls -A secrets; cat secrets/key; echo x > .env; ln .env copy; echo done' }, context);
    expect(textOf(result)).not.toMatch(/masked-secret|folder-secret/);
    expect(textOf(result)).toMatch(/Read-only file system/);
    expect(textOf(result)).toMatch(/cross-device/i);
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('TOKEN=masked-secret\n');
  });

  it('refuses to run when the denied files could not all be found', async () => {
    const root = await temporaryWorkspace();
    const { context } = toolContext(root, { readDeniedFiles: async () => ({ paths: [], complete: false }) });
    await expect(tool.execute({ command: 'true' }, context)).rejects.toThrow(/Anchor the rules to folders/);
  });

  it("processIsolation: 'off' runs a plain host process, by choice", async () => {
    const root = await temporaryWorkspace();
    const { context } = toolContext(root, { settings: { shell: { processIsolation: 'off' } } });
    const result = await tool.execute({ command: 'echo $PPID' }, context);
    expect(structured(result)).toMatchObject({ isolation: 'none' });
    expect(textOf(result)).toContain(String(process.pid));
    const bad = toolContext(root, { settings: { shell: { processIsolation: 'sometimes' } } });
    await expect(tool.execute({ command: 'true' }, bad.context)).rejects.toThrow(/processIsolation must be one of auto, required, off/);
  });

  it.runIf(process.getuid?.() === 0)('as root, cannot unmount /proc or a mask to see past them', async () => {
    const root = await temporaryWorkspace();
    await writeFile(join(root, '.env'), 'TOKEN=root-secret\n');
    const { context } = toolContext(root, { readDeniedFiles: async () => ({ paths: [join(root, '.env')], complete: true }) });
    const result = await tool.execute({ command: 'umount -l .env; umount -l /proc; cat .env; ls /proc | grep -c "^[0-9]"; grep CapEff /proc/self/status' }, context);
    expect(textOf(result)).not.toContain('root-secret');
    expect(textOf(result)).toMatch(/must be superuser|Operation not permitted|permission denied/i);
    const effective = BigInt(`0x${/CapEff:\s+([0-9a-f]+)/.exec(textOf(result))?.[1] ?? '0'}`);
    expect(effective & (1n << 21n)).toBe(0n); // CAP_SYS_ADMIN
  });
});
