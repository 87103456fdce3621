import type { EventSourceMessage } from 'eventsource-parser';
import type { InteractionUpdate, RunEnd, SDKMessage } from '../wire-types.js';
import { CairnApiError } from './api-error.js';
import { Backoff, sleep } from './backoff.js';
import { type HttpOptions, segment, send } from './http.js';
import { readSseBody } from './sse-reader.js';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** One event of a run's log, with its store offset (the SSE `id:`). */
export type RunStreamEvent = { kind: 'message'; offset: number; message: SDKMessage } | { kind: 'update'; offset: number; update: InteractionUpdate };

export interface StreamRunOptions {
  /** Replay only events after this offset (0, the default: the whole log). */
  after?: number;
  /** Abort to stop following; the run itself goes on (only cancel ends it). */
  signal?: AbortSignal;
  onEvent: (event: RunStreamEvent) => void;
  /** The run ended: its final status and `Run`. Not called when the signal stopped the stream. */
  onEnd?: (end: RunEnd) => void;
  onConnection?: (state: ConnectionState) => void;
  /** No byte for this long (the server pings every 15 s) counts as a dead connection. Default 45 s. */
  idleTimeoutMs?: number;
  /** Reconnect delays; default 250 ms doubling to 4 s. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Follow `GET /v1/runs/{id}/events` until `event: end`. fetch + a body reader rather than
 * EventSource, which cannot send the Authorization header. The last `id:` seen is the resume point:
 * a dropped connection reconnects with `Last-Event-ID`, so no event is missed, and an event at or
 * before it is never delivered twice. Resolves with the end payload, or undefined when aborted;
 * rejects on an answer retrying cannot fix (401, 404, ...).
 */
export async function streamRunEvents(http: HttpOptions, runId: string, options: StreamRunOptions): Promise<RunEnd | undefined> {
  const { signal, onConnection = () => undefined } = options;
  const backoff = new Backoff(options.minDelayMs, options.maxDelayMs);
  const cursor = { last: options.after ?? 0 };
  onConnection('connecting');
  while (!signal?.aborted) {
    try {
      const end = await followOnce(http, runId, cursor, options, backoff);
      if (end) {
        onConnection('closed');
        options.onEnd?.(end);
        return end;
      }
    } catch (error) {
      if (signal?.aborted) break;
      if (!retryable(error)) {
        onConnection('closed');
        throw error;
      }
    }
    if (signal?.aborted) break;
    onConnection('reconnecting');
    await sleep(backoff.take(), signal);
  }
  onConnection('closed');
  return undefined;
}

/** One connection: events after `cursor.last` until the body ends (undefined) or `end` comes. */
async function followOnce(http: HttpOptions, runId: string, cursor: { last: number }, options: StreamRunOptions, backoff: Backoff): Promise<RunEnd | undefined> {
  const connection = new AbortController();
  const stopConnection = () => connection.abort();
  options.signal?.addEventListener('abort', stopConnection, { once: true });
  const watchdog = idleWatchdog(options.idleTimeoutMs ?? 45_000, stopConnection);
  watchdog.touch();
  try {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (cursor.last > 0) headers['last-event-id'] = String(cursor.last);
    const response = await send(http, 'GET', `/v1/runs/${segment(runId)}/events`, undefined, { signal: connection.signal, headers, cache: 'no-store' });
    if (!response.body) throw new CairnApiError(0, 'network_error', 'The event stream has no body.');
    options.onConnection?.('open');
    let end: RunEnd | undefined;
    const onMessage = (message: EventSourceMessage) => {
      if (message.event === 'end') {
        end = parseJson<RunEnd>(message.data);
        return end ? 'stop' : undefined;
      }
      deliver(message, cursor, options.onEvent, backoff);
      return undefined;
    };
    await readSseBody(response.body, onMessage, watchdog.touch).catch((error: unknown) => {
      // A watchdog or caller abort ends the read; the loop decides whether to reconnect.
      if (!connection.signal.aborted) throw error;
    });
    return end;
  } finally {
    watchdog.stop();
    options.signal?.removeEventListener('abort', stopConnection);
  }
}

/** Hand one `message`/`update` to the caller, once: offsets at or before the cursor were delivered already. */
function deliver(message: EventSourceMessage, cursor: { last: number }, onEvent: StreamRunOptions['onEvent'], backoff: Backoff): void {
  const offset = Number(message.id);
  // Every log event carries its offset; one without could not be resumed after, so it is not trusted.
  if (!Number.isSafeInteger(offset) || offset <= cursor.last) return;
  const data = parseJson<unknown>(message.data);
  cursor.last = offset;
  backoff.reset();
  if (data === undefined) return;
  const event: RunStreamEvent | undefined =
    message.event === 'message' ? { kind: 'message', offset, message: data as SDKMessage } : message.event === 'update' ? { kind: 'update', offset, update: data as InteractionUpdate } : undefined;
  if (!event) return;
  try {
    onEvent(event);
  } catch (error) {
    // The caller's bug must not look like a dropped connection (and replay events): report it apart.
    queueMicrotask(() => {
      throw error;
    });
  }
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** 4xx answers mean the request itself is wrong (token, unknown run); retrying repeats them. */
function retryable(error: unknown): boolean {
  if (!(error instanceof CairnApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

function idleWatchdog(timeoutMs: number, onIdle: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => clearTimeout(timer);
  const touch = () => {
    stop();
    timer = setTimeout(onIdle, timeoutMs);
  };
  return { touch, stop };
}
