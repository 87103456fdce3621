// The suite-level orphan check itself: it sees a leftover server, and only the suite's own.
import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fixtureServerPath } from './helpers/fixture-servers.js';
import { testTagVariable } from './helpers/server-processes.js';
import { suiteOrphans } from './suite-orphan-check.js';

/** A process that waits, tagged as started by test process `owner`, as a leaked server would be. */
function fakeServer(owner: number): ChildProcess {
  return spawn(process.execPath, [fixtureServerPath, '--grandchild'], { env: { ...process.env, [testTagVariable]: `cairn-mcp-test-${owner}` }, stdio: 'ignore' });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The pid of a process that has already exited: the owner of an orphan. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

const pids = () => suiteOrphans().map((server) => server.pid);

describe('suiteOrphans', () => {
  it('counts a server whose test process has exited or is this one, not one of another live process', async () => {
    const orphan = fakeServer(await exitedPid());
    const ours = fakeServer(process.pid);
    const foreign = fakeServer(1);
    // spawn() returns once the program runs: its command line and environment are readable now.
    try {
      expect(pids()).toEqual(expect.arrayContaining([orphan.pid, ours.pid]));
      expect(pids()).not.toContain(foreign.pid);
    } finally {
      await Promise.all([stop(orphan), stop(ours), stop(foreign)]);
    }
    expect(pids()).not.toContain(orphan.pid);
    expect(pids()).not.toContain(ours.pid);
  });
});
