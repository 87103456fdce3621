import { ConfigurationError } from '../spec/errors/index.js';
import type { RunEvent } from '../spec/events/v1/index.js';
import type { JSONObject } from '../spec/json.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { RunGitInfo, RunRecord } from '../spec/store/v1/index.js';
import type { RunResult } from './run.js';
import type { UserMessage } from './user-message.js';

/**
 * Where background runs go instead of running in the sending process: a job queue (for example
 * `createRunQueue` of `@cairn/workers`) whose workers, on any machine sharing the store, execute
 * them with `agent.executeQueuedRun(runId)`. docs/background-agents.md.
 */
export interface RunDispatcher {
  /** Queue the run; called after its record is in the store. Throwing ends the run `error`. */
  dispatch(run: { runId: string; agentId: string }): Promise<void>;
}

/** A git repository a background run works in instead of the agent's folder (cloned by the worker). */
export interface GitWorkspace {
  repoUrl: string;
  /** Where the agent's branch starts when it does not exist yet; default: the remote's HEAD. */
  ref?: string;
  /** The branch the run's changes are committed and pushed to; default `cairn/<agentId>`. */
  branch?: string;
}

/** What a worker needs to run a queued send: everything else comes from the stored agent. */
export interface QueuedSend {
  text: string;
  /** As the send gave them (JSON: base64 data or URLs), so the worker builds the same message. */
  images?: UserMessage['images'];
  mode?: string;
  model?: ModelSelection;
  approvePlan?: boolean;
  maxSteps?: number;
}

/** `metadata.background` of a queued run's record. */
export interface BackgroundRunInfo {
  queuedAt: number;
  send: QueuedSend;
  workspace?: { git: GitWorkspace };
  /** Set when a worker first started it: the conversation root the run started from. */
  startedAt?: number;
  /** How many times a worker started it. */
  attempts?: number;
}

/** How `executeQueuedRun` left the run, which tells the worker what to do with its job. */
export type QueuedRunOutcome =
  | { kind: 'ended'; result: RunResult }
  | { kind: 'already-ended'; status: Exclude<RunRecord['status'], 'running'> }
  /** Stopped by `handBack` at a step boundary's state: no final status; another worker resumes it. */
  | { kind: 'handed-back' }
  /** Another process took the run over (this one was paused past its lease): leave its job alone. */
  | { kind: 'lease-lost' };

export interface ExecuteQueuedRunOptions {
  /** Abort to stop the run as if this process had stopped: no final status, the lease released. */
  handBack?: AbortSignal;
  /**
   * Called once the agent's work ended, before the final status is written, so what it returns
   * (the branches a git workspace pushed) is on the record when `wait()` returns. Throwing ends
   * the run `error` with the thrown message.
   */
  finalize?: (ended: { status: Exclude<RunRecord['status'], 'running'> }) => Promise<{ git?: RunGitInfo } | undefined>;
}

export const backgroundKey = 'background';

/** The queue's bookkeeping of a background run, or undefined for a run executed where it was sent. */
export function backgroundRunInfo(record: Pick<RunRecord, 'metadata'>): BackgroundRunInfo | undefined {
  const value = record.metadata?.[backgroundKey] as Partial<BackgroundRunInfo> | undefined;
  if (!value || typeof value.queuedAt !== 'number' || typeof value.send?.text !== 'string') return undefined;
  return value as BackgroundRunInfo;
}

export function withBackgroundInfo(metadata: JSONObject | undefined, info: BackgroundRunInfo): JSONObject {
  return { ...(metadata ?? {}), [backgroundKey]: info as unknown as JSONObject };
}

/** Send options that only work in the sending process are refused for a background send. */
const processBound: Record<string, string> = {
  onDelta: 'onDelta runs in the sending process; read the run with run.stream() instead',
  onStep: 'onStep runs in the sending process; read the run with run.stream() instead',
  signal: 'a signal cannot reach the worker; call run.cancel() instead',
  mcpServers: 'inline MCP servers are never stored, so a worker cannot start them; configure them in the workspace (.cursor/mcp.json) or the worker',
};

export function assertBackgroundSend(options: Record<string, unknown>): void {
  for (const [name, why] of Object.entries(processBound)) {
    if (options[name] !== undefined) throw new ConfigurationError(`send: ${name} is not supported for a background agent: ${why}.`);
  }
  const local = options.local as { customTools?: unknown; force?: unknown } | undefined;
  if (local?.customTools !== undefined) throw new ConfigurationError('send: local.customTools is not supported for a background agent: tool code cannot travel to a worker; register the tools in the worker instead.');
  if (local?.force !== undefined) throw new ConfigurationError('send: local.force is not supported for a background agent: runs of one agent wait their turn in the queue; cancel the running one with run.cancel().');
}

export function assertGitWorkspace(workspace: unknown): asserts workspace is { git: GitWorkspace } {
  const git = (workspace as { git?: Partial<GitWorkspace> } | undefined)?.git;
  if (!git || typeof git.repoUrl !== 'string' || git.repoUrl.trim() === '') {
    throw new ConfigurationError('send: workspace must be { git: { repoUrl, ref?, branch? } } with the repository to clone.');
  }
  for (const key of ['ref', 'branch'] as const) {
    const value = git[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '' || value.startsWith('-'))) {
      throw new ConfigurationError(`send: workspace.git.${key} must be a git ref name (got ${JSON.stringify(value)}).`);
    }
  }
}

/** What a dead worker left in the run's log: the last step it completed and tool calls it never finished. */
export function interruptedWork(events: RunEvent[]): { step: number; unfinished: Array<{ callId: string; name: string; args: unknown }> } {
  let step = 0;
  const open = new Map<string, { callId: string; name: string; args: unknown }>();
  for (const event of events) {
    if (event.kind !== 'update') continue;
    const update = event.update;
    if (update.type === 'step-completed') step = Math.max(step, update.stepId);
    else if (update.type === 'tool-call-started') open.set(update.callId, { callId: update.callId, name: update.toolCall.name, args: update.toolCall.args });
    else if (update.type === 'tool-call-completed') open.delete(update.callId);
  }
  return { step, unfinished: [...open.values()] };
}

export const interruptedToolText = 'This tool call was interrupted (the process running the agent stopped) and did not complete. Check its effects before retrying it.';
