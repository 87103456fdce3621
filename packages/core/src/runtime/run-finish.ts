import type { AgentStore, RunGitInfo } from '../spec/store/v1/index.js';
import type { ExecuteQueuedRunOptions } from './background-run.js';
import type { RunBook } from './agent-run-plan.js';
import type { ApprovalChannel } from './approval-channel.js';
import type { ConversationCheckpointer } from './conversation-checkpoint.js';
import { awaitingApprovalKey } from './run-approvals.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunOutcome } from './run-executor.js';
import { runMessage } from './run-start-events.js';
import type { Run, RunResult } from './run.js';
import { sdkStatusOf } from './status-message.js';
import { type SubagentUsage, subagentUsageMetadata } from './subagent-usage.js';

export interface FinishingRun {
  store: AgentStore;
  run: Run;
  book: RunBook;
  log: RunEventLog;
  outcome: RunOutcome;
  /** Tokens of the run's subagents by model (already in `outcome.usage`), kept for pricing. */
  subagentUsage?: SubagentUsage[];
  state: Record<string, unknown>;
  checkpointer: ConversationCheckpointer;
  started: number;
  approvals: ApprovalChannel;
  /** A background run's last word before its final status (a git workspace's push): background-run.ts. */
  finalize?: ExecuteQueuedRunOptions['finalize'];
}

/**
 * End a run: the final checkpoint (after every save of the run settled, so nothing moves the
 * agent's pointer after it) and `moveAgent` to it, open approvals denied, the final status event,
 * then the record. In that order a reader that sees the record ended finds the final event too.
 */
/** The outcome after `finalize` (a failing one ends the run `error` with its message), and what it reported. */
async function finalized(finishing: FinishingRun): Promise<{ outcome: RunOutcome; git?: RunGitInfo }> {
  const { outcome, finalize } = finishing;
  if (!finalize) return { outcome };
  try {
    const reported = await finalize({ status: outcome.status });
    return { outcome, ...(reported?.git ? { git: reported.git } : {}) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { outcome: { ...outcome, status: 'error', error: { message, code: (error as { code?: string })?.code ?? 'finalize_failed' } } };
  }
}

export async function finishRun(finishing: FinishingRun, moveAgent: (root: string) => Promise<void>): Promise<RunResult> {
  const { store, run, book, log } = finishing;
  await finishing.checkpointer.settled();
  const { outcome, git } = await finalized(finishing);
  const root = await finishing.checkpointer.save(outcome.messages, finishing.state, outcome.mode);
  await moveAgent(root);
  for (const record of await finishing.approvals.store.list({ runId: run.id, status: 'pending' })) {
    await finishing.approvals.answer(run.id, record.callId, { approved: false, reason: 'the run ended before it was answered', by: 'run-ended' });
  }
  await log.append([runMessage(run.agentId, run.id)({ type: 'status', status: sdkStatusOf(outcome.status), ...(outcome.error ? { error: outcome.error, message: outcome.error.message } : {}) })]);
  await book.fileChanges;
  const finishedAt = Date.now();
  const { [awaitingApprovalKey]: _waited, ...metadata } = (await store.runs.get(run.id))?.metadata ?? {};
  book.record = await store.runs.update(run.id, {
    status: outcome.status,
    result: outcome.result,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.usage ? { usage: outcome.usage } : {}),
    finishedAt,
    updatedAt: finishedAt,
    durationMs: finishedAt - finishing.started,
    checkpointAfter: root,
    mode: outcome.mode,
    metadata: { ...metadata, ...subagentUsageMetadata(finishing.subagentUsage ?? []) },
    ...(book.record.fileChanges ? { fileChanges: book.record.fileChanges } : {}),
    ...(git ? { git } : {}),
  });
  run.updateRecord(book.record);
  log.wakeAll();
  return run.toResult();
}
