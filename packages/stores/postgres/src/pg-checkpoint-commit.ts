import { type AgentStore, calledOnOtherParts, commitCheckpointInParts } from '@cairn/core';
import { updateAgentRow } from './pg-agents.js';
import { checkBlobHashes, insertBlobs } from './pg-checkpoints.js';
import { type PgContext, transaction } from './sql.js';

type CommitCheckpoint = NonNullable<AgentStore['commitCheckpoint']>;
type Parts = Pick<AgentStore, 'agents' | 'checkpoints'>;

/**
 * `commitCheckpoint`: a checkpoint save's blobs and the agent row's move in one transaction
 * (fenced like agents.update). A missing agent, or a lost lease, rolls the blobs back too.
 */
export function createPgCheckpointCommit(ctx: PgContext, own: Parts): CommitCheckpoint {
  return async function commitCheckpoint(this: unknown, agentId, blobs, patch) {
    // A copy of the store with its agents or checkpoints swapped for another backend's must not
    // write here what is read there: it gets the two writes on its own parts.
    if (calledOnOtherParts(this, own)) return commitCheckpointInParts(this, agentId, blobs, patch);
    checkBlobHashes(blobs);
    return transaction(ctx.pool, async (client) => {
      // The agent row first: its fence check and row lock come before any blob is written.
      const updated = await updateAgentRow(client, ctx, agentId, patch);
      await insertBlobs(client, ctx, blobs);
      return updated;
    });
  };
}
