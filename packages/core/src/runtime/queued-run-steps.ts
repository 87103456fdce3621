import { LeaseLostError } from '../spec/errors/index.js';
import type { RunEvent } from '../spec/events/v1/index.js';
import type { RunEventsStore } from '../spec/store/v1/index.js';
import { type ExecuteQueuedRunOptions, interruptedToolText, interruptedWork, type QueuedRunOutcome } from './background-run.js';
import { runMessage } from './run-start-events.js';

/** How a worker's execution of a queued run differs from a send's (agent.ts). */
export interface RunControl extends ExecuteQueuedRunOptions {
  /** The run's opening events are in the log already (a stopped worker wrote them). */
  openingLogged?: boolean;
}

/** Thrown past the run's end when `handBack` stopped it; executeQueuedRun turns it into 'handed-back'. */
export const handedBack: unique symbol = Symbol('cairn.run.handed-back');

/** The worker's view of an execution: a takeover by another process is 'lease-lost', never an error. */
export async function queuedRunOutcome(execution: Promise<QueuedRunOutcome>): Promise<QueuedRunOutcome> {
  try {
    return await execution;
  } catch (error) {
    if (LeaseLostError.isInstance(error) || LeaseLostError.isInstance((error as { cause?: unknown })?.cause)) return { kind: 'lease-lost' };
    throw error;
  }
}

/** The status message a resumed run says first: readers (and UIs) see where the stopped worker's part ends. */
export function resumedNotice(agentId: string, runId: string, attempt: number): RunEvent {
  return runMessage(agentId, runId)({
    type: 'status',
    status: 'RUNNING',
    phase: 'resumed',
    message: `The worker running this run stopped; another one resumes it from its last complete step (attempt ${attempt}).`,
  });
}

/**
 * The events that close what the stopped worker left open in the log: each tool call it started and
 * never finished ends with the same aborted result the conversation repair gives the model. Also
 * the number of the last step it completed, where the resumed run counts on from.
 */
export async function unfinishedToolEvents(store: RunEventsStore, runId: string, agentId: string): Promise<{ events: RunEvent[]; step: number }> {
  const logged: RunEvent[] = [];
  for (let afterOffset = 0; ; ) {
    const page = await store.list(runId, { afterOffset, limit: 1000 });
    if (page.events.length === 0) break;
    for (const stored of page.events) logged.push(stored.event);
    afterOffset = page.nextOffset;
  }
  const { step, unfinished } = interruptedWork(logged);
  const message = runMessage(agentId, runId);
  const events = unfinished.flatMap((call): RunEvent[] => {
    const toolCall = { type: call.name, name: call.name, callId: call.callId, args: call.args, status: 'error' as const, result: interruptedToolText, isError: true };
    return [
      { kind: 'update', update: { type: 'tool-call-completed', callId: call.callId, modelCallId: call.callId, toolCall } },
      message({ type: 'tool_call', call_id: call.callId, name: call.name, status: 'error', args: call.args, result: interruptedToolText }),
    ];
  });
  return { events, step };
}
