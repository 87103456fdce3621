import type { AgentRecord, AgentStore, CheckpointBlob, CheckpointStore, StepCommit, StepCommitResult } from '../spec/store/v1/store.js';

type Parts = Pick<AgentStore, 'agents' | 'checkpoints'>;

/** Every blob in one call where the store batches (one transaction), else one by one in order. */
export async function putCheckpointBlobs(store: CheckpointStore, blobs: ReadonlyArray<CheckpointBlob>): Promise<void> {
  if (store.putBlobs) {
    await store.putBlobs(blobs);
    return;
  }
  // Content-addressed: a put of a hash the store has is a no-op, so no read before the write.
  for (const blob of blobs) await store.putBlob(blob.hash, blob.data);
}

/**
 * Whether a store's `commitCheckpoint` was called on a copy of the store whose agents or
 * checkpoints are another backend's (`{ ...store, checkpoints: elsewhere }`): it must not write
 * here what is read there.
 */
export function calledOnOtherParts(caller: unknown, own: Parts): caller is Parts {
  const parts = caller as Partial<Parts> | undefined;
  return parts?.agents !== undefined && parts.checkpoints !== undefined && (parts.agents !== own.agents || parts.checkpoints !== own.checkpoints);
}

/** The blobs, then the pointer that names them: a checkpoint save on a store without `commitCheckpoint`. */
export async function commitCheckpointInParts(parts: Parts, agentId: string, blobs: ReadonlyArray<CheckpointBlob>, patch: Partial<Omit<AgentRecord, 'agentId'>>): Promise<AgentRecord> {
  await putCheckpointBlobs(parts.checkpoints, blobs);
  return parts.agents.update(agentId, patch);
}

type StepParts = Pick<AgentStore, 'agents' | 'checkpoints' | 'runEvents' | 'runs' | 'commitCheckpoint'>;

/** As `calledOnOtherParts`, for `commitStep`, which writes the run's events and row too. */
export function stepCalledOnOtherParts(caller: unknown, own: Pick<AgentStore, 'agents' | 'checkpoints' | 'runEvents' | 'runs'>): caller is StepParts {
  const parts = caller as Partial<StepParts> | undefined;
  return calledOnOtherParts(caller, own) || (parts?.runEvents !== undefined && parts.runEvents !== own.runEvents) || (parts?.runs !== undefined && parts.runs !== own.runs);
}

/**
 * A step's writes on a store without `commitStep`: the events first, then the checkpoint (as one
 * `commitCheckpoint` where the store has it), then the run row. A crash between them leaves events
 * the conversation does not have yet, never a checkpoint whose step the log lacks, as when they
 * were separate writes.
 */
export async function commitStepInParts(parts: StepParts, step: StepCommit): Promise<StepCommitResult> {
  const { lastOffset } = await parts.runEvents.append(step.runId, [...step.events]);
  const agent = parts.commitCheckpoint ? await parts.commitCheckpoint(step.agentId, step.blobs, step.agentPatch) : await commitCheckpointInParts(parts, step.agentId, step.blobs, step.agentPatch);
  if (!step.runPatch) return { agent, lastOffset };
  return { agent, lastOffset, run: await parts.runs.update(step.runId, step.runPatch) };
}
