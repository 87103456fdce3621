import type { ApprovalsStore } from '../spec/store/v1/approvals.js';
import type { AgentStore, AgentsStore, CheckpointStore, RunEventsStore, RunsStore } from '../spec/store/v1/store.js';

export interface ComposeStoreParts {
  agents: AgentsStore;
  checkpoints: CheckpointStore;
  runs: RunsStore;
  runEvents: RunEventsStore;
  /** Pending and answered approvals; passed through when given (without it approvals stay in the running process). */
  approvals?: ApprovalsStore;
  /** Whether other processes may share the composed store; default false. Only true when every part is. */
  shared?: boolean;
  /** Stores whose `close()` runs when the composed store closes (each once, even if it backs several parts). */
  closes?: AgentStore[];
}

/**
 * One AgentStore from four parts (and optional approvals) that may come from different backends,
 * e.g. agents and runs in SQLite with checkpoint blobs elsewhere.
 */
export function composeStore(parts: ComposeStoreParts): AgentStore {
  const closeTargets = [...new Set(parts.closes ?? [])];
  return {
    agents: parts.agents,
    checkpoints: parts.checkpoints,
    runs: parts.runs,
    runEvents: parts.runEvents,
    ...(parts.approvals !== undefined ? { approvals: parts.approvals } : {}),
    shared: parts.shared ?? false,
    async close() {
      const failures: unknown[] = [];
      for (const store of closeTargets) {
        try {
          await store.close?.();
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new AggregateError(failures, 'Closing the composed store failed');
    },
  };
}
