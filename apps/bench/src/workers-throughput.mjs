// Background-run throughput (docs/background-agents.md): runs queued with the SDK on a Postgres store
// and executed by 1, 2 and 4 `cairn worker` processes (the built CLI, concurrency 1 each), against
// the built packages (`pnpm build`). Each run is one agent's send: the model (the fake
// OpenAI-compatible server, zero latency) calls one shell command that takes 200 ms, then answers.
// Measured: wall time from the first send to the last run ended, runs per second, and the ratio to
// one worker in the same run — how far adding workers helps on this machine (2 cores here: the
// workers, the database and the model share them). Every run must end `finished`, else it fails.
// Needs CAIRN_TEST_POSTGRES_URL (scripts/start-postgres.sh prints it). Prints one JSON object per line.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { round } from './stats.mjs';

const server = process.env.CAIRN_TEST_POSTGRES_URL;
if (!server) {
  console.error('workers-throughput: set CAIRN_TEST_POSTGRES_URL=postgres://… (scripts/start-postgres.sh starts Debian\'s PostgreSQL and prints it)');
  process.exit(1);
}
setTimeout(() => {
  console.error('workers-throughput: timed out after 10 minutes');
  process.exit(1);
}, 600_000).unref();

const runs = Number(process.env.BENCH_RUNS ?? 24);
const workerCounts = [1, 2, 4];
const model = 'openai/gpt-4.1-mini';
const dist = (path) => new URL(`../../../${path}`, import.meta.url).href;
const { startChatCompletionsServer } = await import(dist('packages/core/dist/testing.js'));
const { createCairn, registry } = await import(dist('packages/sdk/dist/index.js'));
const { createPostgresStore } = await import(dist('packages/stores/postgres/dist/index.js'));
const { createRunQueue } = await import(dist('packages/workers/dist/index.js'));
const cliBin = new URL('../../../apps/cli/dist/bin.js', import.meta.url).pathname;

const fake = await startChatCompletionsServer((body) => (body.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'sleep 0.2' } }] }));
const env = { ...process.env, OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: fake.url, OPENAI_API: 'chat', CAIRN_MODEL: model, CAIRN_HOME: mkdtempSync(join(tmpdir(), 'cairn-bench-workers-home-')), NO_COLOR: '1' };

const results = [];
for (const count of workerCounts) results.push(await measure(count));
const base = results[0].runsPerSecond;
for (const result of results) {
  console.log(JSON.stringify({ benchmark: 'workers-throughput', ...result, speedupOverOneWorker: round(result.runsPerSecond / base, 2) }));
}
await fake.close();
process.exit(0);

async function measure(workers) {
  const database = await freshDatabase();
  const store = await createPostgresStore({ connectionString: database.url });
  const queue = await createRunQueue({ connectionString: database.url });
  const processes = [];
  try {
    for (let index = 0; index < workers; index++) processes.push(await startWorker(database.url));
    const { Agent } = createCairn({ registry, defaultStore: () => store });
    const agents = [];
    for (let index = 0; index < runs; index++) {
      agents.push(await Agent.create({ model, local: { cwd: mkdtempSync(join(tmpdir(), 'cairn-bench-workers-ws-')), store }, background: queue, env }));
    }
    const started = performance.now();
    const sent = await Promise.all(agents.map((agent) => agent.send('run the command')));
    const ended = await Promise.all(sent.map((run) => run.wait()));
    const seconds = (performance.now() - started) / 1000;
    const unfinished = ended.filter((result) => result.status !== 'finished');
    if (unfinished.length) throw new Error(`${unfinished.length} runs did not finish: ${JSON.stringify(unfinished[0])}`);
    return { workers, runs, seconds: round(seconds, 2), runsPerSecond: round(runs / seconds, 2) };
  } finally {
    for (const child of processes) child.kill('SIGTERM');
    await Promise.all(processes.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)))));
    await queue.close();
    await store.close();
    await database.drop();
  }
}

function startWorker(url) {
  const child = spawn(process.execPath, [cliBin, 'worker', '--store', url, '--concurrency', '1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('taking runs')) resolve(child);
    });
    child.once('exit', () => reject(new Error(`cairn worker exited:\n${out}`)));
  });
}

async function freshDatabase() {
  const name = `cairn_bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
