import { type AgentRecord, type AgentStore, type CheckpointBlob, calledOnOtherParts, commitCheckpointInParts } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { prepareAgentUpdate } from './sqlite-agents.js';
import { checkBlobHashes, prepareBlobInsert } from './sqlite-checkpoints.js';

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
