// Finds MCP server processes left running: the suite's check that nothing is orphaned.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const packageFolder = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** Command-line fragments that name a test server: the fixture folder and the two registry servers. */
export const serverProcessMarkers: readonly string[] = [
  resolve(import.meta.dirname, '../fixtures'),
  packageFolder('@modelcontextprotocol/server-everything'),
  packageFolder('@modelcontextprotocol/server-filesystem'),
];

/**
 * Tests that run beside others (several vitest workers, other packages' suites) tag the servers
 * they start with this variable in the server's `env`, so the check counts only their own.
 */
export const testTagVariable = 'CAIRN_MCP_TEST_TAG';
export const testTag = `cairn-mcp-test-${process.pid}`;
export const taggedEnv: Record<string, string> = { [testTagVariable]: testTag };

export interface ServerProcess {
  pid: number;
  command: string;
}

export interface ServerProcessQuery {
  /** Fragments of the command line; default `serverProcessMarkers`. */
  markers?: readonly string[];
  /** Only processes whose environment has `CAIRN_MCP_TEST_TAG=<tag>`; default: any. */
  tag?: string;
}

/** Live (not zombie) processes whose command line names a marker. Linux /proc; elsewhere empty. */
export function findServerProcesses(query: ServerProcessQuery = {}): ServerProcess[] {
  const markers = query.markers ?? serverProcessMarkers;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return [];
  }
  return pids.flatMap((pid) => {
    const command = readProc(pid, 'cmdline')?.split('\0').join(' ').trim();
    if (!command || !markers.some((marker) => command.includes(marker)) || isZombie(pid)) return [];
    if (query.tag !== undefined && !readProc(pid, 'environ')?.split('\0').includes(`${testTagVariable}=${query.tag}`)) return [];
    return [{ pid: Number(pid), command }];
  });
}

function readProc(pid: string, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

function isZombie(pid: string): boolean {
  const stat = readProc(pid, 'stat');
  if (!stat) return true;
  const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  return state === 'Z' || state === 'X';
}

/**
 * The matching processes still alive once they had up to `waitMs` to exit (killing a group and
 * the kernel reaping it take a moment): `expect(await leftoverServerProcesses(...)).toEqual([])`.
 */
export async function leftoverServerProcesses(query: ServerProcessQuery = {}, waitMs = 5000): Promise<ServerProcess[]> {
  const deadline = Date.now() + waitMs;
  let found = findServerProcesses(query);
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
    found = findServerProcesses(query);
  }
  return found;
}
