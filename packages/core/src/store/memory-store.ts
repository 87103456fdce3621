import type { ApprovalsStore } from '../spec/store/v1/approvals.js';
import type { AgentStore } from '../spec/store/v1/store.js';
import { assertBlobHash } from './blob-hash.js';
import { calledOnOtherParts, commitCheckpointInParts, commitStepInParts, stepCalledOnOtherParts } from './checkpoint-commit.js';
import { createMemoryAgentsStore, type MemoryAgents, updateAgent } from './memory-agents.js';
import { createMemoryApprovalsStore } from './memory-approvals.js';
import { createMemoryCheckpointStore, type MemoryBlobs, storeBlobs } from './memory-checkpoints.js';
import { appendRunEvents, createMemoryRunEventsStore, type MemoryRunLogs } from './memory-run-events.js';
import { createMemoryRunsStore, type MemoryRuns, updateRun } from './memory-runs.js';
import { notFoundError } from './store-errors.js';

type MemoryStore = AgentStore & { approvals: ApprovalsStore; commitCheckpoint: NonNullable<AgentStore['commitCheckpoint']>; commitStep: NonNullable<AgentStore['commitStep']> };

/**
 * A store that lives in this process only (`shared: false`): tests, ephemeral agents, browsers.
 * Records are deep-copied in and out, so a caller mutating what it passed or got back never
 * changes stored state — the same behaviour as a store that serialises.
 */
export function createMemoryStore(): MemoryStore {
  const agentRecords: MemoryAgents = new Map();
  const blobs: MemoryBlobs = new Map();
  const runLogs: MemoryRunLogs = new Map();
  const own = { agents: createMemoryAgentsStore(agentRecords), checkpoints: createMemoryCheckpointStore(blobs) };
  const runEvents = createMemoryRunEventsStore(runLogs);
  const runRecords: MemoryRuns = new Map();
  const runs = createMemoryRunsStore(runRecords);
  return {
    ...own,
    runs,
    runEvents,
    approvals: createMemoryApprovalsStore(),
    // Synchronous from the first check to the last write, so no other task sees half of it.
    async commitCheckpoint(agentId, entries, patch) {
      if (calledOnOtherParts(this, own)) return commitCheckpointInParts(this, agentId, entries, patch);
      for (const entry of entries) assertBlobHash(entry.hash);
      const updated = updateAgent(agentRecords, agentId, patch); // a missing agent throws before any blob is stored
      storeBlobs(blobs, entries);
      return updated;
    },
    async commitStep(step) {
      if (stepCalledOnOtherParts(this, { ...own, runEvents, runs })) return commitStepInParts(this, step);
      for (const entry of step.blobs) assertBlobHash(entry.hash);
      if (step.runPatch && !runRecords.has(step.runId)) throw notFoundError('run', step.runId);
      const agent = updateAgent(agentRecords, step.agentId, step.agentPatch);
      storeBlobs(blobs, step.blobs);
      const { lastOffset } = appendRunEvents(runLogs, step.runId, step.events);
      return step.runPatch ? { agent, lastOffset, run: updateRun(runRecords, step.runId, step.runPatch) } : { agent, lastOffset };
    },
    shared: false,
  };
}
