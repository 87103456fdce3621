import { describePostgres } from '@cairn/store-postgres/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, loggedEvents, processesWith, toolResults, useWorld, type World } from './harness.js';
import { buildWorkerProcess, spawnWorker, type WorkerProcess } from './process/spawn-worker.js';

// Real worker processes that die by SIGKILL mid-run (in-process workers cannot die): the reaper of
// a surviving worker must find the dead worker's job by its expired lease and untouched lock.
describePostgres('workers that die', (url) => {
  const world = useWorld(url);
  let bundle: Awaited<ReturnType<typeof buildWorkerProcess>>;
  const children: WorkerProcess[] = [];
  beforeAll(async () => {
    bundle = await buildWorkerProcess();
  });
  afterAll(() => {
    for (const child of children) child.child.kill('SIGKILL');
    bundle?.dispose();
  });

  /** A worker process that dies by SIGKILL while its run's `sleep <marker>` command runs. */
  const spawnCrasher = async (w: World, marker: string) => {
    const child = await spawnWorker(bundle.script, {
      ...w.env,
      CAIRN_TEST_POSTGRES_URL: url,
      STORE_SCHEMA: w.storeSchema,
      GRAPHILE_SCHEMA: w.graphileSchema,
      // The dead worker's lease runs out two seconds after its last heartbeat.
      CAIRN_LEASE_TTL_MS: '2000',
      AGENT_LOCAL: JSON.stringify(w.local),
      CRASH_WHEN_RUNNING: marker,
    });
    children.push(child);
    return child;
  };
  const sleepRoute = (w: World, marker: string) => {
    w.route = (_text, body) =>
      toolResults(body).length ? { text: `resumed; the command said: ${toolResults(body).at(-1)}` } : { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${marker}` } }] };
  };

  it('a worker killed mid-run: another worker unlocks its job when its lease expires and resumes the run from its last complete step', async () => {
    const w = world();
    w.local = { sandboxOptions: { enabled: true } };
    const marker = `${30 + Math.floor(Math.random() * 1000) / 1000}`;
    sleepRoute(w, marker);
    const queue = await w.queue();
    const { agent, store } = await w.sender(queue);
    const crasher = await spawnCrasher(w, marker);
    const run = await agent.send('Run the long job');
    expect(await crasher.exited).toBe('SIGKILL');
    expect(await w.sql(`SELECT key, locked_by, attempts FROM "${w.graphileSchema}"._private_jobs`)).toEqual([{ key: run.id, locked_by: crasher.workerId, attempts: 1 }]);

    const survivor = await w.worker();
    const result = await run.wait();
    expect(result.status).toBe('finished');
    expect(result.result).toMatch(/^resumed; the command said: .*interrupted/s);
    expect(survivor.logger.lines).toContain(`warn: Worker ${crasher.workerId} stopped while running run ${run.id} (its lease expired); its job is free for another worker.`);
    const statuses = (await loggedEvents(store, run.id)).flatMap((event) => (event.kind === 'message' && event.message.type === 'status' ? [(event.message as { phase?: string }).phase ?? event.message.status] : []));
    expect(statuses).toContain('resumed');
    expect(statuses.at(-1)).toBe('FINISHED');
    expect((await store.runs.get(run.id))?.metadata?.background).toMatchObject({ attempts: 2 });
    expect(await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length === 0, 10_000, 'the dead worker\'s command to be gone')).toEqual([]);
  });

  it('a run that kills every worker that takes it ends error worker_crashed after maxAttempts instead of killing more', async () => {
    const w = world();
    w.local = { sandboxOptions: { enabled: true } };
    const marker = `${30 + Math.floor(Math.random() * 1000) / 1000}`;
    w.route = () => ({ toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${marker}` } }] });
    const queue = await w.queue({ maxAttempts: 3 });
    const { agent } = await w.sender(queue);
    const crashers = [await spawnCrasher(w, marker), await spawnCrasher(w, marker), await spawnCrasher(w, marker), await spawnCrasher(w, marker)];
    const run = await agent.send('Crash everything');
    const result = await run.wait();
    expect(result).toMatchObject({ status: 'error', error: { code: 'worker_crashed' } });
    expect(result.error?.message).toBe('The run crashed 3 workers: every attempt stopped before it finished, so it was ended instead of being tried again.');
    const alive = crashers.filter((crasher) => crasher.child.exitCode === null && crasher.child.signalCode === null);
    expect(alive).toHaveLength(1);
    alive[0]?.child.kill('SIGTERM');
    expect(await alive[0]?.exited).toBe('0');
  });
});
