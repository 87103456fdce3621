import { describePostgres } from '@cairn/store-postgres/testing';
import { expect, it } from 'vitest';
import { eventually, loggedEvents, processesWith, toolResults, useWorld } from './harness.js';

describePostgres('graceful stop', (url) => {
  const world = useWorld(url);

  it('hands a long run back when the grace is over: the job waits at once with its attempt given back, and a second worker finishes the run', async () => {
    const w = world();
    w.local = { sandboxOptions: { enabled: true } };
    const marker = `${30 + Math.floor(Math.random() * 1000) / 1000}`;
    w.route = (_text, body) =>
      toolResults(body).length ? { text: `resumed; the command said: ${toolResults(body)[0]}` } : { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${marker}` } }] };
    const queue = await w.queue();
    const { agent, store } = await w.sender(queue);
    const first = await w.worker();
    const run = await agent.send('Run the long job');
    await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length > 0, 20_000, 'the command to start');
    expect(first.running()).toBe(1);

    await first.stop({ graceMs: 300 });
    expect(first.running()).toBe(0);
    // The command died with the run's hand-back, and nothing marked the run ended.
    expect(await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length === 0, 10_000, 'the command to stop')).toEqual([]);
    const handedBack = await store.runs.get(run.id);
    expect(handedBack?.status).toBe('running');
    expect(handedBack?.metadata?.background).toMatchObject({ attempts: 1 });
    const jobs = await w.sql(`SELECT key, attempts, locked_by, last_error, run_at <= now() AS due FROM "${w.graphileSchema}"._private_jobs`);
    expect(jobs).toEqual([{ key: run.id, attempts: 0, locked_by: null, last_error: null, due: true }]);

    await w.worker();
    const result = await run.wait();
    expect(result.status).toBe('finished');
    expect(result.result).toMatch(/^resumed; the command said: .*interrupted/s);
    const events = await loggedEvents(store, run.id);
    const statuses = events.flatMap((event) => (event.kind === 'message' && event.message.type === 'status' ? [[event.message.status, (event.message as { phase?: string }).phase]] : []));
    expect(statuses).toContainEqual(['RUNNING', 'resumed']);
    expect(statuses.filter(([status]) => status !== 'RUNNING')).toEqual([['FINISHED', undefined]]);
    expect((await store.runs.get(run.id))?.metadata?.background).toMatchObject({ attempts: 2 });
    expect(await w.sql(`SELECT id FROM "${w.graphileSchema}"._private_jobs`)).toEqual([]);
    expect(w.server.problems).toEqual([]);
  });

  it('a run that ends within the grace ends normally on the stopping worker, and its job completes', async () => {
    const w = world();
    w.local = { sandboxOptions: { enabled: true } };
    const marker = `${1 + Math.floor(Math.random() * 1000) / 1000}`;
    w.route = (_text, body) => (toolResults(body).length ? { text: 'done in time' } : { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${marker}` } }] });
    const queue = await w.queue();
    const { agent, store } = await w.sender(queue);
    const worker = await w.worker();
    const run = await agent.send('Take a second');
    await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length > 0, 20_000, 'the command to start');
    await worker.stop({ graceMs: 20_000 });
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'done in time' });
    expect((await store.runs.get(run.id))?.metadata?.background).toMatchObject({ attempts: 1 });
    expect(await w.sql(`SELECT id FROM "${w.graphileSchema}"._private_jobs`)).toEqual([]);
  });
});
