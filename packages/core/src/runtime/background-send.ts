import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { AgentStore, RunRecord } from '../spec/store/v1/index.js';
import type { SendOptions } from './agent-options.js';
import { assertBackgroundSend, assertGitWorkspace, type QueuedSend, type RunDispatcher, withBackgroundInfo } from './background-run.js';
import { closeRun } from './recovery.js';
import { Run } from './run.js';
import type { UserMessage } from './user-message.js';

/** What a background agent's send needs to queue a run. */
export interface QueuedRunOrder {
  store: AgentStore;
  dispatcher: RunDispatcher;
  runId: string;
  agentId: string;
  /** The conversation root the run starts from, as far as the sender knows (the worker fixes it at start). */
  checkpointRoot: string | null;
  /** The concrete model and the selection the run uses; `override` when the send named one (sticky). */
  model: { id: string; selection: ModelSelection; override?: ModelSelection };
  runMode: string;
  message: UserMessage;
  options: SendOptions;
}

/**
 * A send of a background agent: the run's record (with what a worker needs to run it) goes into the
 * store and the run into the dispatcher's queue; the returned Run follows it through the store.
 */
export async function queueRun(order: QueuedRunOrder): Promise<Run> {
  const { options, message, store } = order;
  assertBackgroundSend(options as Record<string, unknown>);
  if (options.workspace !== undefined) assertGitWorkspace(options.workspace);
  const send: QueuedSend = {
    text: message.text,
    ...(message.images?.length ? { images: message.images } : {}),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(order.model.override ? { model: order.model.override } : {}),
    ...(options.approvePlan !== undefined ? { approvePlan: options.approvePlan } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
  };
  const now = Date.now();
  const params = order.model.selection.params;
  const record: RunRecord = {
    runId: order.runId, agentId: order.agentId, requestId: globalThis.crypto.randomUUID(), status: 'running', mode: order.runMode, model: order.model.id,
    ...(params ? { modelParams: params } : {}),
    prompt: message.text, createdAt: now, updatedAt: now, checkpointBefore: order.checkpointRoot,
    metadata: withBackgroundInfo(undefined, { queuedAt: now, send, ...(options.workspace ? { workspace: options.workspace } : {}) }),
  };
  await store.runs.create(record);
  try {
    await order.dispatcher.dispatch({ runId: order.runId, agentId: order.agentId });
  } catch (error) {
    await closeRun(store, record, 'error', { message: `The run could not be queued: ${error instanceof Error ? error.message : String(error)}`, code: 'dispatch_failed' });
    throw error;
  }
  return new Run(store, record);
}
