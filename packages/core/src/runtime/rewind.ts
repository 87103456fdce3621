import { mkdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isInsideRoot, resolveWorkspacePath } from '../node/workspace-path.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentRecord, AgentStore, FileChangeRecord, RunRecord } from '../spec/store/v1/index.js';
import { hashBlob } from '../store/blob-hash.js';

export interface RewindReport {
  /** Files restored to their content before the run. */
  restored: string[];
  /** Files changed outside the agent's tools since: left as they are. */
  conflicts: Array<{ path: string; reason: string }>;
  /** The conversation root the agent now points to. */
  checkpointRoot: string | null;
  /** The runs undone (`toRunId` and every later one not undone before), newest first. */
  undoneRuns: string[];
}

/**
 * Undo `toRunId` and every later run of the agent: files back to their content before those runs
 * (newest change first), the conversation back to the root it had before `toRunId`.
 *
 * A file is only written when its current content is exactly what the agent's tool left (its
 * after-hash); otherwise it was changed outside the agent and is reported, not overwritten, and
 * older changes of that path are skipped too. Undone runs are marked (`metadata.rewound`), so a
 * later rewind to an earlier run does not undo them twice. A file the run created is removed, and so
 * are the folders that removal leaves empty (up to the workspace root).
 */
export async function rewindAgent(store: AgentStore, agent: AgentRecord, toRunId: string): Promise<RewindReport> {
  const target = await store.runs.get(toRunId);
  if (!target || target.agentId !== agent.agentId) throw new ConfigurationError(`Run ${toRunId} is not a run of agent ${agent.agentId}.`);
  if (target.status === 'running') throw new ConfigurationError(`Run ${toRunId} is still running; cancel it (or wait for it) before rewinding.`);
  const runs: RunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.runs.list(agent.agentId, { limit: 100, ...(cursor ? { cursor } : {}) });
    runs.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  const later = (run: RunRecord) => run.runId === target.runId || run.createdAt > target.createdAt || (run.createdAt === target.createdAt && run.runId > target.runId);
  const undone = runs.filter((run) => later(run) && run.metadata?.rewound !== true).sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1));
  const running = undone.find((run) => run.status === 'running');
  if (running) throw new ConfigurationError(`Run ${running.runId} of this agent is still running; cancel it before rewinding.`);
  const changes: FileChangeRecord[] = undone.flatMap((run) => [...(run.fileChanges ?? [])].reverse());
  const restored = new Set<string>();
  const conflicts: RewindReport['conflicts'] = [];
  const blocked = new Set<string>();
  const block = (path: string, reason: string) => {
    conflicts.push({ path, reason });
    blocked.add(path);
    restored.delete(path);
  };
  for (const change of changes) {
    if (blocked.has(change.path)) continue;
    // Confined like a tool's path: a symlink planted since cannot redirect the write outside.
    const absolute = await resolveWorkspacePath(agent.cwd, change.path).then((resolved) => resolved.absolute, () => undefined);
    if (!absolute) {
      block(change.path, 'it now resolves outside the workspace');
      continue;
    }
    const current = await readFile(absolute).then((bytes) => hashBlob(new Uint8Array(bytes)), () => null);
    if (current !== change.afterHash) {
      block(change.path, current === null ? 'deleted outside the agent since' : 'changed outside the agent since');
      continue;
    }
    if (change.beforeHash === null) {
      await rm(absolute, { force: true });
      await removeEmptyParents(agent.cwd, dirname(absolute));
    } else {
      const bytes = await store.checkpoints.getBlob(change.beforeHash);
      if (!bytes) {
        block(change.path, 'its earlier content is missing from the store');
        continue;
      }
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, bytes);
    }
    restored.add(change.path);
  }
  const now = Date.now();
  for (const run of undone) await store.runs.update(run.runId, { metadata: { ...(run.metadata ?? {}), rewound: true, rewoundAt: now }, updatedAt: now });
  await store.agents.update(agent.agentId, { checkpointRoot: target.checkpointBefore, updatedAt: now });
  return { restored: [...restored], conflicts, checkpointRoot: target.checkpointBefore, undoneRuns: undone.map((run) => run.runId) };
}

async function removeEmptyParents(root: string, folder: string): Promise<void> {
  for (let current = folder; current !== root && isInsideRoot(root, current); current = dirname(current)) {
    // rmdir only removes an empty folder; anything else (not empty, gone) ends the walk.
    if (!(await rmdir(current).then(() => true, () => false))) return;
  }
}
