import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCairn } from '@cairn/core/node';
import { describePostgres, freshDatabase } from '@cairn/store-postgres/testing';
import { expect, it } from 'vitest';
import { eventually, toolResults, useWorld } from './harness.js';

describePostgres('a queued run executed by a worker', (url) => {
  const world = useWorld(url);

  it('runs on the worker; a reader on another store instance streams every event once and wait() returns finished', async () => {
    const w = world();
    w.route = (text, body) => (toolResults(body).length ? { text: `wrote it for: ${text}` } : { toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'hi\n' } }] });
    const queue = await w.queue();
    const { agent } = await w.sender(queue);
    const worker = await w.worker();
    const run = await agent.send('Write hello.txt');
    const readerStore = await w.openStore();
    const reader = await createCairn({}).Agent.getRun(run.id, { store: readerStore });
    const offsets: number[] = [];
    const messages: string[] = [];
    for await (const stored of reader.storedEvents()) {
      offsets.push(stored.offset);
      if (stored.event.kind === 'message') messages.push(stored.event.message.type);
    }
    expect(offsets).toEqual(offsets.map((_, index) => index + 1));
    expect(messages.at(-1)).toBe('status');
    const result = await run.wait();
    expect(result).toMatchObject({ status: 'finished', result: 'wrote it for: Write hello.txt' });
    expect(await readFile(join(w.cwd, 'hello.txt'), 'utf8')).toBe('hi\n');
    const stored = await readerStore.runs.get(run.id);
    expect(stored?.owner).toBeDefined();
    expect(w.server.problems).toEqual([]);
    // The job is gone once the run ended: nothing waits in the queue.
    expect(await eventually(() => w.sql(`SELECT id FROM "${w.graphileSchema}"._private_jobs`), (rows) => rows.length === 0)).toEqual([]);
    expect(worker.running()).toBe(0);
  });

  it('refuses to start when its queue connection does not reach the database of the store (the reaper joins the two)', async () => {
    const w = world();
    const other = await freshDatabase(url);
    try {
      const store = await w.openStore();
      await expect(w.worker({ connectionString: other.url, store })).rejects.toThrow(
        `The worker's database has no Cairn store in schema "${w.storeSchema}": the queue (connectionString or pool) and the store must be the same PostgreSQL database.`,
      );
    } finally {
      await other.drop();
    }
  });
});
