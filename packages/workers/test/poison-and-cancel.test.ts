import { describePostgres } from '@cairn/store-postgres/testing';
import { expect, it } from 'vitest';
import type { OpenAgent } from '../src/run-task.js';
import { eventually, processesWith, toolResults, useWorld } from './harness.js';

const jobsOf = (schema: string) => `SELECT key, attempts, locked_by FROM "${schema}"._private_jobs ORDER BY key`;

describePostgres('poisoned and cancelled runs', (url) => {
  const world = useWorld(url);

  it('a run no worker can start ends error worker_crashed after maxAttempts, naming the attempts and the last error', async () => {
    const w = world();
    const queue = await w.queue({ maxAttempts: 2 });
    const { agent, store } = await w.sender(queue);
    let opened = 0;
    const openAgent: OpenAgent = async () => {
      opened++;
      throw new Error('this worker cannot open the agent');
    };
    await w.worker({ openAgent });
    const run = await agent.send('Anything');
    const result = await run.wait();
    expect(result).toMatchObject({ status: 'error', error: { code: 'worker_crashed' } });
    expect(result.error?.message).toBe(
      'The run crashed 2 workers: every attempt stopped before it finished, so it was ended instead of being tried again. The last attempt failed with: this worker cannot open the agent',
    );
    expect(opened).toBe(2);
    // The job stays as graphile leaves a permanently failed one; nothing retries it.
    expect(await w.sql(jobsOf(w.graphileSchema))).toEqual([{ key: run.id, attempts: 2, locked_by: null }]);
    expect((await store.agents.get(agent.agentId))?.lease).toBeNull();
  });

  it('cancel() of a run no worker took yet ends it cancelled; a worker started later drops its job without opening the agent', async () => {
    const w = world();
    const queue = await w.queue();
    const { agent } = await w.sender(queue);
    const run = await agent.send('Never mind');
    await run.cancel();
    expect(await run.wait()).toMatchObject({ status: 'cancelled' });
    let opened = 0;
    await w.worker({ openAgent: async () => { opened++; throw new Error('not expected'); } });
    expect(await eventually(() => w.sql(jobsOf(w.graphileSchema)), (rows) => rows.length === 0, 20_000, 'the job to go')).toEqual([]);
    expect(opened).toBe(0);
  });

  it('a cancel request nobody acted on, for a run queued behind a running one of the same agent: the reaper removes its job and ends it after the first', async () => {
    const w = world();
    w.local = { sandboxOptions: { enabled: true } };
    const marker = `${1 + Math.floor(Math.random() * 1000) / 1000}`;
    w.route = (text, body) => (toolResults(body).length ? { text: `${text}: done` } : { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${marker}` } }] });
    const queue = await w.queue();
    const { agent, store } = await w.sender(queue);
    const worker = await w.worker();
    const first = await agent.send('First');
    const second = await agent.send('Second');
    await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length > 0, 20_000, 'the first run to start');
    // The canceller wrote its request and went away (core's own cancel() would also wait and settle it).
    const queued = await store.runs.get(second.id);
    await store.runs.update(second.id, { metadata: { ...queued?.metadata, cancelRequested: true } });
    expect(await eventually(() => w.sql(jobsOf(w.graphileSchema)), (rows) => rows.length === 1, 20_000, 'the second job to go')).toEqual([
      { key: first.id, attempts: 1, locked_by: worker.workerId },
    ]);
    expect((await store.runs.get(first.id))?.status).toBe('running');
    expect(await first.wait()).toMatchObject({ status: 'finished', result: 'First: done' });
    // Read from the store, not with second.wait(): a reader's wait() may settle a cancel itself.
    const ended = await eventually(() => store.runs.get(second.id), (record) => record?.status !== 'running', 20_000, 'the second run to end');
    expect(ended).toMatchObject({ status: 'cancelled', error: { code: 'cancelled', message: 'The run was cancelled before a worker started it.' } });
    expect(w.server.requests.map((body) => JSON.stringify(body).includes('Second'))).not.toContain(true);
  });

  it('cancel() of a run a worker executes ends it cancelled there, and the job completes', async () => {
    const w = world();
    w.local = { sandboxOptions: { enabled: true } };
    const marker = `${60 + Math.floor(Math.random() * 1000) / 1000}`;
    w.route = () => ({ toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${marker}` } }] });
    const queue = await w.queue();
    const { agent } = await w.sender(queue);
    await w.worker();
    const run = await agent.send('Start and be cancelled');
    await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length > 0, 20_000, 'the command to start');
    await run.cancel();
    expect(await run.wait()).toMatchObject({ status: 'cancelled' });
    expect(await eventually(() => w.sql(jobsOf(w.graphileSchema)), (rows) => rows.length === 0, 20_000, 'the job to complete')).toEqual([]);
    expect(await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length === 0, 10_000, 'the command to stop')).toEqual([]);
  });
});
