// A worker process for the crash tests: what a `cairn worker` would run, configured by
// environment variables. With CRASH_WHEN_RUNNING=<text> it kills itself (SIGKILL) as soon as a
// process whose command line contains the text runs (a tool call of its run, started after the
// step was saved), so its job stays locked and its lease stops being renewed.
import { readdir, readFile } from 'node:fs/promises';
import { createCairn } from '@cairn/core/node';
import { registry } from '@cairn/sdk';
import { createPostgresStore } from '@cairn/store-postgres';
import { startWorker } from '../../src/index.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`worker-main needs ${name}`);
  return value;
};

const url = env('CAIRN_TEST_POSTGRES_URL');
const store = await createPostgresStore({ connectionString: url, schema: env('STORE_SCHEMA'), poolSize: 4 });
const Agent = createCairn({ registry }).Agent;
const local = JSON.parse(process.env.AGENT_LOCAL ?? '{}') as Record<string, unknown>;

/** The parent pid of a process, from /proc/<pid>/stat (its fourth field, after the parenthesised name). */
async function parentOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? 0);
}

async function descendsFromMe(pid: number): Promise<boolean> {
  for (let current = pid; current > 1; current = await parentOf(current)) if (current === process.pid) return true;
  return false;
}

/** Kill this process once a descendant runs `sleep <text>` (the sandbox runs tool commands below the worker). */
async function crashWhenRunning(text: string): Promise<never> {
  for (;;) {
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const commandLine = (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ').trim();
      if (commandLine === `sleep ${text}` && (await descendsFromMe(Number(entry)))) process.kill(process.pid, 'SIGKILL');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const worker = await startWorker({
  connectionString: url,
  store,
  graphileSchema: env('GRAPHILE_SCHEMA'),
  reapIntervalMs: 200,
  openAgent: async (agentId, { cwd }) => {
    if (process.env.CRASH_WHEN_RUNNING) void crashWhenRunning(process.env.CRASH_WHEN_RUNNING);
    return Agent.resume(agentId, { retry: { maxAttempts: 1 }, local: { store, ...local, ...(cwd ? { cwd } : {}) } });
  },
  logger: { error: (message) => console.error(message), warn: (message) => console.error(message), info: () => {} },
});
process.stdout.write(`ready ${worker.workerId}\n`);
process.on('SIGTERM', () => {
  void worker.stop({ graceMs: 0 }).then(async () => {
    await store.close();
    process.exit(0);
  });
});
