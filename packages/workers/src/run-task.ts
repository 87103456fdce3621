import { type AgentStore, backgroundRunInfo, type QueuedRunOutcome, type RunGitInfo, type RunRecord } from '@cairn/core';
import type { CairnAgent } from '@cairn/core/node';
import type { JobHelpers, Task } from 'graphile-worker';
import type { Pool } from 'pg';
import { endQueuedRun } from './end-run.js';
import { finalizeGitWorkspace, GitWorkspaceError, type PreparedGitWorkspace, prepareGitWorkspace } from './git-workspace.js';
import { completeHeldJob, handBackJob } from './job-sql.js';
import { LeftAloneSignal, type WorkerLogger } from './logger.js';
import { type GraphileTables, parseRunJobPayload } from './queue-names.js';

/** What a worker's task needs from the agent it opens (a CairnAgent from `Agent.resume`). */
export type QueuedAgent = Pick<CairnAgent, 'executeQueuedRun' | 'close'>;

export type OpenAgent = (agentId: string, context: { cwd?: string }) => Promise<QueuedAgent>;

/** A run this worker executes now: `handBack` stops it for another worker (graceful stop). */
export interface HeldRun {
  runId: string;
  agentId: string;
  handBack: AbortController;
}

export interface TaskContext {
  pool: Pool;
  tables: GraphileTables;
  store: AgentStore;
  openAgent: OpenAgent;
  workDir: string;
  /** The lease owner a worker ends runs as when the run never reached the agent (a clone failed). */
  owner: string;
  held: Map<string, HeldRun>;
  /** Aborted by `stop()` once the grace period is over: every run still going is handed back. */
  stopping: AbortSignal;
  logger: WorkerLogger;
}

/** What a job's execution came to, beyond core's outcomes: the run was already over, or never reached the agent. */
type JobOutcome = QueuedRunOutcome | { kind: 'no-run' };

/**
 * The `cairn.run` task. graphile calls it with the job locked by this worker's pool; it opens the
 * agent (in a git clone when the run names one) and executes the run, then settles the job itself
 * with SQL that checks the pool still holds it (see job-sql.ts): ended runs complete it, handed-back
 * runs put it back without spending an attempt, a lost lease leaves it to whoever holds it now.
 * Failures (the agent is busy, opening it threw) throw, and graphile retries with backoff.
 */
export function runTaskHandler(ctx: TaskContext): Task {
  return async (payload, helpers) => {
    const { runId, agentId } = parseRunJobPayload(payload);
    const job = { id: helpers.job.id, poolId: lockHolder(helpers) };
    const handBack = new AbortController();
    const onStop = () => handBack.abort();
    if (ctx.stopping.aborted) handBack.abort();
    ctx.stopping.addEventListener('abort', onStop, { once: true });
    ctx.held.set(job.id, { runId, agentId, handBack });
    try {
      const outcome = await executeJob(ctx, runId, agentId, handBack.signal);
      await settleJob(ctx, job, runId, outcome);
    } finally {
      ctx.stopping.removeEventListener('abort', onStop);
      ctx.held.delete(job.id);
    }
  };
}

/** The pool that locked the job: graphile 0.17 locks jobs with the pool's id (`locked_by`), and hands the task the locked row. */
function lockHolder(helpers: JobHelpers): string {
  const lockedBy = helpers.job.locked_by;
  if (!lockedBy) throw new Error(`Job ${helpers.job.id} reached its task without a lock holder.`);
  return lockedBy;
}

async function executeJob(ctx: TaskContext, runId: string, agentId: string, handBack: AbortSignal): Promise<JobOutcome> {
  const record = await ctx.store.runs.get(runId);
  if (!record) return { kind: 'no-run' };
  if (record.status !== 'running') return { kind: 'already-ended', status: record.status };
  const info = backgroundRunInfo(record);
  let workspace: PreparedGitWorkspace | undefined;
  if (info?.workspace?.git) {
    try {
      workspace = await prepareGitWorkspace({ workDir: ctx.workDir, agentId, git: info.workspace.git, resume: (info.attempts ?? 0) > 0, signal: handBack });
    } catch (error) {
      if (handBack.aborted) return { kind: 'handed-back' };
      if (!(error instanceof GitWorkspaceError)) throw error;
      // The repository is unreachable, the ref does not exist: trying again will not help; the run says why.
      if (await endQueuedRun(ctx.store, ctx.owner, runId, 'error', { message: error.message, code: error.code })) return { kind: 'no-run' };
      throw error;
    }
  }
  const agent = await ctx.openAgent(agentId, workspace ? { cwd: workspace.cwd } : {});
  try {
    const finalize = workspace ? finalizer(workspace, record) : undefined;
    const outcome = await agent.executeQueuedRun(runId, { handBack, ...(finalize ? { finalize } : {}) });
    if (outcome.kind === 'handed-back' && workspace) await pushHandedBack(ctx, workspace, record);
    return outcome;
  } finally {
    // The outcome decides the job: a failing close must not turn an ended run into a retried one.
    await agent.close().catch((error: unknown) => ctx.logger.warn(`Closing agent ${agentId} after run ${runId} failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/** After the agent's work: commit and push its changes, so the branch is on the record before `wait()` returns. */
function finalizer(workspace: PreparedGitWorkspace, record: RunRecord) {
  return async (ended: { status: string }): Promise<{ git: RunGitInfo }> => {
    const note = ended.status === 'finished' ? undefined : `The run ended ${ended.status}.`;
    return { git: await finalizeGitWorkspace(workspace, { runId: record.runId, agentId: record.agentId, prompt: record.prompt, ...(note ? { note } : {}) }) };
  };
}

/** A handed-back run's changes so far are pushed, so the worker that resumes it (maybe on another machine) has its files. */
async function pushHandedBack(ctx: TaskContext, workspace: PreparedGitWorkspace, record: RunRecord): Promise<void> {
  try {
    await finalizeGitWorkspace(workspace, { runId: record.runId, agentId: record.agentId, prompt: record.prompt, note: 'Handed back to another worker before it finished.' });
  } catch (error) {
    ctx.logger.warn(`Run ${record.runId} was handed back, but its changes so far could not be pushed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function settleJob(ctx: TaskContext, job: { id: string; poolId: string }, runId: string, outcome: JobOutcome): Promise<void> {
  if (outcome.kind === 'lease-lost') {
    // Worth an operator's attention: this worker was paused or cut off past its lease.
    ctx.logger.warn(`Run ${runId}: this worker lost its lease (it was paused or cut off for longer than the lease lasts) and another worker took the run over; its late writes were refused and the job is left to that worker.`);
    throw new LeftAloneSignal(`Run ${runId}: another worker took it over; its job is left to that worker.`);
  }
  if (outcome.kind === 'handed-back') {
    if (await handBackJob(ctx.pool, ctx.tables, job.id, job.poolId)) return;
    throw new LeftAloneSignal(`Run ${runId} was handed back, and its job is already held by another worker.`);
  }
  if (outcome.kind === 'no-run') ctx.logger.debug?.(`Run ${runId} is not in the store or ended before it reached an agent; its job is done.`);
  // Returning after graphile's own completion would delete a job another worker relocked: complete it here, only if still ours.
  if (!(await completeHeldJob(ctx.pool, ctx.tables, job.id, job.poolId))) {
    throw new LeftAloneSignal(`Run ${runId} ended, and its job is already held by another worker.`);
  }
}
