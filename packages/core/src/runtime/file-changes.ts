import { relative } from 'node:path';
import type { CairnPlugin, WorkspaceFileChange } from '../spec/plugin/v1/index.js';
import type { AgentStore, RunRecord } from '../spec/store/v1/index.js';
import type { FileChange } from '../spec/tool/v1/index.js';
import { storeBlob } from '../store/blob-hash.js';

/**
 * Record one file change of a run: before/after contents as blobs (for rewind and artifacts), the
 * entry on the run record, then the plugins that listen (indexes) are told.
 */
export async function recordRunFileChange(
  input: { store: AgentStore; plugins: readonly CairnPlugin[]; cwd: string; agentId: string },
  record: RunRecord,
  change: FileChange,
  toolCallId: string,
): Promise<RunRecord> {
  const put = (bytes: Uint8Array | null) => (bytes ? storeBlob(input.store.checkpoints, bytes) : Promise.resolve(null));
  const entry = { path: relative(input.cwd, change.path).split('\\').join('/'), beforeHash: await put(change.before), afterHash: await put(change.after), toolCallId, at: Date.now() };
  const updated = await input.store.runs.update(record.runId, { fileChanges: [...(record.fileChanges ?? []), entry], updatedAt: Date.now() });
  await notifyFileChange(input.plugins, { cwd: input.cwd, path: change.path, deleted: change.after === null, agentId: input.agentId, runId: record.runId, toolCallId });
  return updated;
}

/** Tell plugins that listen (indexes, caches) about a changed file; a failing listener never fails the tool. */
async function notifyFileChange(plugins: readonly CairnPlugin[], change: WorkspaceFileChange): Promise<void> {
  await Promise.all(
    plugins.map(async (plugin) => {
      try {
        await plugin.onFileChange?.(change);
      } catch {
        // an index that cannot update is re-synced on its next search
      }
    }),
  );
}

export interface Artifact {
  path: string;
  runId: string;
  afterHash: string | null;
}

/** Files the agent changed (its newest 200 runs), newest change last, with their latest content hash. */
export async function listAgentArtifacts(store: AgentStore, agentId: string): Promise<Artifact[]> {
  const artifacts = new Map<string, Artifact>();
  const page = await store.runs.list(agentId, { limit: 200 });
  for (const run of [...page.items].reverse()) for (const change of run.fileChanges ?? []) artifacts.set(change.path, { path: change.path, runId: run.runId, afterHash: change.afterHash });
  return [...artifacts.values()];
}
