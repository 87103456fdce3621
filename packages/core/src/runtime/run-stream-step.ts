import { toFailure } from '../machine/run-machine.js';
import type { RunMachineEvent, StreamModelInput } from '../machine/run-machine-types.js';
import { applyStreamPart, type TurnState, turnText, turnToolCalls } from '../machine/turn-state.js';
import { hasUsageFigures } from '../machine/turn-usage.js';
import { streamWithRetry } from '../model-call/stream-with-retry.js';
import type { RunEvent } from '../spec/events/v1/index.js';
import type { LanguageModelV1StreamPart } from '../spec/language-model/v1/index.js';
import { stepReminderMessage } from './rules-reminders.js';
import type { RunScope } from './run-scope.js';
import { assistantBlocks } from './sdk-messages.js';
import { addUsage, toTokenUsage } from './token-usage.js';
import { updatesForStreamPart } from './tool-call-updates.js';

/**
 * The body of the `streamModel` actor: one model call. The turn is reduced here, once, into the
 * machine's sink as parts arrive (a cancel keeps what came); the machine gets one event at the end.
 * `saveCheckpoint` saves the step's conversation while the request is in flight; the turn is
 * reported only once that save is done, and its failure fails the run.
 */
export async function streamStep(scope: RunScope, input: StreamModelInput, signal: AbortSignal, send: (event: RunMachineEvent) => void, saveCheckpoint?: () => Promise<void>): Promise<void> {
  const { plan, publisher } = scope;
  const reminder = input.stepReminder ? [stepReminderMessage(input.stepReminder)] : [];
  scope.stepStartedAt.set(input.step, Date.now());
  // Written with the step's first stream parts (one store write), not on its own.
  await publisher.deliverSoon([{ kind: 'update', update: { type: 'step-started', stepId: input.step, mode: input.mode } }]);
  const stream = streamWithRetry(
    plan.model.model,
    {
      prompt: [{ role: 'system', content: plan.systemPrompt }, ...input.messages, ...reminder],
      tools: scope.toolsFor(input.mode).specs,
      promptCacheKey: plan.promptCacheKey,
      ...(plan.callParams ? { params: plan.callParams } : {}),
      abortSignal: signal,
    },
    {
      signal,
      ...(plan.retry ? { policy: plan.retry } : {}),
      onRetry: ({ attempt, delayMs, error }) => {
        const reason = error instanceof Error ? error.message : String(error);
        return publisher.deliver([{ kind: 'update', update: { type: 'retry', attempt, delayMs: Math.round(delayMs), reason } }, publisher.message({ type: 'status', status: 'RUNNING', phase: 'retrying', message: reason })]);
      },
    },
  );
  let failure: ReturnType<typeof toFailure> | undefined;
  // Awaited before the first part is handled: none of the answer is written before the step's save.
  let stepSaved = saveCheckpoint && saveBesideRequest(saveCheckpoint);
  for await (const part of stream) {
    if (stepSaved) {
      await stepSaved();
      stepSaved = undefined;
    }
    const turn = applyStreamPart(input.sink.current, part);
    input.sink.current = turn;
    const events = updatesForStreamPart(part, turn, scope.toolIdOf);
    const pending = publisher.deliverSoon([...events, ...partMessages(scope, part, turn)]);
    if (pending) await pending;
    if (part.type === 'reasoning-end') await reportThinking(scope, part.id, turn);
    if (part.type === 'error') failure = toFailure(part.error, 'provider_error');
  }
  if (signal.aborted) return;
  await stepSaved?.();
  const turn = input.sink.current;
  await finishTurn(scope, input, turn, failure !== undefined);
  send(failure ? { type: 'model.failed', turn, error: failure } : { type: 'model.done', turn });
}

/**
 * The step's save, started once the current turn of the event loop is over (by then the model call
 * has built its request and handed it to the socket: the loop above started it), so its store write
 * overlaps the model's latency instead of delaying the request — or earlier, when the first part
 * of the answer comes first (a model that answers without I/O). Returns "start it if it has not
 * started, and wait for it". A save started on its own is handled here, so a cancel, which returns
 * without waiting for it, leaves no unhandled rejection.
 */
function saveBesideRequest(save: () => Promise<void>): () => Promise<void> {
  let started: Promise<void> | undefined;
  const start = () => (started ??= save());
  nextMacrotask(() => void start().catch(() => undefined));
  return start;
}

/** setImmediate where there is one (Node); a zero timeout elsewhere (core's root runs in browsers too). */
const nextMacrotask: (callback: () => void) => void = typeof globalThis.setImmediate === 'function' ? (callback) => void globalThis.setImmediate(callback) : (callback) => void setTimeout(callback, 0);

function partMessages(scope: RunScope, part: LanguageModelV1StreamPart, turn: TurnState): RunEvent[] {
  if (part.type === 'response-metadata' && part.requestId) return [scope.publisher.message({ type: 'request', request_id: part.requestId })];
  if (part.type !== 'reasoning-end') return [];
  const block = thinkingBlock(turn, part.id);
  if (!block) return [];
  const durationMs = block.endedAt ? block.endedAt - block.startedAt : undefined;
  return [scope.publisher.message({ type: 'thinking', text: block.text, ...(durationMs === undefined ? {} : { thinking_duration_ms: durationMs }) })];
}

async function reportThinking(scope: RunScope, id: string, turn: TurnState): Promise<void> {
  const block = thinkingBlock(turn, id);
  if (!block || !scope.plan.onStep) return;
  const durationMs = block.endedAt ? block.endedAt - block.startedAt : undefined;
  await scope.plan.onStep({ step: { type: 'thinkingMessage', message: { text: block.text, ...(durationMs === undefined ? {} : { thinkingDurationMs: durationMs }) } } });
}

function thinkingBlock(turn: TurnState, id: string) {
  const block = turn.blocks.find((candidate) => candidate.kind === 'reasoning' && candidate.id === id);
  return block?.kind === 'reasoning' && block.text ? block : undefined;
}

/** The turn's messages (assistant, usage), its end, and — for a turn without tool calls — the step's end. */
async function finishTurn(scope: RunScope, input: StreamModelInput, turn: TurnState, failed: boolean): Promise<void> {
  const { publisher, plan } = scope;
  const blocks = assistantBlocks(failed ? { ...turn, blocks: turn.blocks.filter((block) => block.kind !== 'tool-call') } : turn);
  // A turn without usage (some compatible servers send none) reports none: no zeros pretending to be counts.
  const usage = hasUsageFigures(turn.usage) ? toTokenUsage(turn.usage) : undefined;
  if (!failed && usage) scope.meter.recordRequest(input.messages, usage.inputTokens);
  // A turn with tool calls goes on to save them: its events are written with that checkpoint (one transaction).
  const callsTools = !failed && turnToolCalls(turn).length > 0;
  await (callsTools ? publisher.deliverSoon : publisher.deliver).call(publisher, [
    ...(blocks.length ? [publisher.message({ type: 'assistant', message: { role: 'assistant', content: blocks }, ...(failed ? { incomplete: true } : {}) })] : []),
    ...(usage ? [publisher.message({ type: 'usage', usage })] : []),
    { kind: 'update', update: { type: 'turn-ended', ...(usage ? { usage } : {}) } },
  ]);
  // The run's running total, in the store for readers of other processes: with the calls' checkpoint
  // where the store commits steps (the checkToolCalls actor), else here, once the turn's events are.
  if (usage && !(callsTools && plan.checkpointer.commitsSteps)) await plan.store.runs.update(plan.runId, { usage: addUsage(input.usage, usage), updatedAt: Date.now() });
  const text = turnText(turn);
  if (text) await plan.onStep?.({ step: { type: 'assistantMessage', message: { text } } });
  if (!failed && !callsTools) await completeStep(scope, input.step, turn);
}

/** The step's end; `soon`: written with the next checkpoint (the next step's), not on its own. */
export async function completeStep(scope: RunScope, step: number, turn: TurnState, soon = false): Promise<void> {
  const startedAt = scope.stepStartedAt.get(step) ?? Date.now();
  scope.stepStartedAt.delete(step);
  const { publisher } = scope;
  await (soon ? publisher.deliverSoon : publisher.deliver).call(publisher, [{ kind: 'update', update: { type: 'step-completed', stepId: step, stepDurationMs: Date.now() - startedAt, finishReason: turn.finishReason?.unified ?? 'other' } }]);
}
