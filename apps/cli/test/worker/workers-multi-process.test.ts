import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { backgroundRunInfo, type RunEvent, type RunRecord } from '@cairn/core';
import { createPostgresStore, type PostgresStore } from '@cairn/store-postgres';
import { describePostgres, type FreshDatabase, freshDatabase } from '@cairn/store-postgres/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServeFixture, serveFixture } from '../serve/serve-fixture.js';
import { api, eventually, readEvents, type ServeProcess, startServe, tempWorkspace } from '../serve/serve-process.js';
import { pidOfOwner, startWorkerProcess, type WorkerProcess } from './worker-process.js';

const agents = 10;
const runsPerAgent = 3;
/** Short, so a frozen worker loses its runs within the test; the heartbeat renews every second. */
const leaseTtlMs = 3_000;

describePostgres('background agents: a server and three workers as separate processes on one Postgres', () => {
  let db: FreshDatabase;
  let fixture: ServeFixture;
  let server: ServeProcess;
  let store: PostgresStore;
  const workers: WorkerProcess[] = [];
  let root: string;

  beforeAll(async () => {
    db = await freshDatabase();
    // Every prompt runs one shell command that takes a while (so workers die mid-tool), then answers.
    fixture = await serveFixture('workers', (text) => ({ toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep 2 && echo ${text.replace(/\W/g, '-')}` } }] }));
    const env = { ...fixture.env, CAIRN_LEASE_TTL_MS: String(leaseTtlMs) };
    root = await tempWorkspace('cairn-workers-root-');
    server = await startServe(fixture.cli.bin, { roots: [root], env, args: ['--store', db.url] });
    for (let index = 0; index < 3; index++) workers.push(await startWorkerProcess(fixture.cli.bin, { store: db.url, env, args: ['--concurrency', '2', '--shutdown-grace-ms', '1000'] }));
    store = await createPostgresStore({ connectionString: db.url });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop().catch(() => undefined)));
    await server?.stop();
    await store?.close();
    await fixture?.dispose();
    await db?.drop();
  }, 60_000);

  it('30 runs on 10 agents all finish, through a SIGKILL mid-tool and a SIGSTOP past the lease, with gap-free logs and fenced-out late writes', async () => {
    const client = api(server.url);
    const runIds: string[] = [];
    for (let a = 0; a < agents; a++) {
      const cwd = join(root, `agent-${a}`);
      await mkdir(cwd);
      const created = await client.post('/v1/agents', { model: fixture.env.CAIRN_MODEL, local: { cwd } });
      expect(created.status, created.text).toBe(201);
      for (let r = 0; r < runsPerAgent; r++) {
        const sent = await client.post(`/v1/agents/${created.json.agent.agentId}/runs`, { text: `task ${a} ${r}` });
        expect(sent.status, sent.text).toBe(201);
        runIds.push(sent.json.id);
      }
    }

    // Kill the first worker while one of its runs is inside its shell command.
    const [killed, frozen] = workers as [WorkerProcess, WorkerProcess, WorkerProcess];
    const killedRun = await eventually(() => runInToolOf(killed.pid), 'a run of worker 1 inside a tool call', 60_000);
    killed.signal('SIGKILL');
    await killed.exited;

    // Freeze the second one mid-tool until another worker took its run over (its lease expired on the database clock).
    const frozenRun = await eventually(() => runInToolOf(frozen.pid, [killedRun]), 'a run of worker 2 inside a tool call', 60_000);
    frozen.signal('SIGSTOP');
    await eventually(async () => {
      const record = await store.runs.get(frozenRun);
      return record && pidOfOwner(record.owner) !== frozen.pid ? true : undefined;
    }, 'another worker taking the frozen run over', 120_000).catch(async (error) => {
      throw new Error(`${(error as Error).message}\n${await diagnose(frozenRun)}`);
    });
    frozen.signal('SIGCONT');

    const ended = await eventually(async () => {
      const records = await Promise.all(runIds.map((runId) => store.runs.get(runId)));
      return records.every((record) => record?.status !== 'running') ? (records as RunRecord[]) : undefined;
    }, 'every run to end', 150_000);
    expect(ended.map((record) => `${record.runId}:${record.status}`)).toEqual(runIds.map((runId) => `${runId}:finished`));

    for (const runId of runIds) {
      const events = await fullLog(runId);
      expect(events.map((stored) => stored.offset)).toEqual(events.map((_, index) => index + 1));
      expectNoDuplicateWork(runId, events.map((stored) => stored.event));
    }
    for (const runId of [killedRun, frozenRun]) {
      const statuses = (await fullLog(runId)).map((stored) => stored.event).filter(isStatus);
      expect(statuses.some((event) => 'phase' in event.message && event.message.phase === 'resumed'), `${runId} was resumed by another worker`).toBe(true);
    }
    // The frozen worker woke after the takeover: its writes were refused by the fence (and it said so).
    await eventually(async () => (new RegExp(`Run ${frozenRun}: this worker lost its lease.*late writes were refused`).test(frozen.output()) ? true : undefined), 'the frozen worker reporting its refused writes', 20_000);
    for (const runId of [killedRun, frozenRun]) expect(backgroundRunInfo((await store.runs.get(runId)) ?? {})?.attempts, `${runId} was started twice`).toBeGreaterThanOrEqual(2);

    // The server's SSE stream of a resumed run is its stored log, event for event.
    const streamed = await readEvents(server.url, killedRun);
    const withIds = streamed.events.filter((event) => event.id !== undefined);
    expect(withIds.map((event) => Number(event.id))).toEqual((await fullLog(killedRun)).map((stored) => stored.offset));
    expect(streamed.events.filter((event) => event.id === undefined).map((event) => event.event)).toEqual(['end']);
  }, 300_000);

  /**
   * A run of the worker with this pid that is inside its 2 s shell command, whose start this poller
   * saw happen less than a second ago (it saw the run before the call started): a signal sent now
   * lands mid-tool, not as the command ends.
   */
  async function runInToolOf(pid: number, except: string[] = []): Promise<string | undefined> {
    for (const record of await runningRecords()) {
      const events = (await fullLog(record.runId)).map((stored) => stored.event);
      const started = events.filter((event) => isUpdate(event, 'tool-call-started')).length;
      const completed = events.filter((event) => isUpdate(event, 'tool-call-completed')).length;
      const before = startsSeen.get(record.runId);
      // When the poller saw this call start: unknown for a call already running at its first look.
      const sawStartAt = before === undefined ? undefined : before.started < started ? Date.now() : before.sawStartAt;
      startsSeen.set(record.runId, { started, sawStartAt });
      if (except.includes(record.runId) || pidOfOwner(record.owner) !== pid || started <= completed) continue;
      if (sawStartAt !== undefined && Date.now() - sawStartAt < 1_000) return record.runId;
    }
    return undefined;
  }
  const startsSeen = new Map<string, { started: number; sawStartAt: number | undefined }>();

  /** What a takeover that did not happen waits on: the run, its agent's lease, its job, and what the workers said. */
  async function diagnose(runId: string): Promise<string> {
    const run = await store.runs.get(runId);
    const lease = await store.pool.query(`SELECT lease_run_id, lease_owner, lease_deadline, clock_timestamp() AS now, lease_fence FROM ${store.schema}.agents WHERE agent_id = $1`, [run?.agentId]);
    const job = await store.pool.query('SELECT id, job_queue_id, locked_by, locked_at, attempts, max_attempts, run_at, last_error FROM graphile_worker._private_jobs WHERE key = $1', [runId]);
    const outputs = workers.map((worker, index) => `worker ${index + 1} (pid ${worker.pid}):\n${worker.output().slice(-3000)}`).join('\n');
    return JSON.stringify({ owner: run?.owner, metadata: run?.metadata, lease: lease.rows, job: job.rows }, null, 1) + '\n' + outputs;
  }

  async function runningRecords(): Promise<RunRecord[]> {
    const page = await store.agents.list({ limit: 100 });
    const runs = await Promise.all(page.items.map((agent) => store.runs.list(agent.agentId, { status: 'running', limit: 100 })));
    return runs.flatMap((result) => result.items);
  }

  async function fullLog(runId: string) {
    const all = [];
    for (let afterOffset = 0; ; ) {
      const page = await store.runEvents.list(runId, { afterOffset, limit: 500 });
      if (page.events.length === 0) return all;
      all.push(...page.events);
      afterOffset = page.nextOffset;
    }
  }
});

function isUpdate(event: RunEvent, type: string): boolean {
  return event.kind === 'update' && event.update.type === type;
}

function isStatus(event: RunEvent): event is RunEvent & { kind: 'message' } {
  return event.kind === 'message' && event.message.type === 'status';
}

/** No work appears twice: each tool call starts and completes once, the user message and the final status once. */
function expectNoDuplicateWork(runId: string, events: RunEvent[]): void {
  const count = (type: string) => {
    const seen = new Map<string, number>();
    for (const event of events) if (event.kind === 'update' && event.update.type === type && 'callId' in event.update) seen.set(event.update.callId, (seen.get(event.update.callId) ?? 0) + 1);
    return [...seen.values()];
  };
  expect(count('tool-call-started').every((n) => n === 1), `${runId}: a tool call started twice`).toBe(true);
  expect(count('tool-call-completed').every((n) => n === 1), `${runId}: a tool call completed twice`).toBe(true);
  expect(events.filter((event) => isUpdate(event, 'user-message-appended')), `${runId}: one user message`).toHaveLength(1);
  const finals = events.filter((event) => event.kind === 'message' && event.message.type === 'status' && ['FINISHED', 'ERROR', 'CANCELLED'].includes(event.message.status));
  expect(finals, `${runId}: one final status`).toHaveLength(1);
}
