import { type AgentRecord, type AgentStore, type CheckpointBlob, type RunRecord, calledOnOtherParts, commitCheckpointInParts, commitStepInParts, stepCalledOnOtherParts } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { prepareAgentUpdate } from './sqlite-agents.js';
import { checkBlobHashes, prepareBlobInsert } from './sqlite-checkpoints.js';
import { prepareEventAppend, serialiseEvents } from './sqlite-run-events.js';
import { prepareRunUpdate } from './sqlite-runs.js';

type CommitCheckpoint = NonNullable<AgentStore['commitCheckpoint']>;
type Parts = Pick<AgentStore, 'agents' | 'checkpoints'>;

/**
 * `commitCheckpoint`: a checkpoint save's blobs and the agent row's move in one IMMEDIATE
 * transaction, so a step costs one commit instead of two. A missing agent rolls the blobs back.
 */
export function createSqliteCheckpointCommit(database: Database.Database, path: string, own: Parts): CommitCheckpoint {
  const insertBlobs = prepareBlobInsert(database);
  const updateAgent = prepareAgentUpdate(database);
  const commit = database
    .transaction((agentId: string, blobs: ReadonlyArray<CheckpointBlob>, patch: Partial<AgentRecord>) => {
      insertBlobs(blobs);
      return updateAgent(agentId, patch);
    })
    .immediate.bind(null);

  return function commitCheckpoint(this: unknown, agentId, blobs, patch) {
    // A copy of the store with its agents or checkpoints swapped for another backend's must not
    // write here what is read there: it gets the two writes on its own parts.
    if (calledOnOtherParts(this, own)) return commitCheckpointInParts(this, agentId, blobs, patch);
    try {
      checkBlobHashes(blobs);
    } catch (error) {
      return Promise.reject(error);
    }
    return withBusyRetry(path, () => commit(agentId, blobs, patch));
  };
}

type CommitStep = NonNullable<AgentStore['commitStep']>;

/**
 * `commitStep`: a checkpoint save, the run's waiting events and the run row's patch in one
 * IMMEDIATE transaction (the blobs, the agent row, the events, offsets taken under the write lock
 * like an append's, then the run row). A missing agent or run, or a full log, rolls all of it back.
 */
export function createSqliteStepCommit(database: Database.Database, path: string, own: Pick<AgentStore, 'agents' | 'checkpoints' | 'runEvents' | 'runs'>): CommitStep {
  const insertBlobs = prepareBlobInsert(database);
  const updateAgent = prepareAgentUpdate(database);
  const appendEvents = prepareEventAppend(database, path);
  const updateRun = prepareRunUpdate(database);
  const commit = database
    .transaction((agentId: string, blobs: ReadonlyArray<CheckpointBlob>, patch: Partial<AgentRecord>, runId: string, events: string[], runPatch: Partial<RunRecord> | undefined) => {
      insertBlobs(blobs);
      const agent = updateAgent(agentId, patch);
      const { lastOffset } = appendEvents(runId, events);
      return runPatch ? { agent, lastOffset, run: updateRun(runId, runPatch) } : { agent, lastOffset };
    })
    .immediate.bind(null);

  return function commitStep(this: unknown, step) {
    if (stepCalledOnOtherParts(this, own)) return commitStepInParts(this, step);
    let events: string[];
    try {
      checkBlobHashes(step.blobs);
      events = serialiseEvents(step.events);
    } catch (error) {
      return Promise.reject(error);
    }
    return withBusyRetry(path, () => commit(step.agentId, step.blobs, step.agentPatch, step.runId, events, step.runPatch));
  };
}
