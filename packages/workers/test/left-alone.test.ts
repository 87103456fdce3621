import { describePostgres } from '@cairn/store-postgres/testing';
import { expect, it } from 'vitest';
import { eventually, processesWith, toolResults, useWorld } from './harness.js';

describePostgres('a job another worker holds now', (url) => {
  const world = useWorld(url);

  it('a run that ends after its job was relocked by another worker leaves that job and its queue lock alone (graphile would delete the job)', async () => {
    const w = world();
    w.local = { sandboxOptions: { enabled: true } };
    const marker = `${1 + Math.floor(Math.random() * 1000) / 1000}`;
    w.route = (_text, body) => (toolResults(body).length ? { text: 'finished anyway' } : { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${marker}` } }] });
    const queue = await w.queue();
    const { agent } = await w.sender(queue);
    const worker = await w.worker();
    const run = await agent.send('Work a little');
    await eventually(() => processesWith(`sleep ${marker}`), (found) => found.length > 0, 20_000, 'the command to start');
    // What a reaper's unlock and another worker's pickup leave behind while this worker is still going.
    await w.sql(`UPDATE "${w.graphileSchema}"._private_jobs SET locked_by = 'pool-other', locked_at = now(), attempts = attempts + 1`);
    await w.sql(`UPDATE "${w.graphileSchema}"._private_job_queues SET locked_by = 'pool-other', locked_at = now()`);
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'finished anyway' });
    await eventually(async () => worker.running(), (count) => count === 0, 10_000, 'the task to return');
    // Give graphile's own completion (it runs right after the task) time to do its worst.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await w.sql(`SELECT key, locked_by, attempts, last_error FROM "${w.graphileSchema}"._private_jobs`)).toEqual([
      { key: run.id, locked_by: 'pool-other', attempts: 2, last_error: null },
    ]);
    expect(await w.sql(`SELECT locked_by FROM "${w.graphileSchema}"._private_job_queues`)).toEqual([{ locked_by: 'pool-other' }]);
    expect(worker.logger.lines.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});
