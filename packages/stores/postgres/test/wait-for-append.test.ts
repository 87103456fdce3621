import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { expect, it } from 'vitest';
import type { PostgresStore } from '../src/index.js';
import { describePostgres } from '../src/testing/index.js';
import { sql, storesOnFreshSchema, textDelta } from './helpers.js';

// Waits use long timeouts: a wait that is not woken fails the test by the test timeout (20 s),
// never by a speed assertion.
const long = { timeoutMs: 120_000 };

/** A wait's state without awaiting it. */
function track(wait: Promise<void>): { done: () => boolean; promise: Promise<void> } {
  let done = false;
  const promise = wait.then(() => {
    done = true;
  });
  return { done: () => done, promise };
}

describePostgres('postgres store: waitForAppend (LISTEN/NOTIFY)', (url) => {
  const stores = storesOnFreshSchema(url);
  const channel = () => `${stores.schema()}_run_events`;
  const listenerPids = async () =>
    (
      await sql<{ pid: number }>(
        url,
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'cairn-store-listener' AND datname = current_database() AND query = $1",
        [`LISTEN "${channel()}"`],
      )
    ).map((row) => row.pid);
  /** Resolves a wait registered with `afterOffset` 0 on an empty run: only a notification (or a reconnect) can. */
  const sendRawNotificationsUntil = async (done: () => boolean, payload: string) => {
    while (!done()) {
      await sql(url, 'SELECT pg_notify($1, $2)', [channel(), payload]);
      await sleep(50);
    }
  };

  it('an append in another store instance wakes the reader', async () => {
    const [reader, writer] = [await stores.open(), await stores.open()];
    await writer.runEvents.append('run-1', [textDelta('a')]);
    // Resolved by the check after registering (the log is past 0): the listener is up after it.
    await reader.runEvents.waitForAppend('run-1', 0, long);
    const wait = reader.runEvents.waitForAppend('run-1', 1, long);
    await writer.runEvents.append('run-1', [textDelta('b')]);
    await wait;
    expect((await reader.runEvents.list('run-1', { afterOffset: 1 })).events.map((stored) => stored.offset)).toEqual([2]);
  });

  it('an append notifies `<runId>:<lastOffset>` on the schema channel at commit', async () => {
    const writer = await stores.open();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const payloads: string[] = [];
    client.on('notification', (message) => payloads.push(`${message.channel} ${message.payload}`));
    await client.query(`LISTEN "${channel()}"`);
    await writer.runEvents.append('run:with:colons', [textDelta('a'), textDelta('b')]);
    await writer.runEvents.append('run:with:colons', []);
    await writer.runEvents.append('run:with:colons', [textDelta('c')]);
    while (payloads.length < 2) await sleep(20);
    await client.end();
    expect(payloads).toEqual([`${channel()} run:with:colons:2`, `${channel()} run:with:colons:3`]);
  });

  it('a notification alone wakes the waiter; one for another run, or not past afterOffset, does not', async () => {
    const reader = await stores.open();
    const wait = track(reader.runEvents.waitForAppend('run-1', 5, long));
    const other = track(reader.runEvents.waitForAppend('run-2', 0, long));
    await sendRawNotificationsUntil(other.done, 'run-2:1');
    // Notifications arrive in order on one connection: these were handled before run-2's last one.
    await sql(url, 'SELECT pg_notify($1, $2), pg_notify($1, $3)', [channel(), 'run-1:5', 'run-3:9']);
    await sendRawNotificationsUntil(track(reader.runEvents.waitForAppend('run-4', 0, long)).done, 'run-4:1');
    expect(wait.done()).toBe(false);
    await sendRawNotificationsUntil(wait.done, 'run-1:6');
  });

  it('resolves at once when the log is already past afterOffset (an append between the last list and the wait)', async () => {
    const [reader, writer] = [await stores.open(), await stores.open()];
    await writer.runEvents.append('run-1', [textDelta('a'), textDelta('b')]);
    await reader.runEvents.waitForAppend('run-1', 1, long);
  });

  it('resolves on timeout and on abort, never rejecting', async () => {
    const reader = await stores.open();
    await expect(reader.runEvents.waitForAppend('run-1', 0, { timeoutMs: 50 })).resolves.toBeUndefined();
    const controller = new AbortController();
    const wait = reader.runEvents.waitForAppend('run-1', 0, { ...long, signal: controller.signal });
    controller.abort();
    await expect(wait).resolves.toBeUndefined();
    await expect(reader.runEvents.waitForAppend('run-1', 0, { ...long, signal: AbortSignal.abort() })).resolves.toBeUndefined();
  });

  it('close resolves every pending wait', async () => {
    const reader = await stores.open();
    const waits = [reader.runEvents.waitForAppend('run-1', 0, long), reader.runEvents.waitForAppend('run-2', 3, long)];
    await reader.close();
    await Promise.all(waits);
    await reader.runEvents.waitForAppend('run-1', 0, long);
  });

  it('when the LISTEN connection is killed, it reconnects, wakes every waiter, and listens again', async () => {
    const reader: PostgresStore = await stores.open();
    await reader.runEvents.waitForAppend('run-0', 0, { timeoutMs: 10 });
    // Connected once the check of a wait ran: wait for the listener's session to show.
    let [pid] = await listenerPids();
    while (pid === undefined) [pid] = await listenerPids();
    const waits = ['run-1', 'run-2', 'run-3'].map((runId) => reader.runEvents.waitForAppend(runId, 0, long));
    await sql(url, 'SELECT pg_terminate_backend($1)', [pid]);
    // No append happened: only the reconnect's wake-up resolves these.
    await Promise.all(waits);
    const [newPid] = await listenerPids();
    expect(newPid).toBeDefined();
    expect(newPid).not.toBe(pid);
    // The new connection listens: a notification alone wakes a new waiter.
    const after = track(reader.runEvents.waitForAppend('run-5', 0, long));
    await sendRawNotificationsUntil(after.done, 'run-5:1');
  });
});
