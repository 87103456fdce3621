import type { HookCommand } from './hook-config.js';
import type { HookProcessResult } from './hook-command.js';
import { fromClaudeInput } from './hook-tool-names.js';
import type { HookEventName } from './hook-types.js';

/** What one command hook said, as the typed output of its event, and a warning for the user when it failed. */
export interface HookAnswer {
  output: HookOutput;
  warning?: string;
}

/** The union of the typed outputs (hook-types.ts); each event reads its own fields. */
export interface HookOutput {
  decision?: 'allow' | 'deny' | 'ask' | 'block';
  reason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  systemMessage?: string;
}

/** Events whose exit code 2 blocks (the reason, from stderr, goes to the model or ends the prompt). */
const blockingEvents = new Set<HookEventName>(['preToolUse', 'postToolUse', 'postToolUseFailure', 'userPromptSubmit', 'stop', 'subagentStop']);

/**
 * Read a command's exit code and output the way its format defines them: exit 0 with JSON on
 * stdout is an answer; exit 2 blocks with stderr as the reason; any other exit, a timeout or a
 * crash is a non-blocking error, reported to the user as a warning, and the run goes on.
 */
export function readHookAnswer(command: HookCommand, event: HookEventName, toolId: string | undefined, result: HookProcessResult): HookAnswer {
  const label = `Hook "${command.command}" (${command.nativeEvent}, ${command.file})`;
  if (result.startError) return { output: {}, warning: `${label} could not start: ${result.startError}.` };
  if (result.timedOut) return { output: {}, warning: `${label} timed out after ${command.timeoutMs / 1000} s and was stopped; the run went on without its answer.` };
  if (result.exitCode === null) return { output: {} };
  if (result.exitCode === 2) {
    const reason = result.stderr.trim() || `blocked by ${label}`;
    if (!blockingEvents.has(event)) return { output: {}, warning: `${label} exited with 2: ${reason}` };
    return { output: { decision: blockDecision(event), reason } };
  }
  if (result.exitCode !== 0) return { output: {}, warning: `${label} failed with exit code ${result.exitCode}${result.stderr.trim() ? `: ${result.stderr.trim()}` : ''}; the run went on.` };
  const stdout = result.stdout.trim();
  if (!stdout.startsWith('{')) return { output: plainTextOutput(command, event, stdout) };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(stdout) as Record<string, unknown>;
  } catch (error) {
    return { output: {}, warning: `${label} printed output that is not valid JSON (${(error as Error).message}); it was ignored.` };
  }
  return { output: command.format === 'claude' ? claudeOutput(event, toolId, json) : cursorOutput(command, json) };
}

function blockDecision(event: HookEventName): HookOutput['decision'] {
  return event === 'preToolUse' ? 'deny' : 'block';
}

/** Claude Code adds plain stdout of UserPromptSubmit and SessionStart hooks to the context. */
function plainTextOutput(command: HookCommand, event: HookEventName, stdout: string): HookOutput {
  if (!stdout || command.format !== 'claude') return {};
  return event === 'userPromptSubmit' || event === 'sessionStart' || event === 'subagentStart' ? { additionalContext: stdout } : {};
}

function claudeOutput(event: HookEventName, toolId: string | undefined, json: Record<string, unknown>): HookOutput {
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const output: HookOutput = {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);
  const systemMessage = text(json.systemMessage);
  if (systemMessage) output.systemMessage = systemMessage;
  const context = text(specific.additionalContext);
  if (context) output.additionalContext = context;
  if (event === 'preToolUse') {
    const decision = specific.permissionDecision ?? (json.decision === 'block' ? 'deny' : json.decision === 'approve' ? 'allow' : undefined);
    if (decision === 'allow' || decision === 'deny' || decision === 'ask') output.decision = decision;
    const reason = text(specific.permissionDecisionReason) ?? text(json.reason);
    if (reason) output.reason = reason;
    if (isObject(specific.updatedInput)) output.updatedInput = fromClaudeInput(toolId ?? '', specific.updatedInput);
  } else if (json.decision === 'block') {
    output.decision = 'block';
    const reason = text(json.reason);
    if (reason) output.reason = reason;
  }
  // `continue: false` stops what the event is about: the call, the prompt; for a stop it means "do stop".
  if (json.continue === false) {
    const reason = text(json.stopReason) ?? output.reason ?? 'a hook asked to stop';
    if (event === 'preToolUse') Object.assign(output, { decision: 'deny', reason });
    else if (event === 'stop' || event === 'subagentStop') delete output.decision;
    else if (blockingEvents.has(event)) Object.assign(output, { decision: 'block', reason });
  }
  return output;
}

function cursorOutput(command: HookCommand, json: Record<string, unknown>): HookOutput {
  const output: HookOutput = {};
  const text = (...values: unknown[]) => values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const userMessage = text(json.user_message, json.userMessage);
  const agentMessage = text(json.agent_message, json.agentMessage);
  if (userMessage) output.systemMessage = userMessage;
  if (command.event === 'preToolUse') {
    const permission = json.permission;
    if (permission === 'allow' || permission === 'deny' || permission === 'ask') output.decision = permission;
    const reason = agentMessage ?? userMessage;
    if (reason && output.decision && output.decision !== 'allow') output.reason = reason;
  } else if (command.event === 'userPromptSubmit') {
    if (json.continue === false) Object.assign(output, { decision: 'block', reason: userMessage ?? 'The prompt was blocked by a hook.' });
  } else if (command.event === 'stop') {
    const followUp = text(json.followup_message, json.followupMessage);
    if (followUp) Object.assign(output, { decision: 'block', reason: followUp });
  }
  return output;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
