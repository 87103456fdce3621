import { assign, createActor, fromCallback, fromPromise } from 'xstate';
import { runMachine, toFailure } from '../machine/run-machine.js';
import type {
  ActOnToolCallsInput, AwaitApprovalsInput, CompactInput, PreparedStep, PrepareStepInput, RunMachineContext, RunMachineEvent, RunMachineOutput, SaveCheckpointInput, StopHookInput,
  StreamModelInput,
} from '../machine/run-machine-types.js';
import { runHooksOf } from '../hooks/run-hooks.js';
import { CairnError } from '../spec/errors/index.js';
import { runStopHooks } from '../hooks/stop-hooks.js';
import { turnToAssistantMessage } from '../machine/turn-to-message.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { RunRecord } from '../spec/store/v1/index.js';
import { compactIfNeeded, needsCompaction } from './compaction-step.js';
import { modeReminderText } from './mode-switch.js';
import { awaitApprovals } from './run-approvals.js';
import type { RunPlan } from './run-plan.js';
import { RunScope } from './run-scope.js';
import { streamStep } from './run-stream-step.js';
import { checkToolCalls, executeTools } from './run-tool-calls.js';
import { readEditedFiles, ruleReminderFor } from './rules-reminders.js';
import { assistantBlocks } from './sdk-messages.js';

export type { SDKMessageBody } from './run-publisher.js';

export type RunOutcome = RunMachineOutput;

/** Drive one run through the run machine, writing every update to the run's event log. */
export async function executeRun(plan: RunPlan): Promise<RunOutcome> {
  const scope = new RunScope(plan);
  const hooks = runHooksOf(plan.hooks);
  const machine = runMachine.provide({
    guards: { preparesInline: ({ context }) => !readsEditedFiles(scope.mode(context.mode)) },
    actions: { prepareInline: assign(({ context }) => prepareInline(scope, context)) },
    actors: {
      prepareStep: fromPromise(({ input, signal }: { input: PrepareStepInput; signal: AbortSignal }) => prepareStep(scope, input, signal)),
      compact: fromPromise(async ({ input, signal }: { input: CompactInput; signal: AbortSignal }) => {
        const compacted = await compact(scope, input, signal);
        await saveStep(plan, compacted.messages, input.mode, signal);
        return compacted;
      }),
      saveCheckpoint: fromPromise(({ input, signal }: { input: SaveCheckpointInput; signal: AbortSignal }) => saveStep(plan, input.messages, input.mode, signal)),
      streamModel: callbackActor<StreamModelInput>(
        (input, signal, send) => streamStep(scope, input, signal, send, input.saveCheckpoint ? () => saveStep(plan, input.messages, input.mode, signal) : undefined),
        'stream_failed',
      ),
      actOnToolCalls: callbackActor<ActOnToolCallsInput>((input, signal, send) => actOnToolCalls(plan, scope, input, signal, send), 'tool_execution_failed'),
      awaitApprovals: callbackActor<AwaitApprovalsInput>(
        (input, signal, send) => awaitApprovals({ agentId: plan.agentId, runId: plan.runId, runs: plan.store.runs, publisher: scope.publisher, settings: plan.approvals, checkedCall: (callId) => actor.getSnapshot().context.checked[callId] }, input, signal, send),
        'approval_failed',
      ),
      stopHook: fromPromise(({ input, signal }: { input: StopHookInput; signal: AbortSignal }) =>
        hooks ? runStopHooks(hooks, { agentId: plan.agentId, runId: plan.runId, cwd: plan.cwd }, input, signal, (text) => scope.publisher.deliver([scope.publisher.message({ type: 'status', status: 'RUNNING', mode: input.mode, message: text })])) : Promise.resolve({}),
      ),
    },
  });
  const actor = createActor(machine, {
    input: { messages: plan.messages, mode: plan.mode, maxSteps: plan.maxSteps, modes: scope.modes, state: plan.state, canApproveModeSwitch: plan.canApproveModeSwitch, ...(plan.resume ? { resume: plan.resume } : {}), ...(hooks?.has('stop') ? { stopHook: true } : {}) },
  });
  actor.on('updates', (event) => {
    void scope.publisher.deliver(event.updates.flatMap((update) => [{ kind: 'update' as const, update }, ...(update.type === 'mode-changed' ? [scope.publisher.message({ type: 'status', status: 'RUNNING', phase: 'mode-changed', mode: update.to, message: `${update.from} -> ${update.to}` })] : [])]));
    for (const update of event.updates) if (update.type === 'mode-changed') plan.onModeChanged?.(update.to);
  });
  const finished = new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve(), error: () => resolve() }));
  if (hooks?.has('notification')) notifyApprovalWaits(actor, (message, mode) => hooks.notification({ agentId: plan.agentId, runId: plan.runId, cwd: plan.cwd, mode, message, notificationType: 'permission_prompt' }, { signal: plan.signal }));
  const onAbort = () => actor.send({ type: 'cancel' });
  plan.signal.addEventListener('abort', onAbort, { once: true });
  actor.start();
  if (plan.signal.aborted) onAbort();
  await finished;
  plan.signal.removeEventListener('abort', onAbort);
  const snapshot = actor.getSnapshot();
  const output = snapshot.output ?? { status: 'error', messages: plan.messages, mode: plan.mode, result: '', error: { message: String(snapshot.error ?? 'The run failed.'), code: 'run_failed' } };
  scope.lifetime.abort(new Error('The run ended.'));
  await reportInterruptedTurn(scope, snapshot.context);
  await scope.publisher.flush().catch(() => undefined);
  scope.publisher.close();
  // Saves of stopped states may still be writing blobs: the final checkpoint waits for them.
  await plan.checkpointer.settled();
  return output;
}

/**
 * A checkpoint save inside the actor of the state that needs it. The actor's signal is enough: a
 * cancel of the run stops the state, and with it this save. The step's waiting events go with it
 * (one store transaction where the store has `commitStep`). A failure without a code of its own
 * ends the run with `checkpoint_failed`.
 */
async function saveStep(plan: RunPlan, messages: ModelMessage[], mode: string, signal: AbortSignal, runPatch?: Partial<RunRecord>): Promise<void> {
  try {
    await plan.checkpointer.save(messages, plan.state, mode, { signal, log: plan.log, ...(runPatch ? { runPatch } : {}) });
  } catch (error) {
    if (signal.aborted || typeof (error as { code?: unknown })?.code === 'string') throw error;
    throw new CairnError(`Saving the conversation checkpoint failed: ${error instanceof Error ? error.message : String(error)}`, { code: 'checkpoint_failed', cause: error });
  }
}

/**
 * The `actOnToolCalls` actor: a fresh turn's calls are saved (with the turn's usage on the run row
 * where the store commits steps; else finishTurn wrote it), checked, and run unless one needs an
 * approval, which is sent to the machine (`tools.checked`) instead; calls already checked (back from
 * an approval) are run. One actor for the three: each invoked actor costs the step a spawn, a start,
 * a stop and an event.
 */
async function actOnToolCalls(plan: RunPlan, scope: RunScope, input: ActOnToolCallsInput, signal: AbortSignal, send: (event: RunMachineEvent) => void): Promise<void> {
  let checked = input.checked;
  if (!input.decided) {
    const runPatch = input.usage && plan.checkpointer.commitsSteps ? { usage: input.usage, updatedAt: Date.now() } : undefined;
    if (input.save) await saveStep(plan, input.save, input.mode, signal, runPatch);
    const result = await checkToolCalls(scope, input, signal);
    if (result.approvals.length > 0) return send({ type: 'tools.checked', checked: result.checked, approvals: result.approvals });
    checked = result.checked;
  }
  await executeTools(scope, { ...input, checked }, signal, send);
}

/** Notification hooks: once each time the run starts waiting for a person's approval. */
function notifyApprovalWaits(actor: { subscribe(observer: (snapshot: { matches(state: object): boolean; context: RunMachineContext }) => void): unknown }, notify: (message: string, mode: string) => Promise<void>): void {
  let waiting = false;
  actor.subscribe((snapshot) => {
    const now = snapshot.matches({ awaitingApproval: 'waiting' });
    if (now && !waiting) void notify(`The agent needs your approval: ${snapshot.context.approvals.map((request) => request.reason).join('; ')}`, snapshot.context.mode).catch(() => undefined);
    waiting = now;
  });
}

/** A callback actor whose body is an async function: its failure (not a cancel) fails the run. */
function callbackActor<Input>(body: (input: Input, signal: AbortSignal, send: (event: RunMachineEvent) => void) => Promise<void>, code: string) {
  return fromCallback<RunMachineEvent, Input>(({ input, sendBack }) => {
    const controller = new AbortController();
    void body(input, controller.signal, sendBack).catch((error: unknown) => {
      if (!controller.signal.aborted) sendBack({ type: 'work.failed', error: toFailure(error, code) });
    });
    return () => controller.abort(new Error('The run left this state.'));
  });
}

/** A mode whose per-step reminder reads the run's edited files (debug mode) prepares in the prepareStep actor. */
const readsEditedFiles = (mode: ModeDefinition) => typeof mode.reminder === 'function';

/**
 * Before a model call: glob rules for files touched so far, the mode's per-step reminder (sent with
 * this request only, never stored, so it cannot pile up or shift the cached prefix), and whether the
 * request needs compacting first. Synchronous; `editedFiles` is what a file-reading reminder gets.
 */
function prepareMessages(scope: RunScope, input: PrepareStepInput, editedFiles: Awaited<ReturnType<typeof readEditedFiles>> = []): PreparedStep {
  const { plan } = scope;
  const mode = scope.mode(input.mode);
  const rules = ruleReminderFor(plan.rules ?? [], [...scope.touchedPaths], plan.state);
  const messages = rules ? [...input.messages, rules] : input.messages;
  // The transcript a command hook may read (written only when one runs).
  runHooksOf(plan.hooks)?.noteConversation(messages);
  const stepReminder = typeof mode.reminder === 'function' ? mode.reminder({ step: input.step + 1, toolCalls: [...scope.calledTools], state: plan.state, editedFiles }) || undefined : undefined;
  const compaction = plan.compaction;
  const needed = compaction !== undefined && needsCompaction({ messages, systemPrompt: plan.systemPrompt, tools: scope.toolsFor(mode.id).specs, meter: scope.meter, budget: compaction.budget });
  return { messages, needsCompaction: needed, ...(stepReminder ? { stepReminder } : {}) };
}

/** The `prepareInline` action: the step prepared in the machine's transition; a failure fails the run with `prepare_failed`. */
function prepareInline(scope: RunScope, context: RunMachineContext): Partial<RunMachineContext> {
  try {
    const prepared = prepareMessages(scope, { step: context.step, mode: context.mode, messages: context.messages });
    return { messages: prepared.messages, stepReminder: prepared.stepReminder, needsCompaction: prepared.needsCompaction };
  } catch (error) {
    return { error: toFailure(error, 'prepare_failed') };
  }
}

/** The `prepareStep` actor: the run's edited files read first, for the mode's reminder. */
async function prepareStep(scope: RunScope, input: PrepareStepInput, signal: AbortSignal): Promise<PreparedStep> {
  const editedFiles = await readEditedFiles(scope.plan.cwd, [...scope.editedPaths]);
  if (signal.aborted) throw signal.reason;
  return prepareMessages(scope, input, editedFiles);
}

async function compact(scope: RunScope, input: CompactInput, signal: AbortSignal) {
  const { plan, publisher } = scope;
  const compaction = plan.compaction;
  if (!compaction) return { messages: input.messages };
  const mode = scope.mode(input.mode);
  const compacted = await compactIfNeeded({
    agentId: plan.agentId,
    runId: plan.runId,
    mode: mode.id,
    messages: input.messages,
    state: plan.state,
    systemPrompt: plan.systemPrompt,
    tools: scope.toolsFor(mode.id).specs,
    meter: scope.meter,
    budget: compaction.budget,
    keepRecentTurns: compaction.keepRecentTurns,
    lowWaterShare: compaction.lowWaterShare,
    tailShare: compaction.tailShare,
    ...(plan.callParams ? { callParams: plan.callParams } : {}),
    model: plan.model.model,
    modeReminder: modeReminderText(mode),
    promptCacheKey: plan.promptCacheKey,
    ...(plan.hooks ? { hooks: plan.hooks } : {}),
    ...(plan.retry ? { retry: plan.retry } : {}),
    signal: AbortSignal.any([signal, plan.signal]),
    notify: async (event) => {
      if (event.status) await publisher.deliver([publisher.message({ type: 'status', status: 'RUNNING', phase: 'compacting', message: event.status, mode: mode.id })]);
      if (event.update) await publisher.deliver([{ kind: 'update', update: event.update }]);
    },
  });
  return { messages: compacted.messages };
}

/** A cancel mid-stream keeps the partial text: the stream is reported as an incomplete assistant message. */
async function reportInterruptedTurn(scope: RunScope, context: RunMachineContext): Promise<void> {
  if (context.status !== 'cancelled' || context.interruptedIn !== 'sampling') return;
  const partial = context.sink.current;
  const blocks = assistantBlocks({ ...partial, blocks: partial.blocks.filter((block) => block.kind !== 'tool-call') });
  if (!turnToAssistantMessage(partial, { includeToolCalls: false }) || blocks.length === 0) return;
  await scope.publisher.deliver([scope.publisher.message({ type: 'assistant', message: { role: 'assistant', content: blocks }, incomplete: true })]).catch(() => undefined);
}
