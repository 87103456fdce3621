import type { ApprovalsStore } from '../spec/store/v1/approvals.js';
import type { AgentStore } from '../spec/store/v1/store.js';
import { createMemoryAgentsStore } from './memory-agents.js';
import { createMemoryApprovalsStore } from './memory-approvals.js';
import { createMemoryCheckpointStore } from './memory-checkpoints.js';
import { createMemoryRunEventsStore } from './memory-run-events.js';
import { createMemoryRunsStore } from './memory-runs.js';

/**
 * A store that lives in this process only (`shared: false`): tests, ephemeral agents, browsers.
 * Records are deep-copied in and out, so a caller mutating what it passed or got back never
 * changes stored state — the same behaviour as a store that serialises.
 */
export function createMemoryStore(): AgentStore & { approvals: ApprovalsStore } {
  return {
    agents: createMemoryAgentsStore(),
    checkpoints: createMemoryCheckpointStore(),
    runs: createMemoryRunsStore(),
    runEvents: createMemoryRunEventsStore(),
    approvals: createMemoryApprovalsStore(),
    shared: false,
  };
}
