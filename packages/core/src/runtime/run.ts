import { ConfigurationError, UnsupportedRunOperationError } from '../spec/errors/index.js';
import type { ApprovalRecord } from '../spec/store/v1/index.js';
import { approvalChannel } from './approval-channel.js';
import type { RunOperation } from '../spec/errors/index.js';
import type { ConversationTurn, RunEvent, RunStatus, SDKMessage, TokenUsage } from '../spec/events/v1/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentStore, RunGitInfo, RunRecord, StoredRunEvent } from '../spec/store/v1/index.js';
import type { RunEventLog } from './run-event-log.js';
import { tailRunEvents } from './run-event-log.js';
import { acquireAgentLease, closeRun, interruptedError, leaseIsStale, newOwnerId } from './recovery.js';
import { backgroundRunInfo } from './background-run.js';
import { conversationFromEvents } from './sdk-messages.js';

export interface RunError {
  message: string;
  code?: string;
}

/** How a run ended, as `run.wait()` resolves it. */
export interface RunResult {
  id: string;
  /** The UUID of this send, the same as `run.requestId`. */
  requestId?: string;
  status: Exclude<RunStatus, 'running'>;
  /** The final assistant text. */
  result?: string;
  error?: RunError;
  /** The model the run used: the concrete id (the router's choice for `auto-smart`) with the params that reached it. */
  model?: ModelSelection;
  durationMs?: number;
  /** Summed over the turns that reported usage; undefined when none did. */
  usage?: TokenUsage;
  /** Cairn: the agent the run belongs to. */
  agentId?: string;
  /** The branches a background run on a git workspace pushed (docs/background-agents.md). */
  git?: RunGitInfo;
}

export type { RunOperation } from '../spec/errors/index.js';

/** How a Run of this process is controlled; absent for runs loaded from the store. */
export interface LiveRunControl {
  log: RunEventLog;
  cancel(): void;
  done: Promise<RunResult>;
}

const pollIntervalMs = 100;

/**
 * Live runs of this process by store and run id, so `Agent.getRun` of a run this process is
 * executing gets the live control (wake-ups instead of polling, an immediate cancel).
 */
const liveRuns = new WeakMap<AgentStore, Map<string, LiveRunControl>>();

function registerLive(store: AgentStore, runId: string, live: LiveRunControl): void {
  let runs = liveRuns.get(store);
  if (!runs) liveRuns.set(store, (runs = new Map()));
  runs.set(runId, live);
  const forget = () => runs.delete(runId);
  live.done.then(forget, forget);
}

/**
 * A run: live in this process, or loaded from a store (possibly written by another process).
 * `stream()` always replays the whole run from its first event, then follows it until it ends.
 */
export class Run {
  private record: RunRecord;
  private readonly listeners = new Set<(status: RunStatus) => void>();

  private readonly live: LiveRunControl | undefined;

  constructor(
    private readonly store: AgentStore,
    record: RunRecord,
    live?: LiveRunControl,
  ) {
    this.record = record;
    this.live = live ?? liveRuns.get(store)?.get(record.runId);
    if (live) registerLive(store, record.runId, live);
    else if (this.live) void this.live.done.then(() => this.refresh());
  }

  /** @internal The record as this object knows it. */
  currentRecord(): RunRecord {
    return this.record;
  }

  get id(): string {
    return this.record.runId;
  }
  get requestId(): string {
    return this.record.requestId;
  }
  get agentId(): string {
    return this.record.agentId;
  }
  get status(): RunStatus {
    return this.record.status;
  }
  get result(): string | undefined {
    return this.record.result;
  }
  get error(): RunError | undefined {
    return this.record.error;
  }
  /** The model this run uses: the concrete id with the selection's params; fixed once the run started. */
  get model(): ModelSelection {
    return modelOfRecord(this.record);
  }
  get mode(): string {
    return this.record.mode;
  }
  get durationMs(): number | undefined {
    return this.record.durationMs;
  }
  /** Cumulative over the turns that reported usage so far; undefined when none did. */
  get usage(): TokenUsage | undefined {
    return this.record.usage;
  }
  get createdAt(): number {
    return this.record.createdAt;
  }
  /** The branches a background run on a git workspace pushed; undefined for other runs. */
  get git(): RunGitInfo | undefined {
    return this.record.git;
  }

  /** @internal The runtime updates the live record as the run progresses. */
  updateRecord(record: RunRecord): void {
    const changed = record.status !== this.record.status;
    this.record = record;
    if (changed) for (const listener of [...this.listeners]) listener(record.status);
  }

  onDidChangeStatus(listener: (status: RunStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  supports(operation: RunOperation): boolean {
    return this.unsupportedReason(operation) === undefined;
  }

  unsupportedReason(operation: RunOperation): string | undefined {
    if (operation === 'cancel' && this.record.status !== 'running') return `the run has already ended (${this.record.status})`;
    return undefined;
  }

  async *stream(): AsyncGenerator<SDKMessage> {
    for await (const stored of this.events()) if (stored.kind === 'message') yield stored.message;
  }

  /** Every event of the run's log (messages and fine-grained updates), replayed then followed. */
  async *events(): AsyncGenerator<RunEvent> {
    for await (const stored of this.storedEvents()) yield stored.event;
  }

  /**
   * Cairn: the log's events with their store offsets (1, 2, ...), from after `afterOffset` (default
   * 0: the whole run), then followed until the run ends. What a server resumes a client's stream
   * from (`Last-Event-ID`): the offsets are the store's, the same in every process.
   */
  async *storedEvents(options: { afterOffset?: number } = {}): AsyncGenerator<StoredRunEvent> {
    const live = this.live;
    yield* tailRunEvents(this.store.runEvents, this.id, {
      ...(options.afterOffset === undefined ? {} : { afterOffset: options.afterOffset }),
      isDone: live ? () => this.record.status !== 'running' : async () => (await this.refreshOrSettle()) !== 'running',
      waitForMore: live ? () => live.log.waitForAppend(1_000) : (afterOffset) => this.waitForOtherProcess(afterOffset),
    });
  }

  /** A run executed by another process: woken by the store's notifications where it has them, else polled. */
  private waitForOtherProcess(afterOffset: number): Promise<void> {
    const notified = this.store.runEvents.waitForAppend;
    if (notified) return notified.call(this.store.runEvents, this.id, afterOffset, { timeoutMs: 1_000 });
    return new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }

  async wait(): Promise<RunResult> {
    if (this.live) return this.live.done;
    while ((await this.refreshOrSettle()) === 'running') await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    return this.toResult();
  }

  async cancel(): Promise<void> {
    if (this.record.status !== 'running') return;
    if (this.live) {
      this.live.cancel();
      await this.live.done;
      return;
    }
    // Another process owns the run: ask it through the store; its heartbeat sees the request and
    // ends the run. Resolves once the run ended; a run whose process is gone is closed here.
    const current = await this.store.runs.get(this.id);
    if (!current) throw new UnsupportedRunOperationError('cancel', `run ${this.id} is not in the store`);
    if (current.status !== 'running') return void this.updateRecord(current);
    this.updateRecord(await this.store.runs.update(this.id, { metadata: { ...(current.metadata ?? {}), cancelRequested: true } }));
    while ((await this.refreshOrSettle('cancelled')) === 'running') await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }

  /**
   * The requests this run waits on (a tool call under an `ask` rule, a mode switch, a plan), oldest
   * first. Works in any process sharing the store; a store without an `approvals` part only knows
   * the requests of runs in this process.
   */
  async pendingApprovals(): Promise<ApprovalRecord[]> {
    return approvalChannel(this.store).store.list({ runId: this.id, status: 'pending' });
  }

  /**
   * Answer a request of this run: `true` / `false`, or `{ approved, reason }` (the reason reaches the
   * model when denied). The first answer wins, from whichever process; the waiting run continues.
   * Returns the request with the decision that counts. `by` labels who answered (default `sdk`).
   */
  async approve(callId: string, decision: boolean | { approved: boolean; reason?: string; by?: string }): Promise<ApprovalRecord> {
    const answer = typeof decision === 'boolean' ? { approved: decision } : decision;
    if (typeof answer?.approved !== 'boolean') throw new ConfigurationError('run.approve(callId, decision) needs true, false or { approved: boolean, reason?: string }.');
    const channel = approvalChannel(this.store);
    const record = await channel.answer(this.id, callId, { by: 'sdk', ...answer });
    if (!record) {
      const open = (await this.pendingApprovals()).map((request) => request.callId);
      throw new ConfigurationError(`Run ${this.id} has no request for approval "${callId}". ${open.length ? `Open requests: ${open.join(', ')}.` : 'It waits on none.'}${channel.durable ? '' : ' (This store keeps approvals in the process that runs the agent only.)'}`);
    }
    return record;
  }

  async conversation(): Promise<ConversationTurn[]> {
    const events: RunEvent[] = [];
    let afterOffset = 0;
    for (;;) {
      const page = await this.store.runEvents.list(this.id, { afterOffset, limit: 1000 });
      events.push(...page.events.map((stored) => stored.event));
      if (page.events.length === 0) break;
      afterOffset = page.nextOffset;
    }
    return conversationFromEvents(events);
  }

  toResult(): RunResult {
    const record = this.record;
    return {
      id: record.runId,
      requestId: record.requestId,
      agentId: record.agentId,
      // A result is only read once the run ended; a record still running reads as an error.
      status: record.status === 'running' ? 'error' : record.status,
      ...(record.result === undefined ? {} : { result: record.result }),
      ...(record.error === undefined ? {} : { error: record.error }),
      ...(record.usage === undefined ? {} : { usage: record.usage }),
      ...(record.durationMs === undefined ? {} : { durationMs: record.durationMs }),
      ...(record.git === undefined ? {} : { git: record.git }),
      model: modelOfRecord(record),
    };
  }

  /**
   * Refresh, and close a run that can no longer end by itself: it is `running` but nobody holds
   * its agent's lease any more (the process died and the lease expired, or its process is gone).
   * A run that asked to be cancelled ends `cancelled`, any other `error` / `interrupted`.
   */
  private async refreshOrSettle(status: 'cancelled' | 'error' = 'error'): Promise<RunStatus> {
    if ((await this.refresh()) !== 'running') return this.record.status;
    if (backgroundRunInfo(this.record)) return this.settleQueuedCancel();
    const agent = await this.store.agents.get(this.agentId);
    const lease = agent?.lease;
    const abandoned = !agent || leaseIsStale(lease) || (this.record.owner !== undefined && lease?.owner !== this.record.owner);
    if (!abandoned) return 'running';
    const latest = await this.store.runs.get(this.id);
    if (!latest || latest.status !== 'running') return this.refresh();
    const cancelled = status === 'cancelled' || latest.metadata?.cancelRequested === true;
    this.updateRecord(await closeRun(this.store, latest, cancelled ? 'cancelled' : 'error', cancelled ? { message: 'The run was cancelled.', code: 'cancelled' } : interruptedError));
    return this.record.status;
  }

  /**
   * A background run belongs to its queue: after a worker dies another one resumes it, so a reader
   * never closes it as interrupted. Only a cancel asked while no process holds the agent ends it
   * here — under the agent's lease (taken for this run), so a worker starting it at the same moment
   * either holds the lease first (and ends it itself) or finds it ended.
   */
  private async settleQueuedCancel(): Promise<RunStatus> {
    if (this.record.metadata?.cancelRequested !== true) return 'running';
    const agent = await this.store.agents.get(this.agentId);
    if (agent?.lease && !leaseIsStale(agent.lease)) return 'running';
    const lease = { runId: this.id, owner: newOwnerId(), expiresAt: Date.now() + 30_000 };
    if (!(await acquireAgentLease(this.store, this.agentId, lease, false)).acquired) return 'running';
    try {
      const latest = await this.store.runs.get(this.id);
      if (latest?.status === 'running') this.updateRecord(await closeRun(this.store, latest, 'cancelled', { message: 'The run was cancelled before a worker ran it to the end.', code: 'cancelled' }));
      else if (latest) this.updateRecord(latest);
    } finally {
      await this.store.agents.releaseLease(this.agentId, this.id);
    }
    return this.record.status;
  }

  private async refresh(): Promise<RunStatus> {
    const latest = await this.store.runs.get(this.id);
    if (latest) this.updateRecord(latest);
    return this.record.status;
  }
}

function modelOfRecord(record: RunRecord): ModelSelection {
  return { id: record.model, ...(record.modelParams?.length ? { params: record.modelParams } : {}) };
}
