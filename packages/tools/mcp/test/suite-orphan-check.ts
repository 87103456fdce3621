// The suite-level check that no MCP server outlives the tests: a vitest globalSetup whose teardown
// fails the run (exit code 1, the processes listed) when a test server is still running. Used by
// this package and by @cairn/sdk (`test.globalSetup` in their vitest configs).
import { readFileSync } from 'node:fs';
import { findServerProcesses, type ServerProcess, testTagVariable } from './helpers/server-processes.js';

/** How long servers may take to exit after the last test (a killed group is reaped a moment later). */
const settleMs = 5000;
/** The tag a test process gives the servers it starts (helpers/server-processes.ts): `cairn-mcp-test-<its pid>`. */
const tagPattern = /^cairn-mcp-test-(\d+)(?:-.+)?$/;

/**
 * Test servers this suite run left: tagged by a test process that is one of ours (this vitest
 * process or a worker below it) or that has exited, and started after this run began. A server of
 * another suite running at the same time (its test process alive, not ours) is not counted, nor
 * one an earlier run left.
 */
export function suiteOrphans(suiteStart = startTicks(process.pid) ?? 0): ServerProcess[] {
  return findServerProcesses().filter((server) => {
    const owner = Number(tagPattern.exec(tagOf(server.pid) ?? '')?.[1]);
    if (!Number.isInteger(owner) || owner <= 0) return false;
    if ((startTicks(server.pid) ?? 0) < suiteStart) return false;
    return !isAlive(owner) || isDescendantOf(owner, process.pid);
  });
}

/** vitest globalSetup: nothing to prepare; the check runs once every test file has finished. */
export function setup(): void {}

export async function teardown(): Promise<void> {
  let left = suiteOrphans();
  for (const deadline = Date.now() + settleMs; left.length > 0 && Date.now() < deadline; left = suiteOrphans()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (left.length === 0) return;
  // A throw here is only logged by vitest; the exit code is what fails the run.
  process.exitCode = 1;
  console.error(`MCP server processes were left running after the tests (a test did not close its agent, session or connection):\n${left.map((server) => `  pid ${server.pid}: ${server.command}`).join('\n')}`);
}

function procFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state, ppid, ... (field 3 onwards).
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** When the process started, in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function startTicks(pid: number): number | undefined {
  const value = procFields(pid)?.[19];
  return value === undefined ? undefined : Number(value);
}

function parentOf(pid: number): number | undefined {
  const value = procFields(pid)?.[1];
  return value === undefined ? undefined : Number(value);
}

function isAlive(pid: number): boolean {
  const state = procFields(pid)?.[0];
  return state !== undefined && state !== 'Z' && state !== 'X';
}

function isDescendantOf(pid: number, ancestor: number): boolean {
  for (let current: number | undefined = pid; current !== undefined && current > 1; current = parentOf(current)) {
    if (current === ancestor) return true;
  }
  return false;
}

function tagOf(pid: number): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((line) => line.startsWith(`${testTagVariable}=`));
    return entry?.slice(testTagVariable.length + 1);
  } catch {
    return undefined;
  }
}
