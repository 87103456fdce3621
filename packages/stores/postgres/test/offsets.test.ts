import type { PostgresStore } from '../src/index.js';
import { expect, it } from 'vitest';
import { describePostgres } from '../src/testing/index.js';
import { storesOnFreshSchema, textDelta, textOf } from './helpers.js';

const writersPerStore = 4;
const batchesPerWriter = 40;
/** Batch sizes cycle 1, 2, 3: uneven reservations make an ordering bug likelier to show. */
const batchSize = (batch: number) => (batch % 3) + 1;
const eventsPerWriter = Array.from({ length: batchesPerWriter }, (_, batch) => batchSize(batch)).reduce((sum, size) => sum + size, 0);

/** Tails the run until `total` events, checking every page continues exactly where the last ended. */
async function tail(store: PostgresStore, runId: string, total: number): Promise<string[]> {
  const seen: string[] = [];
  let afterOffset = 0;
  while (afterOffset < total) {
    const page = await store.runEvents.list(runId, { afterOffset, limit: 25 });
    for (const [index, stored] of page.events.entries()) {
      // A gap here would be an event that commits after a later offset was already visible.
      if (stored.offset !== afterOffset + index + 1) throw new Error(`after offset ${afterOffset} the reader saw offset ${stored.offset} at position ${index}`);
      seen.push(textOf(stored.event));
    }
    afterOffset = page.nextOffset;
    if (page.events.length === 0) await store.runEvents.waitForAppend(runId, afterOffset, { timeoutMs: 1000 });
  }
  return seen;
}

describePostgres('postgres store: run-event offsets are dense and in commit order', (url) => {
  const stores = storesOnFreshSchema(url);

  it('many appenders in three store instances; two tailing readers each see 1..N once, in order', async () => {
    const writers = await Promise.all([stores.open(), stores.open(), stores.open()]);
    const readers = await Promise.all([stores.open(), stores.open()]);
    const total = writers.length * writersPerStore * eventsPerWriter;

    const tails = readers.map((reader) => tail(reader, 'run-shared', total));
    const lastOffsets: number[] = [];
    await Promise.all(
      writers.flatMap((store, storeIndex) =>
        Array.from({ length: writersPerStore }, async (_, writerIndex) => {
          let sequence = 0;
          for (let batch = 0; batch < batchesPerWriter; batch++) {
            const events = Array.from({ length: batchSize(batch) }, () => textDelta(`w${storeIndex}.${writerIndex}:${sequence++}`));
            lastOffsets.push((await store.runEvents.append('run-shared', events)).lastOffset);
          }
        }),
      ),
    );
    const seenByReaders = await Promise.all(tails);

    // Every append got its own range: the returned last offsets are distinct and the last is N.
    expect(new Set(lastOffsets).size).toBe(lastOffsets.length);
    expect(Math.max(...lastOffsets)).toBe(total);
    const stored = (await readers[0]?.runEvents.list('run-shared'))?.events ?? [];
    expect(stored.map((event) => event.offset)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
    for (const seen of seenByReaders) {
      expect(seen).toEqual(stored.map((event) => textOf(event.event)));
      // Each writer's events are all there, once, in the order it wrote them.
      const byWriter = new Map<string, number[]>();
      for (const text of seen) {
        const [writer, sequence] = text.split(':') as [string, string];
        byWriter.set(writer, [...(byWriter.get(writer) ?? []), Number(sequence)]);
      }
      expect(byWriter.size).toBe(writers.length * writersPerStore);
      for (const sequences of byWriter.values()) expect(sequences).toEqual(Array.from({ length: eventsPerWriter }, (_, index) => index));
    }
  });
});
