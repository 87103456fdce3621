import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { TokenUsage } from '../spec/events/v1/index.js';
import type { LanguageModelV1StreamPart, ModelMessage, ToolModelMessage } from '../spec/language-model/v1/index.js';
import { addUsage, emptyUsage, toTokenUsage } from '../runtime/token-usage.js';
import { applyStreamPart, emptyTurn, type TurnState, turnToolCalls } from './turn-state.js';
import { turnToAssistantMessage } from './turn-to-message.js';

export interface RunMachineInput {
  messages: ModelMessage[];
  mode: string;
  maxSteps: number;
}

export interface RunFailure {
  message: string;
  code: string;
  cause?: unknown;
}

export interface RunMachineContext {
  /** Model calls made so far in this run. */
  step: number;
  maxSteps: number;
  mode: string;
  /** The conversation, including this run's user message and every completed step. */
  messages: ModelMessage[];
  /** The assistant turn being streamed. */
  turn: TurnState;
  usage: TokenUsage;
  /** Steps in a row whose every tool call failed validation (unknown tool, bad JSON, schema). */
  invalidToolSteps: number;
  error?: RunFailure;
}

/** What `prepareStep` hands to `streamModel`: the mode may change between steps. */
export interface PreparedStep {
  mode: string;
  messages: ModelMessage[];
}

export interface StreamModelInput {
  step: number;
  mode: string;
  messages: ModelMessage[];
}

export interface ExecuteToolsInput {
  step: number;
  mode: string;
  turn: TurnState;
  messages: ModelMessage[];
}

export interface ExecuteToolsOutput {
  toolMessage: ToolModelMessage;
  /** True when every call of the step failed before running (the model keeps sending bad calls). */
  allInvalid: boolean;
}

export type RunMachineEvent =
  | { type: 'model.part'; part: LanguageModelV1StreamPart }
  | { type: 'model.done' }
  | { type: 'model.failed'; error: RunFailure }
  | { type: 'cancel' };

/** How many steps in a row of only invalid tool calls end the run with a clear error. */
export const maxInvalidToolSteps = 3;

/**
 * The run lifecycle: preparing -> sampling -> acting -> preparing ... -> finished | failed | cancelled.
 * Side effects live in three actors that the runtime provides (`machine.provide`): `prepareStep`
 * (load state, apply mode switches, compaction, persist), `streamModel` (a callback actor that
 * sends `model.part` events and aborts the request in its cleanup) and `executeTools` (a promise
 * actor whose signal aborts when the state is left, e.g. on cancel).
 */
export const runMachine = setup({
  types: {
    input: {} as RunMachineInput,
    context: {} as RunMachineContext,
    events: {} as RunMachineEvent,
  },
  actors: {
    prepareStep: fromPromise<PreparedStep, RunMachineContext>(async () => {
      throw new Error('prepareStep must be provided by the runtime');
    }),
    streamModel: fromCallback<RunMachineEvent, StreamModelInput>(() => {
      throw new Error('streamModel must be provided by the runtime');
    }),
    executeTools: fromPromise<ExecuteToolsOutput, ExecuteToolsInput>(async () => {
      throw new Error('executeTools must be provided by the runtime');
    }),
  },
  guards: {
    turnHasToolCalls: ({ context }) => turnToolCalls(context.turn).length > 0,
    reachedMaxSteps: ({ context }) => context.step >= context.maxSteps,
    tooManyInvalidSteps: ({ context }) => context.invalidToolSteps >= maxInvalidToolSteps,
  },
  actions: {
    applyPart: assign({ turn: ({ context, event }) => (event.type === 'model.part' ? applyStreamPart(context.turn, event.part) : context.turn) }),
    countStep: assign({ step: ({ context }) => context.step + 1, turn: () => emptyTurn() }),
    addTurnUsage: assign({ usage: ({ context }) => addUsage(context.usage, toTokenUsage(context.turn.usage)) }),
    appendFinalTurn: assign({
      messages: ({ context }) => {
        const message = turnToAssistantMessage(context.turn, { includeToolCalls: false });
        return message ? [...context.messages, message] : context.messages;
      },
    }),
  },
}).createMachine({
  id: 'run',
  context: ({ input }) => ({
    step: 0,
    maxSteps: input.maxSteps,
    mode: input.mode,
    messages: input.messages,
    turn: emptyTurn(),
    usage: emptyUsage(),
    invalidToolSteps: 0,
  }),
  initial: 'preparing',
  on: { cancel: { target: '.cancelled' } },
  states: {
    preparing: {
      invoke: {
        src: 'prepareStep',
        input: ({ context }) => context,
        onDone: {
          target: 'sampling',
          actions: assign({ mode: ({ event }) => event.output.mode, messages: ({ event }) => event.output.messages }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toFailure(event.error, 'prepare_failed') }),
        },
      },
    },
    sampling: {
      entry: 'countStep',
      invoke: {
        src: 'streamModel',
        input: ({ context }) => ({ step: context.step, mode: context.mode, messages: context.messages }),
      },
      on: {
        'model.part': { actions: 'applyPart' },
        'model.done': [
          { guard: 'turnHasToolCalls', target: 'acting', actions: 'addTurnUsage' },
          { target: 'finished', actions: ['addTurnUsage', 'appendFinalTurn'] },
        ],
        'model.failed': {
          target: 'failed',
          actions: ['addTurnUsage', 'appendFinalTurn', assign({ error: ({ event }) => event.error })],
        },
      },
    },
    acting: {
      invoke: {
        src: 'executeTools',
        input: ({ context }) => ({ step: context.step, mode: context.mode, turn: context.turn, messages: context.messages }),
        onDone: [
          {
            target: 'checkingLimits',
            actions: assign({
              messages: ({ context, event }) => {
                const assistant = turnToAssistantMessage(context.turn, { includeToolCalls: true });
                return [...context.messages, ...(assistant ? [assistant] : []), event.output.toolMessage];
              },
              invalidToolSteps: ({ context, event }) => (event.output.allInvalid ? context.invalidToolSteps + 1 : 0),
            }),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toFailure(event.error, 'tool_execution_failed') }),
        },
      },
    },
    checkingLimits: {
      always: [
        {
          guard: 'tooManyInvalidSteps',
          target: 'failed',
          actions: assign({
            error: () => ({
              message: `The model sent only invalid tool calls ${maxInvalidToolSteps} steps in a row; the run was stopped.`,
              code: 'invalid_tool_calls',
            }),
          }),
        },
        {
          guard: 'reachedMaxSteps',
          target: 'failed',
          actions: assign({
            error: ({ context }) => ({
              message: `The run stopped after ${context.maxSteps} model calls (maxSteps). Send a follow-up to continue, or raise maxSteps.`,
              code: 'max_steps',
            }),
          }),
        },
        { target: 'preparing' },
      ],
    },
    finished: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

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
