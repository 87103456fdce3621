import type { InteractionUpdate, RunEvent, SDKMessage } from '../spec/events/v1/index.js';
import type { RunEventLog } from './run-event-log.js';

/** An SDK message without the ids every message of the run carries. */
export type SDKMessageBody = SDKMessage extends infer M ? (M extends SDKMessage ? Omit<M, 'agent_id' | 'run_id'> : never) : never;

/** How far `onDelta` may fall behind the stream before the stream waits for it. */
const maxUnshown = 256;

/**
 * Where a run's updates and messages go: the run's event log (in order), and each update to the
 * caller's `onDelta`. Once the run ended (`close`), late writes of stopped actors are dropped:
 * nothing reaches the log after the run's final checkpoint.
 */
export class RunPublisher {
  private closed = false;
  // Tools emit synchronously; their updates are queued in order behind the run's own.
  private emitted: Promise<void> = Promise.resolve();
  /** Resolves once `onDelta` saw every update delivered so far. */
  private shown: Promise<void> = Promise.resolve();
  private unshown = 0;
  /** `onDelta` threw for a streamed update: the run fails with it at the next delivery. */
  private deltaFailure: { error: unknown } | undefined;

  constructor(
    private readonly ids: { agentId: string; runId: string },
    private readonly log: RunEventLog,
    private readonly onDelta?: (event: { update: InteractionUpdate }) => void | Promise<void>,
    /** True when the caller watches every update (`onDelta` of the send): streamed ones are written and shown at once. */
    private readonly watched = false,
  ) {}

  message(body: SDKMessageBody): RunEvent {
    return { kind: 'message', message: { ...body, agent_id: this.ids.agentId, run_id: this.ids.runId } as SDKMessage };
  }

  /** Write events and wait until they are in the log, then hand the updates to `onDelta` (after earlier ones). */
  async deliver(events: RunEvent[]): Promise<void> {
    if (this.closed || events.length === 0) return;
    const written = this.log.append(events);
    await this.caughtUp();
    await written;
    await this.notify(events);
  }

  /**
   * The many small updates of a streamed turn. Without a watching caller they are coalesced into few
   * writes, and the runtime's own observer sees each only once it is in the log (a crash never loses
   * an update anyone was shown), in order; the returned promise is set when the stream should wait
   * (`maxUnshown` behind). A watching caller gets them written and shown one by one, as `deliver`.
   */
  deliverSoon(events: RunEvent[]): Promise<void> | undefined {
    if (this.closed || events.length === 0) return undefined;
    if (!events.some((event) => event.kind === 'update')) return void this.log.enqueue(events);
    // A caller that watches every update gets each at once, and the stream waits for it (backpressure).
    if (this.watched) return this.deliver(events);
    const durable = this.log.enqueue(events);
    if (!this.onDelta) return undefined;
    this.unshown += events.length;
    this.shown = this.shown
      .then(() => durable.then(() => this.notify(events), () => undefined))
      .catch((error: unknown) => {
        this.deltaFailure ??= { error };
      })
      .finally(() => {
        this.unshown -= events.length;
      });
    return this.unshown > maxUnshown ? this.caughtUp() : undefined;
  }

  updates(updates: InteractionUpdate[]): Promise<void> {
    return this.deliver(updates.map((update) => ({ kind: 'update', update })));
  }

  /** For tools, which emit synchronously. */
  emitFromTool = (update: InteractionUpdate): void => {
    this.emitted = this.emitted.then(() => this.updates([update])).catch(() => undefined);
  };

  /** Resolves once every tool update so far is written. */
  async toolUpdatesWritten(): Promise<void> {
    await this.emitted;
  }

  /** Everything delivered so far is durable. */
  async flush(): Promise<void> {
    await this.emitted;
    await this.log.flush();
    await this.caughtUp();
  }

  /** Resolves once `onDelta` saw every earlier update; rejects with its failure if it threw. */
  private async caughtUp(): Promise<void> {
    await this.shown;
    if (this.deltaFailure) throw this.deltaFailure.error;
  }

  /** The run ended: later writes are dropped. */
  close(): void {
    this.closed = true;
  }

  private notify(events: RunEvent[]): Promise<void> | undefined {
    if (!this.onDelta) return undefined;
    let pending: Promise<void> | undefined;
    for (const event of events) {
      if (event.kind !== 'update') continue;
      pending = pending ? pending.then(() => this.onDelta?.({ update: event.update })) : toPromise(this.onDelta({ update: event.update }));
    }
    return pending;
  }
}

function toPromise(value: void | Promise<void>): Promise<void> | undefined {
  return value instanceof Promise ? value : undefined;
}
