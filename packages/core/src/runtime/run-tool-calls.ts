import type { ApprovalRequest, CheckToolCallsInput, CheckToolCallsOutput, ExecuteToolsInput, RunMachineEvent } from '../machine/run-machine-types.js';
import { turnToolCalls } from '../machine/turn-state.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { withEditFeedback } from './edit-feedback-step.js';
import { completeStep } from './run-stream-step.js';
import type { RunScope } from './run-scope.js';
import { takePendingModeSwitch } from './mode-switch.js';
import { workspaceRelative } from './rules-reminders.js';
import { toolExecutionContext } from './run-tool-context.js';
import { completedToolCall } from './tool-call-updates.js';
import { type CheckedToolCall, checkToolCall, runCheckedCall, type ToolCallOutcome } from './tool-runner.js';
import { readOnlyModeRefusal } from './tool-set.js';
import { capTurnToolOutputs } from './turn-output-cap.js';
import { runHooksOf } from '../hooks/run-hooks.js';
import { applyPostToolHooks, applyPreToolHooks, canAskTools } from '../hooks/tool-call-hooks.js';

/**
 * The body of the `checkToolCalls` actor: validate every call of the turn and ask the permission
 * rules. Calls a rule wants approved become approval requests; nothing runs yet.
 */
export async function checkToolCalls(scope: RunScope, input: CheckToolCallsInput, signal: AbortSignal): Promise<CheckToolCallsOutput> {
  const { plan } = scope;
  const mode = scope.mode(input.mode);
  const hooks = runHooksOf(plan.hooks);
  const checkPermission = async (tool: ToolDefinition, toolInput: unknown, paths: string[]) => {
    for (const path of paths) scope.touchedPaths.add(workspaceRelative(plan.cwd, path));
    const refusal = await readOnlyModeRefusal(tool, toolInput, mode);
    if (refusal) return { decision: 'deny' as const, reason: refusal };
    return plan.checkPermission(tool, toolInput, paths, mode.id);
  };
  const base = { agentId: plan.agentId, runId: plan.runId, cwd: plan.cwd, mode: mode.id };
  const environment = {
    cwd: plan.cwd,
    availability: scope.toolsFor(mode.id).availability,
    checkPermission,
    ...(hooks ? { afterPermission: (checked: CheckedToolCall) => applyPreToolHooks(checked, { hooks, base, canAsk: canAskTools(plan.approvals), signal, checkPermission }) } : {}),
  };
  const calls = turnToolCalls(input.turn);
  const results = await Promise.all(calls.map((call) => checkToolCall({ toolCallId: call.toolCallId, toolName: call.toolName, inputText: call.inputText }, environment)));
  if (signal.aborted) throw signal.reason;
  const checked: Record<string, CheckedToolCall> = {};
  const approvals: ApprovalRequest[] = [];
  for (const result of results) {
    checked[result.call.toolCallId] = result;
    if (result.kind === 'ask') {
      approvals.push({ callId: result.call.toolCallId, kind: 'tool', reason: result.verdict.reason, toolName: result.call.toolName, args: result.args, ...(result.verdict.rule ? { rule: result.verdict.rule } : {}) });
    }
  }
  return { checked, approvals };
}

/**
 * The body of the `executeTools` actor: run the checked calls in parallel (writes to one path one
 * at a time), write each result to the step's results record as it lands, and tell the machine of
 * a mode switch a call asked for and, at the end, that the tools are done.
 * The turn's outputs together are capped so one step cannot flood the context.
 */
export async function executeTools(scope: RunScope, input: ExecuteToolsInput, signal: AbortSignal, send: (event: RunMachineEvent) => void): Promise<void> {
  const { plan, publisher } = scope;
  const mode = scope.mode(input.mode);
  const sandbox = plan.sandboxFor(mode);
  const hooks = runHooksOf(plan.hooks);
  const calls = turnToolCalls(input.turn);
  const outcomes = await Promise.all(
    calls.map(async (call): Promise<ToolCallOutcome> => {
      const done = input.outcomes[call.toolCallId];
      if (done) return done;
      const checked = input.checked[call.toolCallId];
      if (!checked) throw new Error(`Tool call ${call.toolCallId} was not checked before running.`);
      const executed = await runCheckedCall(checked, {
        writeLock: scope.writeLock,
        signal: scope.toolSignal,
        createContext: (tool, toolCallId, callSignal) => toolExecutionContext(scope, { toolCallId, signal: callSignal, mode, sandbox, tool }),
        // Coalesced with the step's other writes; the calls themselves are already in the checkpoint.
        onStart: async (request, args) => void (await publisher.deliverSoon([publisher.message({ type: 'tool_call', call_id: request.toolCallId, name: request.toolName, status: 'running', args })])),
      });
      const ran = await withEditFeedback(scope, executed, scope.toolSignal);
      const outcome = hooks && checked.kind === 'ready' ? await applyPostToolHooks(hooks, { agentId: plan.agentId, runId: plan.runId, cwd: plan.cwd, mode: mode.id }, checked.tool, ran, signal) : ran;
      if (signal.aborted) throw signal.reason;
      // Written before anything else awaits: a cancel from here on keeps this result.
      input.outcomes[outcome.toolCallId] = outcome;
      scope.calledTools.push(outcome.toolName);
      await reportOutcome(scope, outcome);
      const pending = takePendingModeSwitch(plan.state);
      if (pending) send({ type: 'mode.switch', to: typeof pending.to === 'string' ? pending.to : '', explanation: pending.explanation ?? '' });
      return outcome;
    }),
  );
  // Clipped outputs replace what the model reads; the events above already showed the full text.
  for (const clipped of capTurnToolOutputs(outcomes, { maxTokens: plan.turnOutputTokens })) {
    if (!outcomes.includes(clipped)) input.outcomes[clipped.toolCallId] = clipped;
  }
  await publisher.toolUpdatesWritten();
  // The results are in the next step's checkpoint; the step's events are written with it.
  await completeStep(scope, input.step, input.turn, true);
  if (signal.aborted) throw signal.reason;
  send({ type: 'tools.done' });
}

async function reportOutcome(scope: RunScope, outcome: ToolCallOutcome): Promise<void> {
  const { publisher, plan } = scope;
  const toolCall = completedToolCall(outcome, scope.toolIdOf);
  await publisher.deliverSoon([
    { kind: 'update', update: { type: 'tool-call-completed', callId: outcome.toolCallId, modelCallId: outcome.toolCallId, toolCall } },
    publisher.message({ type: 'tool_call', call_id: outcome.toolCallId, name: outcome.toolName, status: toolCall.status ?? 'completed', args: outcome.args, result: outcome.text, ...(toolCall.truncated ? { truncated: toolCall.truncated } : {}) }),
  ]);
  await plan.onStep?.({ step: { type: 'toolCall', message: toolCall } });
}
