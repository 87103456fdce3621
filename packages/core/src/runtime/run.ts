import { UnsupportedRunOperationError } from '../spec/errors/index.js';
import type { ConversationTurn, RunEvent, RunStatus, SDKMessage, TokenUsage } from '../spec/events/v1/index.js';
import type { AgentStore, RunRecord } from '../spec/store/v1/index.js';
import type { RunEventLog } from './run-event-log.js';
import { tailRunEvents } from './run-event-log.js';
import { conversationFromEvents } from './sdk-messages.js';
import { emptyUsage } from './token-usage.js';

export interface RunResult {
  id: string;
  agentId: string;
  status: RunStatus;
  /** The final assistant text. */
  result?: string;
  error?: { message: string; code: string };
  usage: TokenUsage;
  durationMs?: number;
  model: string;
}

export type RunOperation = 'stream' | 'wait' | 'cancel' | 'conversation';

/** How a Run of this process is controlled; absent for runs loaded from the store. */
export interface LiveRunControl {
  log: RunEventLog;
  cancel(): void;
  done: Promise<RunResult>;
}

const pollIntervalMs = 100;

/**
 * A run: live in this process, or loaded from a store (possibly written by another process).
 * `stream()` always replays the whole run from its first event, then follows it until it ends.
 */
export class Run {
  private record: RunRecord;
  private readonly listeners = new Set<(status: RunStatus) => void>();

  constructor(
    private readonly store: AgentStore,
    record: RunRecord,
    private readonly live?: LiveRunControl,
  ) {
    this.record = record;
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
  get error(): { message: string; code: string } | undefined {
    return this.record.error;
  }
  get model(): string {
    return this.record.model;
  }
  get mode(): string {
    return this.record.mode;
  }
  get durationMs(): number | undefined {
    return this.record.durationMs;
  }
  get usage(): TokenUsage {
    return this.record.usage ?? emptyUsage();
  }
  get createdAt(): number {
    return this.record.createdAt;
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
    const live = this.live;
    const source = tailRunEvents(this.store.runEvents, this.id, {
      isDone: live ? () => this.record.status !== 'running' : async () => (await this.refresh()) !== 'running',
      waitForMore: live ? () => live.log.waitForAppend(1_000) : () => new Promise((resolve) => setTimeout(resolve, pollIntervalMs)),
    });
    for await (const stored of source) yield stored.event;
  }

  async wait(): Promise<RunResult> {
    if (this.live) return this.live.done;
    while ((await this.refresh()) === 'running') await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    return this.toResult();
  }

  async cancel(): Promise<void> {
    if (this.record.status !== 'running') return;
    if (this.live) {
      this.live.cancel();
      await this.live.done;
      return;
    }
    // Another process owns the run: ask it through the store; its heartbeat sees the request.
    const current = await this.store.runs.get(this.id);
    if (!current) throw new UnsupportedRunOperationError('cancel', `run ${this.id} is not in the store`);
    await this.store.runs.update(this.id, { metadata: { ...(current.metadata ?? {}), cancelRequested: true } });
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
      agentId: record.agentId,
      status: record.status,
      ...(record.result === undefined ? {} : { result: record.result }),
      ...(record.error === undefined ? {} : { error: record.error }),
      usage: record.usage ?? emptyUsage(),
      ...(record.durationMs === undefined ? {} : { durationMs: record.durationMs }),
      model: record.model,
    };
  }

  private async refresh(): Promise<RunStatus> {
    const latest = await this.store.runs.get(this.id);
    if (latest) this.updateRecord(latest);
    return this.record.status;
  }
}
