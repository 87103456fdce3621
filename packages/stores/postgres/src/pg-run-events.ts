import type { RunEvent, RunEventsStore } from '@cairn/core';
import type { AppendWaiters } from './append-waiters.js';
import { invalidArgumentError } from './errors.js';
import { fencedAgentOfRun, leaseLost } from './fenced-write.js';
import type { NotificationListener } from './pg-listener.js';
import type { PgContext } from './sql.js';

/** A NOTIFY payload holds at most 8000 bytes: a longer run id is announced as `*` (wake every reader). */
const maxNotifiedRunIdBytes = 7000;

/**
 * One append is one statement (one round trip, its own transaction). The upsert of the run's
 * `run_logs` row reserves the offsets and holds that row's lock until commit: a second appender
 * of the run waits, then continues from the committed last_offset. So offsets are dense, and their
 * order is commit order: a reader never sees offset n+1 before offset n has committed, and
 * `list(afterOffset)` can never skip an event that commits later. The NOTIFY is sent at commit.
 *
 * Fenced (this instance holds the agent's lease), the statement first locks the agent row FOR
 * SHARE where the fence is still ours: a takeover's UPDATE waits for the append to commit, and an
 * append after a takeover finds no such row, inserts nothing and returns no row.
 */
function appendSql(ctx: PgContext, fenced: boolean): string {
  const { agents, runLogs, runEvents } = ctx.tables;
  const fence = fenced ? `fence AS (SELECT 1 FROM ${agents} WHERE agent_id = $4 AND lease_fence = $5::bigint FOR SHARE), ` : '';
  return `WITH ${fence}log AS (
      INSERT INTO ${runLogs} AS l (run_id, last_offset) ${fenced ? 'SELECT $1, $2 FROM fence' : 'VALUES ($1, $2)'}
      ON CONFLICT (run_id) DO UPDATE SET last_offset = l.last_offset + excluded.last_offset
      RETURNING last_offset
    ), inserted AS (
      INSERT INTO ${runEvents} (run_id, "offset", event)
      SELECT $1, log.last_offset - $2 + e.n, e.event FROM log, unnest($3::text[]) WITH ORDINALITY AS e(event, n)
    )
    SELECT log.last_offset, pg_notify('${ctx.channel}', CASE WHEN octet_length($1) <= ${maxNotifiedRunIdBytes} THEN $1 || ':' || log.last_offset ELSE '*' END)
    FROM log`;
}

function checkListOptions(afterOffset: number, limit: number | undefined): void {
  if (!Number.isSafeInteger(afterOffset) || afterOffset < 0) throw invalidArgumentError(`Invalid afterOffset ${String(afterOffset)}: use 0 or a previous nextOffset.`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw invalidArgumentError(`Invalid event limit ${String(limit)}: use a positive integer.`);
}

export function createPgRunEventsStore(ctx: PgContext, waiters: AppendWaiters, listener: NotificationListener): Required<RunEventsStore> {
  const plain = appendSql(ctx, false);
  const fenced = appendSql(ctx, true);
  const lastOffsetSql = `SELECT last_offset FROM ${ctx.tables.runLogs} WHERE run_id = $1`;
  const lastOffsetOf = async (runId: string) => Number((await ctx.pool.query<{ last_offset: string }>(lastOffsetSql, [runId])).rows[0]?.last_offset ?? 0);

  return {
    async append(runId, events) {
      if (events.length === 0) return { lastOffset: await lastOffsetOf(runId) };
      // JSON.stringify escapes lone surrogates and NUL, so the text is valid UTF-8 without \0.
      const texts = events.map((event) => JSON.stringify(event));
      const agentId = await fencedAgentOfRun(ctx, runId);
      const held = agentId === undefined ? undefined : ctx.fences.get(agentId);
      if (agentId === undefined || held === undefined) {
        const { rows } = await ctx.pool.query<{ last_offset: string }>(plain, [runId, texts.length, texts]);
        return { lastOffset: Number(rows[0]?.last_offset) };
      }
      if (held.lost) leaseLost(ctx, agentId, held.fence);
      const { rows } = await ctx.pool.query<{ last_offset: string }>(fenced, [runId, texts.length, texts, agentId, held.fence]);
      if (rows[0] === undefined) leaseLost(ctx, agentId, held.fence);
      return { lastOffset: Number(rows[0].last_offset) };
    },

    async list(runId, options = {}) {
      const afterOffset = options.afterOffset ?? 0;
      checkListOptions(afterOffset, options.limit);
      const { rows } = await ctx.pool.query<{ offset: string; event: string }>(
        `SELECT "offset", event FROM ${ctx.tables.runEvents} WHERE run_id = $1 AND "offset" > $2 ORDER BY "offset" LIMIT $3`,
        [runId, afterOffset, options.limit ?? null],
      );
      const events = rows.map((row) => ({ offset: Number(row.offset), event: JSON.parse(row.event) as RunEvent }));
      return { events, nextOffset: events.at(-1)?.offset ?? afterOffset };
    },

    /**
     * Registers the waiter first, then (once LISTEN is active) reads the run's last offset once:
     * an append that committed between the reader's last list and this call wakes it at once, and
     * one committing after is announced to the waiter already registered. Never rejects.
     */
    async waitForAppend(runId, afterOffset, { timeoutMs, signal }) {
      if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw invalidArgumentError(`Invalid timeoutMs ${String(timeoutMs)}: use a non-negative number of milliseconds.`);
      const wait = waiters.add(runId, afterOffset, timeoutMs, signal);
      if (!wait.settled) {
        listener
          .ready()
          .then(() => (wait.settled ? afterOffset : lastOffsetOf(runId)))
          .then((last) => last > afterOffset && wait.resolve())
          // The database is unreachable: resolve, so the reader's next list reports the error.
          .catch(() => wait.resolve());
      }
      return wait.promise;
    },
  };
}
