import { assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { addUsage, emptyUsage, toTokenUsage } from '../runtime/token-usage.js';
import { applyModeSwitch, declinedSwitchNote, type ModeSwitchPlan, planModeSwitch } from '../runtime/mode-switch.js';
import { deniedCall } from '../runtime/checked-tool-call.js';
import { hasUsageFigures } from './turn-usage.js';
import { interruptedConversation } from './interrupted-turn.js';
import type {
  ActOnToolCallsInput, AwaitApprovalsInput, CompactInput, PreparedStep, PrepareStepInput, RunFailure, RunMachineContext,
  RunMachineEmitted, RunMachineEvent, RunMachineInput, RunMachineOutput, RunMachineStateName, SaveCheckpointInput, StopHookInput, StopHookOutput, StreamModelInput,
} from './run-machine-types.js';
import { emptyTurn, type TurnState, turnText, turnToolCalls } from './turn-state.js';
import { turnToAssistantMessage } from './turn-to-message.js';
import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';

export type * from './run-machine-types.js';

/** How many steps in a row of only invalid tool calls end the run with a clear error. */
export const maxInvalidToolSteps = 3;

const notProvided = (name: string) => () => {
  throw new Error(`${name} must be provided by the runtime (runMachine.provide)`);
};

type SwitchEvent = Extract<RunMachineEvent, { type: 'mode.switch' }>;
const judgeSwitch = (context: RunMachineContext, event: SwitchEvent): ModeSwitchPlan =>
  planModeSwitch({ to: event.to, explanation: event.explanation }, { mode: context.mode, state: context.state, resolveMode: context.modes.resolve, rightsOf: context.modes.rightsOf });

const cancelFrom = (state: RunMachineStateName) => ({ target: '#run.cancelled', actions: { type: 'interrupt', params: { state } } }) as const;
const failWith = (code: string) => ({ target: '#run.failed', actions: { type: 'fail', params: { code } } }) as const;

/** The conversation with this step's assistant turn (and its tool calls) appended. */
function withAssistantTurn(context: RunMachineContext, includeToolCalls: boolean): ModelMessage[] {
  const assistant = includeToolCalls && context.turnMessage ? context.turnMessage : turnToAssistantMessage(context.turn, { includeToolCalls });
  return assistant ? [...context.messages, assistant] : context.messages;
}

/**
 * A new step's fresh turn state (assigned on the way into sampling, with what the step was prepared
 * with). `saved`: the step's conversation is already saved (compacting saves what it compacted).
 */
function nextStep(context: RunMachineContext, saved: boolean) {
  return { step: context.step + 1, turn: emptyTurn(), sink: { current: emptyTurn() }, checked: {}, outcomes: {}, callsSaved: false, turnMessage: undefined, stepUnsaved: !saved, needsCompaction: false };
}

/** The conversation with this step's assistant turn and its tool results, and the invalid-steps count. */
function stepResults(context: RunMachineContext): Pick<RunMachineContext, 'messages' | 'invalidToolSteps'> {
  const calls = turnToolCalls(context.turn);
  const results = calls.map((call) => context.outcomes[call.toolCallId]).filter((outcome) => outcome !== undefined);
  const toolMessage: ModelMessage = { role: 'tool', content: results.map((result) => ({ type: 'tool-result', toolCallId: result.toolCallId, toolName: result.toolName, output: result.output })) };
  const allInvalid = results.length > 0 && results.every((result) => result.invalid);
  return { messages: [...withAssistantTurn(context, true), toolMessage], invalidToolSteps: allInvalid ? context.invalidToolSteps + 1 : 0 };
}

/** The step's notes and mode switch applied (or declined) to the conversation, and the updates to publish. */
function settledSwitch(context: RunMachineContext): { changes: Partial<RunMachineContext>; updates: InteractionUpdate[] } {
  const notes = context.pendingNotes ?? [];
  const inFlight = context.modeSwitch;
  let messages = [...context.messages, ...notes];
  let mode = context.mode;
  let updates: InteractionUpdate[] = [];
  if (inFlight) {
    const decision = inFlight.approval?.decision;
    if (!inFlight.approval || decision?.approved) {
      const applied = applyModeSwitch({ state: context.state, mode, messages, resolveMode: context.modes.resolve }, inFlight.to, { approved: decision?.approved === true, planApproval: inFlight.planApproval });
      messages = applied.messages;
      mode = applied.mode;
      updates = applied.updates;
    } else {
      messages = [...messages, declinedSwitchNote(mode, inFlight.to, decision?.reason)];
    }
  }
  return { changes: { messages, mode, modeSwitch: undefined, pendingNotes: undefined, approvals: [] }, updates };
}

function turnUsage(context: RunMachineContext, turn: TurnState) {
  return hasUsageFigures(turn.usage) ? { usage: addUsage(context.usage, toTokenUsage(turn.usage)), usageReported: true } : {};
}

/**
 * The run lifecycle (see docs/runtime.md for the diagram):
 * preparing -> [compacting] -> sampling -> acting -> [awaitingApproval] -> checkingLimits -> preparing ...
 * ending in finished | failed | cancelled with a typed output. Side effects live in actors the
 * runtime provides (`machine.provide`); each one honours its abort signal, so a cancel that lands
 * in any state stops the work of that state, checkpoint saves included.
 */
export const runMachine = setup({
  types: {
    input: {} as RunMachineInput,
    context: {} as RunMachineContext,
    events: {} as RunMachineEvent,
    emitted: {} as RunMachineEmitted,
    output: {} as RunMachineOutput,
  },
  actors: {
    prepareStep: fromPromise<PreparedStep, PrepareStepInput>(notProvided('prepareStep')),
    compact: fromPromise<{ messages: ModelMessage[] }, CompactInput>(notProvided('compact')),
    saveCheckpoint: fromPromise<void, SaveCheckpointInput>(notProvided('saveCheckpoint')),
    streamModel: fromCallback<RunMachineEvent, StreamModelInput>(notProvided('streamModel')),
    actOnToolCalls: fromCallback<RunMachineEvent, ActOnToolCallsInput>(notProvided('actOnToolCalls')),
    awaitApprovals: fromCallback<RunMachineEvent, AwaitApprovalsInput>(notProvided('awaitApprovals')),
    stopHook: fromPromise<StopHookOutput, StopHookInput>(notProvided('stopHook')),
  },
  guards: {
    // Provided by the runtime: whether this mode's step is prepared inline (by `prepareInline`)
    // rather than by the `prepareStep` actor, which a mode whose reminder reads files needs.
    preparesInline: () => false,
    // Set only by a failed inline preparation: a run that failed before ended there.
    prepareFailed: ({ context }) => context.error !== undefined,
    resumesAtModeSwitch: ({ context }) => context.resume?.modeSwitch?.approval !== undefined,
    resumesAtToolCalls: ({ context }) => context.resume?.turn !== undefined,
    turnHasToolCalls: ({ event }) => event.type === 'model.done' && turnToolCalls(event.turn).length > 0,
    hasStopHook: ({ context }) => context.stopHook,
    reachedMaxSteps: ({ context }) => context.step >= context.maxSteps,
    tooManyInvalidSteps: ({ context }) => context.invalidToolSteps >= maxInvalidToolSteps,
    switchAllowed: ({ context, event }) => event.type === 'mode.switch' && judgeSwitch(context, event).kind === 'allowed',
    switchNeedsApproval: ({ context, event }) => event.type === 'mode.switch' && context.canApproveModeSwitch && judgeSwitch(context, event).kind === 'needs-approval',
    switchAwaitsApproval: ({ context }) => context.modeSwitch?.approval !== undefined && context.modeSwitch.approval.decision === undefined,
    isOpenApproval: ({ context, event }) => event.type === 'approval.decided' && context.approvals.some((request) => request.callId === event.callId && !request.decision),
    lastToolApproval: ({ context, event }) => isLastOpen(context, event) && context.approvals.every((request) => request.kind === 'tool'),
    lastSwitchApproval: ({ context, event }) => isLastOpen(context, event) && context.approvals.some((request) => request.kind !== 'tool'),
  },
  actions: {
    // Provided by the runtime with `preparesInline`: the step prepared synchronously, as `prepareStep` would.
    prepareInline: assign(() => {
      throw new Error('prepareInline must be provided by the runtime (runMachine.provide) with the preparesInline guard');
    }),
    recordTurn: assign(({ context, event }) => {
      if (event.type !== 'model.done' && event.type !== 'model.failed') return {};
      const text = turnText(event.turn);
      const turnMessage = event.type === 'model.done' && turnToolCalls(event.turn).length > 0 ? turnToAssistantMessage(event.turn, { includeToolCalls: true }) : undefined;
      return { turn: event.turn, ...turnUsage(context, event.turn), ...(text ? { lastText: text } : {}), ...(turnMessage ? { turnMessage } : {}) };
    }),
    appendFinalTurn: assign({ messages: ({ context }) => withAssistantTurn(context, false) }),
    appendStepResults: assign(({ context }) => stepResults(context)),
    // The step's results and its mode switch in one assign (each assign copies the context).
    closeStep: enqueueActions(({ context, enqueue }) => {
      const results = stepResults(context);
      const settled = settledSwitch({ ...context, ...results });
      if (settled.updates.length) enqueue.emit({ type: 'updates', updates: settled.updates });
      enqueue.assign({ ...results, ...settled.changes });
    }),
    acceptModeSwitch: assign(({ event }) => (event.type === 'mode.switch' ? { modeSwitch: { to: event.to, planApproval: false } } : {})),
    askForModeSwitch: assign(({ context, event }) => {
      if (event.type !== 'mode.switch') return {};
      const plan = judgeSwitch(context, event);
      if (plan.kind !== 'needs-approval') return {};
      const kind = plan.planApproval && context.state.plan ? ('plan' as const) : ('mode-switch' as const);
      const reason = plan.request.addedRights?.length ? `${plan.request.to} mode allows more: ${plan.request.addedRights.join('; ')}` : `leaving ${plan.request.from} mode for ${plan.request.to} mode needs the user's approval`;
      return { modeSwitch: { to: plan.request.to, planApproval: plan.planApproval, approval: { callId: `mode-switch-${context.step}`, kind, reason, modeSwitch: plan.request } } };
    }),
    refuseModeSwitch: assign(({ context, event }) => {
      if (event.type !== 'mode.switch') return {};
      const plan = judgeSwitch(context, event);
      const note = plan.kind === 'refused' ? plan.note : plan.kind === 'needs-approval' ? plan.refusal : undefined;
      return note ? { pendingNotes: [...(context.pendingNotes ?? []), note] } : {};
    }),
    startSwitchApproval: assign(({ context }) => ({ approvals: context.modeSwitch?.approval ? [context.modeSwitch.approval] : [] })),
    recordDecision: assign(({ context, event }) => {
      if (event.type !== 'approval.decided') return {};
      const approvals = context.approvals.map((request) => (request.callId === event.callId ? { ...request, decision: event.decision } : request));
      const checked = { ...context.checked };
      const call = checked[event.callId];
      if (call?.kind === 'ask') {
        checked[event.callId] = event.decision.approved
          ? { kind: 'ready', call: call.call, tool: call.tool, input: call.input, args: call.args, paths: call.paths }
          : deniedCall(call.call, call.args, `${call.verdict.reason}; the user declined it${event.decision.reason ? `: ${event.decision.reason}` : ''}`);
      }
      const approval = context.modeSwitch?.approval;
      const modeSwitch = context.modeSwitch && approval?.callId === event.callId ? { ...context.modeSwitch, approval: { ...approval, decision: event.decision } } : context.modeSwitch;
      return { approvals, checked, ...(modeSwitch ? { modeSwitch } : {}) };
    }),
    settleModeSwitch: enqueueActions(({ context, enqueue }) => {
      const settled = settledSwitch(context);
      if (settled.updates.length) enqueue.emit({ type: 'updates', updates: settled.updates });
      enqueue.assign(settled.changes);
    }),
    interrupt: assign({ interruptedIn: (_, params: { state: RunMachineStateName }) => params.state }),
    fail: assign({ error: ({ event }, params: { code: string }) => toFailure((event as { error?: unknown }).error, params.code) }),
    markStatus: assign({ status: (_, params: { status: RunMachineOutput['status'] }) => params.status }),
  },
}).createMachine({
  id: 'run',
  context: ({ input }) => ({
    step: input.resume?.step ?? 0,
    maxSteps: input.maxSteps,
    mode: input.mode,
    messages: input.messages,
    modes: input.modes,
    state: input.state,
    canApproveModeSwitch: input.canApproveModeSwitch,
    turn: input.resume?.turn ?? emptyTurn(),
    sink: { current: input.resume?.turn ?? emptyTurn() },
    usage: input.resume?.usage ?? emptyUsage(),
    usageReported: input.resume?.usage !== undefined,
    invalidToolSteps: 0,
    checked: {},
    outcomes: {},
    approvals: [],
    ...(input.resume?.modeSwitch ? { modeSwitch: input.resume.modeSwitch } : {}),
    lastText: '',
    stopHook: input.stopHook === true,
    stopHookContinues: 0,
    ...(input.resume ? { resume: input.resume } : {}),
  }),
  initial: 'starting',
  on: { 'work.failed': { target: '.failed', actions: assign({ error: ({ event }) => event.error }) } },
  output: ({ context }) => runOutput(context),
  states: {
    starting: {
      always: [
        { guard: 'resumesAtModeSwitch', target: 'awaitingApproval', actions: 'startSwitchApproval' },
        { guard: 'resumesAtToolCalls', target: 'acting', actions: assign({ callsSaved: true }) },
        { target: 'preparing' },
      ],
    },
    // Most steps are prepared inline, in this state's transitions (synchronous work: rule reminders,
    // the mode's reminder, the budget check): no actor to start and stop, one macrostep fewer per step.
    preparing: {
      initial: 'choosing',
      on: { cancel: cancelFrom('preparing') },
      states: {
        choosing: { always: [{ guard: 'preparesInline', target: 'prepared', actions: 'prepareInline' }, { target: 'reading' }] },
        // A mode whose reminder reads the run's edited files (debug mode) prepares in an actor.
        reading: {
          invoke: {
            src: 'prepareStep',
            input: ({ context }) => ({ step: context.step, mode: context.mode, messages: context.messages }),
            onDone: { target: 'prepared', actions: assign(({ event }) => ({ messages: event.output.messages, stepReminder: event.output.stepReminder, needsCompaction: event.output.needsCompaction })) },
            onError: failWith('prepare_failed'),
          },
        },
        prepared: {
          always: [
            { guard: 'prepareFailed', target: '#run.failed' },
            { guard: ({ context }) => context.needsCompaction === true, target: '#run.compacting' },
            { target: '#run.sampling', actions: assign(({ context }) => nextStep(context, false)) },
          ],
        },
      },
    },
    compacting: {
      on: { cancel: cancelFrom('compacting') },
      invoke: {
        src: 'compact',
        input: ({ context }) => ({ mode: context.mode, messages: context.messages }),
        onDone: { target: 'sampling', actions: assign(({ context, event }) => ({ messages: event.output.messages, ...nextStep(context, true) })) },
        onError: failWith('compaction_failed'),
      },
    },
    // Entered from preparing or compacting, whose transitions count the step (nextStep): one assign, not two.
    // The step's checkpoint is saved by this state's actor while the request is in flight (hidden
    // behind the model's latency; nothing of the answer is acted upon before it is done), or was
    // saved by compacting. A cancel stops the save with its state.
    sampling: {
      on: {
        cancel: cancelFrom('sampling'),
        'model.done': [
          { guard: 'turnHasToolCalls', target: 'acting', actions: 'recordTurn' },
          { guard: 'hasStopHook', target: 'stopping', actions: ['recordTurn', 'appendFinalTurn'] },
          { target: 'finished', actions: ['recordTurn', 'appendFinalTurn'] },
        ],
        'model.failed': { target: 'failed', actions: ['recordTurn', 'appendFinalTurn', assign({ error: ({ event }) => (event as { error: RunFailure }).error })] },
      },
      invoke: {
        src: 'streamModel',
        input: ({ context }) => ({
          step: context.step, mode: context.mode, messages: context.messages, usage: context.usage, sink: context.sink,
          ...(context.stepReminder ? { stepReminder: context.stepReminder } : {}), ...(context.stepUnsaved ? { saveCheckpoint: true as const } : {}),
        }),
        onError: failWith('stream_failed'),
      },
    },
    // The turn's calls are saved (first: a process that stops mid-tool leaves calls a resume can
    // answer), checked, and run, by one actor: when a call needs an approval it sends
    // `tools.checked` and the run waits; back from the wait, the same actor runs the decided calls.
    acting: {
      on: {
        cancel: cancelFrom('acting'),
        'tools.checked': { target: '#run.awaitingApproval', actions: assign(({ event }) => ({ checked: event.checked, approvals: event.approvals })) },
        'mode.switch': [
          { guard: 'switchAllowed', actions: 'acceptModeSwitch' },
          { guard: 'switchNeedsApproval', actions: 'askForModeSwitch' },
          { actions: 'refuseModeSwitch' },
        ],
        'tools.done': [
          { guard: 'switchAwaitsApproval', target: '#run.awaitingApproval', actions: ['appendStepResults', 'startSwitchApproval'] },
          { target: '#run.checkingLimits', actions: 'closeStep' },
        ],
      },
      invoke: {
        src: 'actOnToolCalls',
        input: ({ context }) => {
          // Checked calls are the ones an approval decided: saved and checked already.
          const decided = Object.keys(context.checked).length > 0;
          return {
            step: context.step, mode: context.mode, turn: context.turn, checked: context.checked, outcomes: context.outcomes, decided,
            ...(context.callsSaved || decided ? {} : { save: withAssistantTurn(context, true), ...(hasUsageFigures(context.turn.usage) ? { usage: context.usage } : {}) }),
          };
        },
        onError: failWith('tool_execution_failed'),
      },
    },
    awaitingApproval: {
      initial: 'saving',
      on: { cancel: cancelFrom('awaitingApproval') },
      states: {
        // A new process continues from this checkpoint when this one stops while waiting.
        saving: {
          invoke: { src: 'saveCheckpoint', input: ({ context }) => ({ messages: waitingConversation(context), mode: context.mode }), onDone: 'waiting', onError: failWith('checkpoint_failed') },
        },
        waiting: {
          invoke: {
            src: 'awaitApprovals',
            input: ({ context }) => ({ step: context.step, mode: context.mode, approvals: context.approvals, messages: waitingConversation(context) }),
            onError: failWith('approval_failed'),
          },
          on: {
            'approval.decided': [
              { guard: 'lastToolApproval', target: '#run.acting', actions: 'recordDecision' },
              { guard: 'lastSwitchApproval', target: '#run.checkingLimits', actions: ['recordDecision', 'settleModeSwitch'] },
              { guard: 'isOpenApproval', actions: 'recordDecision' },
            ],
          },
        },
      },
    },
    // The run would finish: its stop hooks may keep it going, their reason becoming the next user message.
    stopping: {
      on: { cancel: cancelFrom('stopping') },
      invoke: {
        src: 'stopHook',
        input: ({ context }) => ({ mode: context.mode, messages: context.messages, continues: context.stopHookContinues, result: turnText(context.turn) || context.lastText }),
        onDone: [
          {
            guard: ({ event }) => event.output.continueWith !== undefined,
            target: 'checkingLimits',
            actions: assign(({ context, event }) => ({
              messages: [...context.messages, { role: 'user' as const, content: [{ type: 'text' as const, text: event.output.continueWith ?? '' }] }],
              stopHookContinues: context.stopHookContinues + 1,
            })),
          },
          { target: 'finished' },
        ],
        onError: failWith('stop_hook_failed'),
      },
    },
    checkingLimits: {
      always: [
        {
          guard: 'tooManyInvalidSteps',
          target: 'failed',
          actions: assign({ error: () => ({ message: `The model sent only invalid tool calls ${maxInvalidToolSteps} steps in a row; the run was stopped.`, code: 'invalid_tool_calls' }) }),
        },
        {
          guard: 'reachedMaxSteps',
          target: 'failed',
          actions: assign({
            error: ({ context }) => ({ message: `The run stopped after ${context.maxSteps} model calls (maxSteps). Send a follow-up to continue, or raise maxSteps.`, code: 'max_steps' }),
          }),
        },
        { target: 'preparing' },
      ],
    },
    finished: { type: 'final', entry: { type: 'markStatus', params: { status: 'finished' } } },
    failed: { type: 'final', entry: { type: 'markStatus', params: { status: 'error' } } },
    cancelled: { type: 'final', entry: { type: 'markStatus', params: { status: 'cancelled' } } },
  },
});

function isLastOpen(context: RunMachineContext, event: RunMachineEvent): boolean {
  if (event.type !== 'approval.decided') return false;
  const open = context.approvals.filter((request) => !request.decision);
  return open.length === 1 && open[0]?.callId === event.callId;
}

/** While tool calls wait, the conversation ends with the assistant turn that made them (no results yet). */
function waitingConversation(context: RunMachineContext): ModelMessage[] {
  return context.approvals.some((request) => request.kind === 'tool') ? withAssistantTurn(context, true) : context.messages;
}

function runOutput(context: RunMachineContext): RunMachineOutput {
  const base = { mode: context.mode, result: turnText(context.turn) || context.lastText, ...(context.usageReported ? { usage: context.usage } : {}) };
  if (context.status === 'finished') return { ...base, status: 'finished', messages: context.messages };
  if (context.status === 'cancelled') {
    const partial = context.interruptedIn === 'sampling' ? context.sink.current : context.turn;
    return { ...base, result: turnText(partial) || context.lastText, status: 'cancelled', messages: interruptedConversation(context), error: { message: 'The run was cancelled.', code: 'cancelled' } };
  }
  const error = context.error ?? { message: 'The run failed.', code: 'run_failed' };
  return { ...base, status: 'error', messages: context.messages, error: { message: error.message, code: error.code } };
}

export function toFailure(error: unknown, fallbackCode: string): RunFailure {
  if (typeof error === 'object' && error !== null) {
    const described = error as { message?: unknown; code?: unknown };
    return {
      message: typeof described.message === 'string' ? described.message : String(error),
      code: typeof described.code === 'string' ? described.code : fallbackCode,
      cause: error,
    };
  }
  return { message: String(error), code: fallbackCode, cause: error };
}
