import type { AgentRecord, AgentStore } from '../spec/store/v1/index.js';
import type { CheckpointerOptions } from './conversation-checkpoint.js';

/**
 * How an agent's checkpoint saves reach its store. Each save moves the agent row's pointer
 * (`moveTo`) and reports the updated row (`saved`): in one transaction with the save's blobs where
 * the store has `commitCheckpoint`, else as the blob writes then `agents.update`; a save that takes
 * the run's waiting events writes them in that transaction too where the store has `commitStep`.
 */
export function checkpointWrites(store: AgentStore, agentId: string, moveTo: (root: string, mode: string) => Partial<Omit<AgentRecord, 'agentId'>>, saved: (record: AgentRecord) => void): CheckpointerOptions {
  const commitCheckpoint = store.commitCheckpoint?.bind(store);
  const commitStep = store.commitStep?.bind(store);
  const pointer: CheckpointerOptions = commitCheckpoint
    ? { commit: async (blobs, root, mode) => saved(await commitCheckpoint(agentId, blobs, moveTo(root, mode))) }
    : { onSave: async (root, mode) => saved(await store.agents.update(agentId, moveTo(root, mode))) };
  if (!commitStep) return pointer;
  return {
    ...pointer,
    commitStep: async (blobs, root, mode, run) => saved((await commitStep({ agentId, blobs, agentPatch: moveTo(root, mode), ...run })).agent),
  };
}
