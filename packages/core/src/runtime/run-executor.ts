import { createActor, fromCallback, fromPromise } from 'xstate';
import { streamWithRetry } from '../model-call/stream-with-retry.js';
import { type ExecuteToolsOutput, type RunFailure, type RunMachineContext, type RunMachineEvent, runMachine, toFailure } from '../machine/run-machine.js';
import { applyStreamPart, emptyTurn, type TurnState, turnText, turnToolCalls } from '../machine/turn-state.js';
import { turnToAssistantMessage } from '../machine/turn-to-message.js';
import type { InteractionUpdate, RunEvent, SDKMessage, TokenUsage } from '../spec/events/v1/index.js';
import type { LanguageModelV1StreamPart, LanguageModelV1Usage, ModelMessage, ToolModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ToolDefinition, ToolExecutionContext } from '../spec/tool/v1/index.js';
import { toolInputJsonSchema } from '../tools/tool-schema.js';
import { fallbackAgentMode } from './default-modes.js';
import { KeyedLock } from './keyed-lock.js';
import { compactIfNeeded } from './compaction-step.js';
import { ContextTokenMeter } from './compaction-tokens.js';
import { modeReminderText, resolvePendingModeSwitch } from './mode-switch.js';
import { sensitiveFileChangeUpdate } from './sensitive-file-flag.js';
import { modeRights } from './mode-rights.js';
import { shellCommandCheck } from './shell-command-check.js';
import { readEditedFiles, ruleReminderFor, stepReminderMessage, workspaceRelative } from './rules-reminders.js';
import type { RunPlan } from './run-plan.js';
import { assistantBlocks } from './sdk-messages.js';
import { toTokenUsage } from './token-usage.js';
import { type ToolCallOutcome, runToolCall } from './tool-runner.js';
import { offeredTools, readOnlyModeRefusal, toolAvailability } from './tool-set.js';
import { completedToolCall, updatesForStreamPart } from './tool-call-updates.js';

/** An SDK message without the ids every message of the run carries. */
export type SDKMessageBody = SDKMessage extends infer M ? (M extends SDKMessage ? Omit<M, 'agent_id' | 'run_id'> : never) : never;

export interface RunOutcome {
  status: 'finished' | 'error' | 'cancelled';
  result: string;
  error?: { message: string; code: string };
  /** Summed over the turns that reported usage; absent when none did. */
  usage?: TokenUsage;
  messages: ModelMessage[];
  mode: string;
}

/** Drive one run through the run machine, writing every update to the run's event log. */
export async function executeRun(plan: RunPlan): Promise<RunOutcome> {
  const message = (body: SDKMessageBody): RunEvent => ({ kind: 'message', message: { ...body, agent_id: plan.agentId, run_id: plan.runId } as SDKMessage });
  const deliver = async (events: RunEvent[]): Promise<void> => {
    await plan.log.append(events);
    for (const event of events) if (event.kind === 'update') await plan.onDelta?.({ update: event.update });
  };
  // Tools emit synchronously; their updates are queued in order behind the run's own.
  let emitted: Promise<void> = Promise.resolve();
  const emitFromTool = (update: InteractionUpdate) => {
    emitted = emitted.then(() => deliver([{ kind: 'update', update }])).catch(() => undefined);
  };
  const modeOf = (id: string) => plan.resolveMode(id) ?? (id === 'agent' ? fallbackAgentMode : undefined);
  const writeLock = new KeyedLock();
  const outcomes = new Map<string, ToolCallOutcome>();
  // Aborted when the run ends however it ends: background work a tool started (shell jobs) lives
  // across steps but never outlives its run.
  const runLifetime = new AbortController();
  let lastText = '';
  let usageReported = false;
  // When the current step's model call started: step-completed reports the step's whole duration, tools included.
  let stepStartedAt = Date.now();
  // Where the run was when it ended, so a cancel can close the conversation correctly.
  let phase: 'preparing' | 'sampling' | 'acting' = 'preparing';
  const meter = new ContextTokenMeter();
  // Files touched by tool calls of this run (for glob rules) and files changed (for mode reminders).
  const touchedPaths = new Set<string>();
  const editedPaths = new Set<string>();
  const calledTools: string[] = [];
  // A per-step reminder (ModeDefinition.reminder as a function) is sent with the next request only,
  // never stored, so it cannot pile up in the history or shift the cached prefix.
  let stepReminder: string | undefined;
  const toolIds = new Map(plan.tools.map((tool) => [tool.name, tool.id]));
  const toolIdOf = (toolName: string) => toolIds.get(toolName) ?? toolName;
  const toolSpecs = (mode: ModeDefinition) =>
    offeredTools(plan.tools, { allow: plan.allow, deny: plan.deny, mode, cwd: plan.cwd, settings: plan.toolSettings, stableToolList: plan.stableToolList === true }).map((tool) => ({ type: 'function' as const, name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool.inputSchema) }));

  const machine = runMachine.provide({
    actors: {
      prepareStep: fromPromise(async ({ input }: { input: RunMachineContext }) => {
        phase = 'preparing';
        const switched = await resolvePendingModeSwitch({
          state: plan.state,
          mode: input.mode,
          messages: input.messages,
          resolveMode: modeOf,
          rightsOf: (mode) => modeRights(mode, { tools: plan.tools, allow: plan.allow, deny: plan.deny, cwd: plan.cwd, settings: plan.toolSettings, sandboxFor: plan.sandboxFor }),
          ...(plan.approveModeSwitch ? { approve: plan.approveModeSwitch } : {}),
        });
        for (const update of switched.updates) {
          await deliver([{ kind: 'update', update }, ...(update.type === 'mode-changed' ? [message({ type: 'status', status: 'RUNNING', phase: 'mode-changed', mode: update.to, message: `${update.from} -> ${update.to}` })] : [])]);
        }
        if (switched.mode !== input.mode) await plan.onModeChange?.(switched.mode);
        const mode = modeOf(switched.mode) ?? fallbackAgentMode;
        let messages = switched.messages;
        const rules = ruleReminderFor(plan.rules ?? [], [...touchedPaths], plan.state);
        if (rules) messages = [...messages, rules];
        if (plan.compaction) {
          const compacted = await compactIfNeeded({
            agentId: plan.agentId,
            runId: plan.runId,
            mode: mode.id,
            messages,
            state: plan.state,
            systemPrompt: plan.systemPrompt,
            tools: toolSpecs(mode),
            meter,
            budget: plan.compaction.budget,
            keepRecentTurns: plan.compaction.keepRecentTurns,
            model: plan.model.model,
            modeReminder: modeReminderText(mode),
            ...(plan.hooks ? { hooks: plan.hooks } : {}),
            ...(plan.retry ? { retry: plan.retry } : {}),
            signal: plan.signal,
            notify: async (event) => {
              if (event.status) await deliver([message({ type: 'status', status: 'RUNNING', phase: 'compacting', message: event.status, mode: mode.id })]);
              if (event.update) await deliver([{ kind: 'update', update: event.update }]);
            },
          });
          messages = compacted.messages;
        }
        stepReminder = undefined;
        if (typeof mode.reminder === 'function') {
          stepReminder = mode.reminder({ step: input.step + 1, toolCalls: [...calledTools], state: plan.state, editedFiles: await readEditedFiles(plan.cwd, [...editedPaths]) }) || undefined;
        }
        await plan.checkpointer.save(messages, plan.state, switched.mode);
        return { mode: switched.mode, messages };
      }),
      streamModel: fromCallback<RunMachineEvent, { step: number; mode: string; messages: ModelMessage[] }>(({ input, sendBack }) => {
        const controller = new AbortController();
        const signal = AbortSignal.any([plan.signal, controller.signal]);
        phase = 'sampling';
        void streamStep(input, signal, (part) => sendBack({ type: 'model.part', part })).then(
          (failure) => sendBack(failure ? { type: 'model.failed', error: failure } : { type: 'model.done' }),
          (error) => {
            if (!signal.aborted) sendBack({ type: 'model.failed', error: toFailure(error, 'stream_failed') });
          },
        );
        return () => controller.abort();
      }),
      executeTools: fromPromise(async ({ input, signal }: { input: { step: number; mode: string; turn: TurnState; messages: ModelMessage[] }; signal: AbortSignal }) => {
        return executeTools(input, AbortSignal.any([plan.signal, signal, runLifetime.signal]));
      }),
    },
  });

  async function streamStep(input: { step: number; mode: string; messages: ModelMessage[] }, signal: AbortSignal, sendPart: (part: LanguageModelV1StreamPart) => void): Promise<RunFailure | undefined> {
    const mode = modeOf(input.mode) ?? fallbackAgentMode;
    const tools = toolSpecs(mode);
    const reminder = stepReminder ? [stepReminderMessage(stepReminder)] : [];
    stepStartedAt = Date.now();
    // The machine counts a step on entering sampling: input.step is already the 1-based stepId.
    await deliver([{ kind: 'update', update: { type: 'step-started', stepId: input.step, mode: mode.id } }]);
    let turn = emptyTurn();
    const stream = streamWithRetry(
      plan.model.model,
      {
        prompt: [{ role: 'system', content: plan.systemPrompt }, ...input.messages, ...reminder],
        tools,
        promptCacheKey: plan.promptCacheKey,
        ...(plan.callParams ? { params: plan.callParams } : {}),
        abortSignal: signal,
      },
      {
        signal,
        ...(plan.retry ? { policy: plan.retry } : {}),
        onRetry: ({ attempt, delayMs, error }) =>
          deliver([{ kind: 'update', update: { type: 'retry', attempt, delayMs: Math.round(delayMs), reason: error instanceof Error ? error.message : String(error) } }, message({ type: 'status', status: 'RUNNING', phase: 'retrying', message: error instanceof Error ? error.message : String(error) })]),
      },
    );
    let failure: RunFailure | undefined;
    for await (const part of stream) {
      turn = applyStreamPart(turn, part);
      // The machine's turn first: a cancel while the update is being delivered must keep this text.
      sendPart(part);
      await deliver(updatesForStreamPart(part, turn, toolIdOf));
      if (part.type === 'reasoning-end') {
        const block = turn.blocks.find((candidate) => candidate.kind === 'reasoning' && candidate.id === part.id);
        if (block?.kind === 'reasoning' && block.text) {
          const durationMs = block.endedAt ? block.endedAt - block.startedAt : undefined;
          await deliver([message({ type: 'thinking', text: block.text, ...(durationMs === undefined ? {} : { thinking_duration_ms: durationMs }) })]);
          await plan.onStep?.({ step: { type: 'thinkingMessage', message: { text: block.text, ...(durationMs === undefined ? {} : { thinkingDurationMs: durationMs }) } } });
        }
      }
      if (part.type === 'response-metadata' && part.requestId) await deliver([message({ type: 'request', request_id: part.requestId })]);
      if (part.type === 'error') failure = toFailure(part.error, 'provider_error');
    }
    const incomplete = failure !== undefined || signal.aborted;
    const blocks = assistantBlocks(incomplete ? { ...turn, blocks: turn.blocks.filter((block) => block.kind !== 'tool-call') } : turn);
    // A turn without usage (some compatible servers send none) reports none: no zeros pretending to be counts.
    const usage = hasUsageFigures(turn.usage) ? toTokenUsage(turn.usage) : undefined;
    if (usage) usageReported = true;
    if (!incomplete && usage) meter.recordRequest(input.messages, usage.inputTokens);
    const text = turnText(turn);
    if (text) lastText = text;
    await deliver([
      ...(blocks.length ? [message({ type: 'assistant', message: { role: 'assistant', content: blocks }, ...(incomplete ? { incomplete: true } : {}) })] : []),
      ...(usage ? [message({ type: 'usage', usage })] : []),
      { kind: 'update', update: { type: 'turn-ended', ...(usage ? { usage } : {}) } },
    ]);
    if (text) await plan.onStep?.({ step: { type: 'assistantMessage', message: { text } } });
    if (!incomplete && turnToolCalls(turn).length === 0) await completeStep(input.step, turn, stepStartedAt);
    return failure;
  }

  async function completeStep(step: number, turn: TurnState, startedAt: number): Promise<void> {
    await deliver([{ kind: 'update', update: { type: 'step-completed', stepId: step, stepDurationMs: Date.now() - startedAt, finishReason: turn.finishReason?.unified ?? 'other' } }]);
  }

  async function executeTools(input: { step: number; mode: string; turn: TurnState; messages: ModelMessage[] }, signal: AbortSignal): Promise<ExecuteToolsOutput> {
    phase = 'acting';
    const mode = modeOf(input.mode) ?? fallbackAgentMode;
    const assistant = turnToAssistantMessage(input.turn, { includeToolCalls: true });
    // Persist the calls before running them, so a crash mid-tool leaves calls a resume can answer.
    await plan.checkpointer.save([...input.messages, ...(assistant ? [assistant] : [])], plan.state, mode.id);
    const availability = new Map(toolAvailability(plan.tools, { allow: plan.allow, deny: plan.deny, mode, cwd: plan.cwd, settings: plan.toolSettings }).map((entry) => [entry.tool.name, entry]));
    const calls = turnToolCalls(input.turn);
    const results = await Promise.all(
      calls.map(async (call) => {
        const outcome = await runToolCall(
          { toolCallId: call.toolCallId, toolName: call.toolName, inputText: call.inputText },
          {
            cwd: plan.cwd,
            availability,
            writeLock,
            signal,
            checkPermission: async (tool, toolInput, paths) => {
              for (const path of paths) touchedPaths.add(workspaceRelative(plan.cwd, path));
              const refusal = await readOnlyModeRefusal(tool, toolInput, mode);
              if (refusal) return { decision: 'deny', reason: refusal };
              return plan.checkPermission(tool, toolInput, paths, mode.id);
            },
            createContext: (tool, toolCallId, toolSignal) => toolContext(tool, toolCallId, toolSignal, mode.id, plan.sandboxFor(mode)),
            onStart: (request, args) => deliver([message({ type: 'tool_call', call_id: request.toolCallId, name: request.toolName, status: 'running', args })]),
          },
        );
        outcomes.set(call.toolCallId, outcome);
        calledTools.push(outcome.toolName);
        const toolCall = completedToolCall(outcome, toolIdOf);
        await deliver([
          { kind: 'update', update: { type: 'tool-call-completed', callId: outcome.toolCallId, modelCallId: outcome.toolCallId, toolCall } },
          message({ type: 'tool_call', call_id: outcome.toolCallId, name: outcome.toolName, status: toolCall.status ?? 'completed', args: outcome.args, result: outcome.text, ...(toolCall.truncated ? { truncated: toolCall.truncated } : {}) }),
        ]);
        await plan.onStep?.({ step: { type: 'toolCall', message: toolCall } });
        return outcome;
      }),
    );
    await emitted;
    await completeStep(input.step, input.turn, stepStartedAt);
    return { toolMessage: toolMessageFor(results), allInvalid: results.length > 0 && results.every((result) => result.invalid) };
  }

  function toolContext(_tool: ToolDefinition, toolCallId: string, signal: AbortSignal, mode: string, sandbox: ReturnType<RunPlan['sandboxFor']>): ToolExecutionContext {
    return {
      toolCallId,
      agentId: plan.agentId,
      runId: plan.runId,
      cwd: plan.cwd,
      mode,
      signal,
      emit: emitFromTool,
      state: {
        get: <T>(key: string) => plan.state[key] as T | undefined,
        set: (key, value) => {
          plan.state[key] = value;
        },
      },
      recordFileChange: (change) => {
        editedPaths.add(workspaceRelative(plan.cwd, change.path));
        const sensitive = sensitiveFileChangeUpdate(plan.cwd, change, toolCallId);
        if (sensitive) emitFromTool(sensitive);
        return plan.onFileChange(change, toolCallId);
      },
      sandbox,
      isPathDenied: plan.isPathDenied,
      ...(plan.readDeniedFiles ? { readDeniedFiles: plan.readDeniedFiles } : {}),
      checkShellCommand: shellCommandCheck({ tools: plan.tools, allow: plan.allow, deny: plan.deny, mode: modeOf(mode) ?? fallbackAgentMode, cwd: plan.cwd, settings: plan.toolSettings, checkPermission: plan.checkPermission }),
      settings: plan.toolSettings,
      env: plan.env,
    };
  }

  const actor = createActor(machine, { input: { messages: plan.messages, mode: plan.mode, maxSteps: plan.maxSteps } });
  const finished = new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve(), error: () => resolve() }));
  const onAbort = () => actor.send({ type: 'cancel' });
  plan.signal.addEventListener('abort', onAbort, { once: true });
  actor.start();
  if (plan.signal.aborted) onAbort();
  await finished;
  runLifetime.abort(new Error('The run ended.'));
  plan.signal.removeEventListener('abort', onAbort);
  const snapshot = actor.getSnapshot();
  await emitted;
  return settle(snapshot.value as string, snapshot.context);

  function settle(state: string, context: RunMachineContext): RunOutcome {
    const base = { ...(usageReported ? { usage: context.usage } : {}), mode: context.mode, result: turnText(context.turn) || lastText };
    if (state === 'finished') return { ...base, status: 'finished', messages: context.messages };
    if (state === 'cancelled') return { ...base, status: 'cancelled', messages: closeInterruptedTurn(context, phase, outcomes), error: { message: 'The run was cancelled.', code: 'cancelled' } };
    const error = context.error ?? { message: 'The run failed.', code: 'run_failed' };
    return { ...base, status: 'error', messages: context.messages, error: { message: error.message, code: error.code } };
  }
}

/** Whether a turn's usage holds any figure: adapters report every figure undefined for a server that sent no usage. */
function hasUsageFigures(usage: LanguageModelV1Usage | undefined): usage is LanguageModelV1Usage {
  if (!usage) return false;
  return [...Object.values(usage.inputTokens), ...Object.values(usage.outputTokens)].some((figure) => figure !== undefined);
}

function toolMessageFor(results: ToolCallOutcome[]): ToolModelMessage {
  return {
    role: 'tool',
    content: results.map((result) => ({ type: 'tool-result', toolCallId: result.toolCallId, toolName: result.toolName, output: result.output })),
  };
}

/**
 * The conversation after a cancel: the partial text is kept; when the cancel hit while tools ran,
 * their calls stay with the results they got, and the unfinished ones get an aborted result.
 */
function closeInterruptedTurn(context: RunMachineContext, phase: 'preparing' | 'sampling' | 'acting', outcomes: Map<string, ToolCallOutcome>): ModelMessage[] {
  const calls = turnToolCalls(context.turn);
  if (phase === 'preparing') return context.messages;
  if (phase === 'sampling' || calls.length === 0) {
    const partial = turnToAssistantMessage(context.turn, { includeToolCalls: false });
    return partial ? [...context.messages, partial] : context.messages;
  }
  const last = context.messages[context.messages.length - 1];
  if (last?.role === 'tool' && last.content.some((part) => part.toolCallId === calls[0]?.toolCallId)) return context.messages;
  const assistant = turnToAssistantMessage(context.turn, { includeToolCalls: true });
  const toolMessage: ToolModelMessage = {
    role: 'tool',
    content: calls.map((call) => ({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: outcomes.get(call.toolCallId)?.output ?? { type: 'error-text', value: 'The run was cancelled before this tool call finished; it was aborted.' },
    })),
  };
  return [...context.messages, ...(assistant ? [assistant] : []), toolMessage];
}
