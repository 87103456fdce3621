import type { AgentStore, ApprovalDecision, ApprovalRecord, ApprovalsStore } from '../spec/store/v1/index.js';
import { createMemoryApprovalsStore } from '../store/memory-approvals.js';

/** How often a waiting run looks for answers written by other processes into a shared store. */
export const approvalPollIntervalMs = 200;

/**
 * Where the approvals of one store's runs are kept and answered. The store's own `approvals` part
 * makes them durable and answerable from any process sharing the store; a store without it gets a
 * process-local one (answers then come from this process only). Answers written in this process
 * wake its waiting runs at once; answers of other processes are found by polling.
 */
export interface ApprovalChannel {
  readonly store: ApprovalsStore;
  /** Whether the approvals survive the process (the store has an `approvals` part). */
  readonly durable: boolean;
  /** Whether other processes may answer (then waiting runs poll the store): true for a durable part. */
  readonly shared: boolean;
  /** Answer a request; the first answer wins. Returns the record with the winning decision. */
  answer(runId: string, callId: string, decision: ApprovalDecision): Promise<ApprovalRecord | undefined>;
  /** Resolves at the next answer in this process for `runId`, after a poll interval on shared stores, or on abort. */
  nextAnswer(runId: string, signal: AbortSignal): Promise<void>;
}

const channels = new WeakMap<AgentStore, ApprovalChannel>();

export function approvalChannel(store: AgentStore): ApprovalChannel {
  let channel = channels.get(store);
  if (!channel) channels.set(store, (channel = createChannel(store)));
  return channel;
}

function createChannel(agentStore: AgentStore): ApprovalChannel {
  const store = agentStore.approvals ?? createMemoryApprovalsStore();
  const waiters = new Map<string, Set<() => void>>();
  const wake = (runId: string) => {
    for (const waiter of [...(waiters.get(runId) ?? [])]) waiter();
  };
  // A store's approvals part may be answered by other processes even when the rest of the store is
  // not shared (JSONL appends answers without its folder lock), so a durable part is always polled.
  const shared = agentStore.approvals !== undefined;
  return {
    store,
    durable: agentStore.approvals !== undefined,
    shared,
    async answer(runId, callId, decision) {
      const record = await store.decide(runId, callId, decision, Date.now());
      wake(runId);
      return record;
    },
    nextAnswer(runId, signal) {
      return new Promise((resolve) => {
        let set = waiters.get(runId);
        if (!set) waiters.set(runId, (set = new Set()));
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          set.delete(done);
          if (set.size === 0) waiters.delete(runId);
          resolve();
        };
        const timer = shared ? setTimeout(done, approvalPollIntervalMs) : undefined;
        signal.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
  };
}
