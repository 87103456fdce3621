import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../spec/events/v1/events.js';
import { assistantMessage, rejectionCode, type StoreUnderTest, textDelta } from './records.js';

export function runEventsSuite(subject: StoreUnderTest): void {
  const runEvents = () => subject.current().runEvents;
  const texts = (events: Array<{ event: RunEvent }>) =>
    events.map(({ event }) => (event.kind === 'update' && event.update.type === 'text-delta' ? event.update.text : event.kind));

  describe('run events', () => {
    it('appends in order with offsets dense from 1', async () => {
      expect(await runEvents().append('run-1', [textDelta('a'), textDelta('b')])).toEqual({ lastOffset: 2 });
      expect(await runEvents().append('run-1', [textDelta('c')])).toEqual({ lastOffset: 3 });
      const { events, nextOffset } = await runEvents().list('run-1');
      expect(events.map((stored) => stored.offset)).toEqual([1, 2, 3]);
      expect(texts(events)).toEqual(['a', 'b', 'c']);
      expect(nextOffset).toBe(3);
    });

    it('round-trips both event kinds exactly', async () => {
      const events = [assistantMessage('run-1', 'Here is the fix.'), textDelta('x'), { kind: 'update', update: { type: 'turn-ended', usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 3 } } } as RunEvent];
      await runEvents().append('run-1', events);
      expect((await runEvents().list('run-1')).events).toEqual(events.map((event, index) => ({ offset: index + 1, event })));
    });

    it('appending nothing returns the current last offset', async () => {
      expect(await runEvents().append('run-1', [])).toEqual({ lastOffset: 0 });
      await runEvents().append('run-1', [textDelta('a')]);
      expect(await runEvents().append('run-1', [])).toEqual({ lastOffset: 1 });
    });

    it('pages with afterOffset, limit and nextOffset', async () => {
      await runEvents().append('run-1', Array.from({ length: 10 }, (_, index) => textDelta(String(index))));
      const seen: number[] = [];
      let afterOffset = 0;
      for (let page = 0; page < 10; page++) {
        const result = await runEvents().list('run-1', { afterOffset, limit: 4 });
        if (result.events.length === 0) {
          expect(result.nextOffset).toBe(afterOffset);
          break;
        }
        seen.push(...result.events.map((stored) => stored.offset));
        expect(result.nextOffset).toBe(result.events.at(-1)?.offset);
        afterOffset = result.nextOffset;
      }
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(texts((await runEvents().list('run-1', { afterOffset: 7 })).events)).toEqual(['7', '8', '9']);
    });

    it('a tailing reader sees events appended after its last read', async () => {
      await runEvents().append('run-1', [textDelta('a')]);
      const first = await runEvents().list('run-1');
      const empty = await runEvents().list('run-1', { afterOffset: first.nextOffset });
      expect(empty).toEqual({ events: [], nextOffset: 1 });
      await runEvents().append('run-1', [textDelta('b')]);
      const next = await runEvents().list('run-1', { afterOffset: empty.nextOffset });
      expect(next.events.map((stored) => stored.offset)).toEqual([2]);
    });

    it('an unknown run, or an afterOffset past the end, lists nothing', async () => {
      expect(await runEvents().list('run-missing')).toEqual({ events: [], nextOffset: 0 });
      await runEvents().append('run-1', [textDelta('a')]);
      expect(await runEvents().list('run-1', { afterOffset: 5 })).toEqual({ events: [], nextOffset: 5 });
    });

    it('rejects a negative afterOffset and a non-positive limit with code invalid_argument', async () => {
      expect(await rejectionCode(runEvents().list('run-1', { afterOffset: -1 }))).toBe('invalid_argument');
      expect(await rejectionCode(runEvents().list('run-1', { limit: 0 }))).toBe('invalid_argument');
    });

    it('keeps the logs of two runs independent', async () => {
      await runEvents().append('run-1', [textDelta('1a')]);
      await runEvents().append('run-2', [textDelta('2a'), textDelta('2b')]);
      await runEvents().append('run-1', [textDelta('1b')]);
      expect(texts((await runEvents().list('run-1')).events)).toEqual(['1a', '1b']);
      expect((await runEvents().list('run-2')).events.map((stored) => stored.offset)).toEqual([1, 2]);
    });

    it('concurrent appends get distinct dense offsets', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, index) => runEvents().append('run-1', [textDelta(String(index)), textDelta(`${index}+`)])));
      expect(results.map((result) => result.lastOffset).sort((left, right) => left - right)).toEqual(
        Array.from({ length: 20 }, (_, index) => (index + 1) * 2),
      );
      const { events } = await runEvents().list('run-1');
      expect(events.map((stored) => stored.offset)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
      // Each append's events stay together.
      for (let index = 0; index < 40; index += 2) expect(texts([events[index + 1] as { event: RunEvent }])[0]).toBe(`${texts([events[index] as { event: RunEvent }])[0]}+`);
    });

    it('round-trips large payloads and awkward text', async () => {
      const large = 'x'.repeat(1024 * 1024) + '\n\u2028"\\';
      const awkward = 'emoji 🪨, NUL \u0000, lone surrogate \ud800, newline \n, CRLF \r\n';
      await runEvents().append('run-1', [textDelta(large), textDelta(awkward)]);
      const { events } = await runEvents().list('run-1');
      expect(texts(events)).toEqual([large, awkward]);
    });

    it('copies events in and out', async () => {
      const event = { kind: 'update', update: { type: 'todos-updated', todos: [{ id: '1', content: 'a', status: 'pending' }] } } as RunEvent;
      await runEvents().append('run-1', [event]);
      if (event.kind === 'update' && event.update.type === 'todos-updated') event.update.todos.push({ id: '2', content: 'b', status: 'pending' });
      const stored = (await runEvents().list('run-1')).events[0]?.event;
      expect(stored).toEqual({ kind: 'update', update: { type: 'todos-updated', todos: [{ id: '1', content: 'a', status: 'pending' }] } });
    });
  });
}
