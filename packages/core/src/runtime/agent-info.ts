import type { RunStatus } from '../spec/events/v1/index.js';
import type { JSONObject } from '../spec/json.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentLease, AgentRecord, AgentStore, RunRecord } from '../spec/store/v1/index.js';
import { allRunsOf } from './agent-runs.js';

/**
 * What `Agent.list()` and `Agent.get()` return: the reference SDK's local agent info, plus Cairn's
 * own fields of the agent row (model, mode, lease...) after it.
 */
export interface SDKAgentInfo {
  agentId: string;
  /** The agent's name, else the first line of its first prompt, else "Untitled agent". */
  name: string;
  /** The latest run's result, else its prompt, on one line and shortened; empty before the first run. */
  summary: string;
  /** Epoch ms of the last change to the agent or its latest run. */
  lastModified: number;
  /**
   * The latest run's status: `running`, `finished` or `error`. A cancelled latest run counts as
   * `finished` (the agent is idle and usable; `latestRunStatus` says `cancelled`), and a run still
   * recorded as running whose agent holds no live lease was left by a process that died: `error`.
   * Absent before the first run.
   */
  status?: 'running' | 'finished' | 'error';
  createdAt: number;
  archived: boolean;
  runtime: 'local';
  cwd: string;
  /** Cairn: the latest run's own status, `cancelled` included. */
  latestRunStatus?: RunStatus;
  /** Cairn: the latest run's id. */
  latestRunId?: string;
  /** Cairn: the model of the next send. */
  model: ModelSelection;
  /** Cairn: the conversation's current mode. */
  mode: string;
  /** Cairn: when the agent row last changed (epoch ms). */
  updatedAt: number;
  /** Cairn: the newest conversation checkpoint root; null before the first run. */
  checkpointRoot: string | null;
  /** Cairn: which run and process hold the agent, until when; null when idle. */
  lease: AgentLease | null;
  /** Cairn: free-form metadata of the agent row. */
  metadata?: JSONObject;
}

const untitled = 'Untitled agent';
const nameLength = 60;
const summaryLength = 200;

/** The info of one stored agent: its row plus what its runs tell (status, summary, name fallback). */
export async function toAgentInfo(store: AgentStore, record: AgentRecord, now = Date.now()): Promise<SDKAgentInfo> {
  const latest = (await store.runs.list(record.agentId, { limit: 1 })).items[0];
  const { name, agentId, createdAt, archived, cwd, model, mode, updatedAt, checkpointRoot, lease, metadata } = record;
  const status = latest ? agentStatus(latest, lease, now) : undefined;
  return {
    agentId,
    name: name?.trim() ? name : await nameFromFirstPrompt(store, record.agentId, latest),
    summary: latest ? oneLine(latest.result?.trim() ? latest.result : latest.prompt, summaryLength) : '',
    lastModified: Math.max(updatedAt, latest?.updatedAt ?? 0),
    ...(status ? { status } : {}),
    createdAt,
    archived,
    runtime: 'local',
    cwd,
    ...(latest ? { latestRunStatus: latest.status, latestRunId: latest.runId } : {}),
    model,
    mode,
    updatedAt,
    checkpointRoot,
    lease,
    ...(metadata ? { metadata } : {}),
  };
}

function agentStatus(latest: RunRecord, lease: AgentLease | null, now: number): SDKAgentInfo['status'] {
  if (latest.status === 'running') return lease && lease.expiresAt > now ? 'running' : 'error';
  return latest.status === 'error' ? 'error' : 'finished';
}

async function nameFromFirstPrompt(store: AgentStore, agentId: string, latest: RunRecord | undefined): Promise<string> {
  if (!latest) return untitled;
  // Only unnamed agents pay for reading every run: the first prompt is on the oldest one.
  const first = (await allRunsOf(store, agentId)).at(-1) ?? latest;
  const firstLine = first.prompt.split('\n').find((line) => line.trim()) ?? '';
  return firstLine.trim() ? oneLine(firstLine, nameLength) : untitled;
}

/** Whitespace collapsed to single spaces, cut at a word boundary when longer than `max`, with an ellipsis. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
