import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
}

/**
 * Undo `toRunId` and every later run of the agent: files back to their content before those runs
 * (newest change first), the conversation back to the root it had before `toRunId`.
 */
export async function rewindAgent(store: AgentStore, agent: AgentRecord, toRunId: string): Promise<RewindReport> {
  const target = await store.runs.get(toRunId);
  if (!target || target.agentId !== agent.agentId) throw new ConfigurationError(`Run ${toRunId} is not a run of agent ${agent.agentId}.`);
  const runs: RunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.runs.list(agent.agentId, { limit: 100, ...(cursor ? { cursor } : {}) });
    runs.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  const undone = runs.filter((run) => run.createdAt > target.createdAt || run.runId === target.runId).sort((a, b) => b.createdAt - a.createdAt);
  const changes: FileChangeRecord[] = undone.flatMap((run) => [...(run.fileChanges ?? [])].reverse());
  const restored = new Set<string>();
  const conflicts: RewindReport['conflicts'] = [];
  const blocked = new Set<string>();
  for (const change of changes) {
    if (blocked.has(change.path)) continue;
    const absolute = join(agent.cwd, change.path);
    const current = await readFile(absolute).then((bytes) => hashBlob(new Uint8Array(bytes)), () => null);
    if (current !== change.afterHash) {
      conflicts.push({ path: change.path, reason: current === null ? 'deleted outside the agent' : 'changed outside the agent since' });
      blocked.add(change.path);
      continue;
    }
    if (change.beforeHash === null) {
      await rm(absolute, { force: true });
    } else {
      const bytes = await store.checkpoints.getBlob(change.beforeHash);
      if (!bytes) {
        conflicts.push({ path: change.path, reason: 'its earlier content is missing from the store' });
        blocked.add(change.path);
        continue;
      }
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, bytes);
    }
    restored.add(change.path);
  }
  await store.agents.update(agent.agentId, { checkpointRoot: target.checkpointBefore, updatedAt: Date.now() });
  return { restored: [...restored].filter((path) => !blocked.has(path)), conflicts, checkpointRoot: target.checkpointBefore };
}
