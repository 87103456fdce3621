import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { linterEnvironment, runCommand } from './run-command.js';

const env = linterEnvironment(process.env);
const node = (script: string, ...args: string[]) => ({ file: process.execPath, args: ['-e', script, ...args], cwd: process.cwd() });

describe('runCommand', () => {
  it('runs argv without a shell: metacharacters stay literal', async () => {
    const result = await runCommand(node('console.log(JSON.stringify(process.argv.slice(1)))', '$(echo hacked)', '; rm -rf x'), {
      env,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(JSON.parse(result.stdout)).toEqual(['$(echo hacked)', '; rm -rf x']);
  });

  it('kills the whole process group on timeout, children included', async () => {
    // The child starts a grandchild that would outlive a plain kill of its parent, and prints its pid.
    const script = `
      const { spawn } = require('node:child_process');
      const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log(grandchild.pid);
      setInterval(() => {}, 1000);`;
    const result = await runCommand(node(script), { env, timeoutMs: 500, signal: new AbortController().signal });
    expect(result.timedOut).toBe(true);
    const grandchildPid = Number(result.stdout.trim());
    expect(grandchildPid).toBeGreaterThan(0);
    // Dead means gone or a zombie waiting for its new parent to reap it.
    const isRunning = async () => {
      if (process.platform !== 'linux') {
        try {
          process.kill(grandchildPid, 0);
          return true;
        } catch {
          return false;
        }
      }
      try {
        const status = await readFile(`/proc/${grandchildPid}/status`, 'utf8');
        return !/^State:\s+Z/m.test(status);
      } catch {
        return false;
      }
    };
    let alive = true;
    for (let attempt = 0; attempt < 50 && alive; attempt += 1) {
      alive = await isRunning();
      if (alive) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(alive).toBe(false);
  });

  it('rejects with the abort reason when cancelled', async () => {
    const controller = new AbortController();
    const pending = runCommand(node('setInterval(() => {}, 1000)'), { env, timeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 100);
    await expect(pending).rejects.toThrow('stop now');
  });
});
