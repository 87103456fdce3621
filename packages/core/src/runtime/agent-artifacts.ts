import { isAbsolute, posix, relative } from 'node:path';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentStore, FileChangeRecord } from '../spec/store/v1/index.js';
import { allRunsOf } from './agent-runs.js';

/** A file the agent wrote, as the reference SDK describes it. */
export interface SDKArtifact {
  /** Relative to the agent's cwd, with `/` separators. */
  path: string;
  sizeBytes: number;
  /** When the agent last wrote it, ISO 8601. */
  updatedAt: string;
}

/**
 * The latest change of every path the agent's tools changed, oldest first. Runs undone by a
 * rewind are left out: their changes were reverted on disk.
 */
async function latestChanges(store: AgentStore, agentId: string): Promise<Map<string, FileChangeRecord>> {
  const latest = new Map<string, FileChangeRecord>();
  const runs = (await allRunsOf(store, agentId)).reverse();
  for (const run of runs) {
    if (run.metadata?.rewound === true) continue;
    for (const change of run.fileChanges ?? []) {
      // Delete first so the map's order is the order of each path's latest change.
      latest.delete(change.path);
      latest.set(change.path, change);
    }
  }
  return latest;
}

/**
 * The files the agent wrote and did not delete afterwards, least recently written first. The
 * content is the agent's own last write (kept in the store), so a later edit by someone else does
 * not change what is listed or downloaded.
 */
export async function listAgentArtifacts(store: AgentStore, agentId: string): Promise<SDKArtifact[]> {
  const artifacts: SDKArtifact[] = [];
  for (const change of (await latestChanges(store, agentId)).values()) {
    if (change.afterHash === null) continue;
    // Records written before sizes were kept: the blob itself tells.
    const sizeBytes = change.afterSizeBytes ?? (await store.checkpoints.getBlob(change.afterHash))?.byteLength;
    if (sizeBytes === undefined) continue;
    artifacts.push({ path: change.path, sizeBytes, updatedAt: new Date(change.at).toISOString() });
  }
  return artifacts;
}

/** The bytes of one artifact, by the path `listAgentArtifacts` gave (or the same file as `./x` or an absolute path). */
export async function readAgentArtifact(store: AgentStore, agent: { agentId: string; cwd: string }, path: string): Promise<Buffer> {
  if (typeof path !== 'string' || path.trim() === '') throw new ConfigurationError('downloadArtifact(path) needs the path of an artifact, as listArtifacts() gives it.');
  const wanted = artifactKey(agent.cwd, path);
  const change = (await latestChanges(store, agent.agentId)).get(wanted);
  if (!change || change.afterHash === null) {
    throw new ConfigurationError(`No artifact ${path}: the agent did not write it, or deleted it afterwards. listArtifacts() lists the files it wrote.`);
  }
  const bytes = await store.checkpoints.getBlob(change.afterHash);
  if (!bytes) throw new ConfigurationError(`The content of ${path} is missing from the store (its blob ${change.afterHash} is gone).`);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The key artifacts are recorded under: cwd-relative, `/` separators, normalised. */
function artifactKey(cwd: string, path: string): string {
  const relativePath = isAbsolute(path) ? relative(cwd, path) : path;
  return posix.normalize(relativePath.split('\\').join('/')).replace(/^\.\//, '');
}
