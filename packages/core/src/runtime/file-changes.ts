import { relative } from 'node:path';
import type { CairnPlugin, WorkspaceFileChange } from '../spec/plugin/v1/index.js';
import type { AgentStore, FileChangeRecord, RunRecord } from '../spec/store/v1/index.js';
import type { FileChange } from '../spec/tool/v1/index.js';
import { storeBlob } from '../store/blob-hash.js';

/**
 * Record one file change of a run: before/after contents as blobs (for rewind and the artifacts of
 * agent-artifacts.ts), the entry on the run record, then the plugins that listen (indexes) are told.
 */
export async function recordRunFileChange(
  input: { store: AgentStore; plugins: readonly CairnPlugin[]; cwd: string; agentId: string },
  record: RunRecord,
  change: FileChange,
  toolCallId: string,
): Promise<RunRecord> {
  const put = (bytes: Uint8Array | null) => (bytes ? storeBlob(input.store.checkpoints, bytes) : Promise.resolve(null));
  const entry: FileChangeRecord = {
    path: relative(input.cwd, change.path).split('\\').join('/'),
    beforeHash: await put(change.before),
    afterHash: await put(change.after),
    // Kept so listing artifacts does not have to read every blob back.
    ...(change.after ? { afterSizeBytes: change.after.byteLength } : {}),
    toolCallId,
    at: Date.now(),
  };
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
