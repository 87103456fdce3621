import { describe, expect, it } from 'vitest';
import type { InteractionUpdate, RunEvent } from '../spec/events/v1/index.js';
import { createMemoryStore } from '../store/memory-store.js';
import { RunEventLog } from './run-event-log.js';
import { RunPublisher } from './run-publisher.js';

const delta = (text: string): RunEvent => ({ kind: 'update', update: { type: 'text-delta', text } });

describe('RunPublisher', () => {
  it('streamed updates are written together, and onDelta sees each only once it is stored, in order', async () => {
    const store = createMemoryStore();
    let appends = 0;
    const runEvents = { ...store.runEvents, append: (runId: string, events: RunEvent[]) => {
        appends++;
        return store.runEvents.append(runId, events);
      },
    };
    const log = new RunEventLog(runEvents, 'run-1');
    const seen: string[] = [];
    const storedWhenSeen: number[] = [];
    const publisher = new RunPublisher({ agentId: 'a', runId: 'run-1' }, log, async ({ update }: { update: InteractionUpdate }) => {
      seen.push((update as { text: string }).text);
      storedWhenSeen.push((await store.runEvents.list('run-1')).events.length);
    });
    for (let index = 0; index < 50; index++) await publisher.deliverSoon([delta(`d${index}`)]);
    await publisher.deliver([delta('end')]);
    expect(seen).toEqual([...Array.from({ length: 50 }, (_, index) => `d${index}`), 'end']);
    // Every update was in the store before onDelta saw it.
    for (const [index, stored] of storedWhenSeen.entries()) expect(stored).toBeGreaterThan(index);
    expect(appends).toBeLessThanOrEqual(3);
  });

  it('a failed write is never shown, and fails the next delivery', async () => {
    const store = createMemoryStore();
    const runEvents = { ...store.runEvents, append: async () => Promise.reject(new Error('disk full')) };
    const seen: string[] = [];
    const publisher = new RunPublisher({ agentId: 'a', runId: 'run-1' }, new RunEventLog(runEvents, 'run-1'), ({ update }) => void seen.push(update.type));
    publisher.deliverSoon([delta('lost')]);
    await expect(publisher.deliver([delta('next')])).rejects.toThrow('disk full');
    expect(seen).toEqual([]);
  });
});
