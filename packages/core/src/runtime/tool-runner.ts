import { untilAborted } from '../util/until-aborted.js';
import { isAbsolute, resolve } from 'node:path';
import { CairnError, isAbortError } from '../spec/errors/index.js';
import type { JSONValue } from '../spec/json.js';
import type { ToolDefinition, ToolExecutionContext } from '../spec/tool/v1/index.js';
import { parseToolInput } from '../machine/turn-to-message.js';
import type { KeyedLock } from './keyed-lock.js';
import { validateToolInput } from './tool-input-validation.js';
import { errorResult, normalizeToolResult } from './tool-result.js';
import type { ToolAvailability } from './tool-set.js';
import { type CheckedToolCall, deniedCall, type PermissionVerdict, type ToolCallOutcome, type ToolCallRequest } from './checked-tool-call.js';

export { type CheckedToolCall, deniedCall, type PermissionVerdict, type ToolCallOutcome, type ToolCallRequest } from './checked-tool-call.js';

export interface ToolCheckEnvironment {
  cwd: string;
  availability: Map<string, ToolAvailability>;
  checkPermission(tool: ToolDefinition, input: unknown, paths: string[]): Promise<PermissionVerdict>;
  /** Pre-tool hooks (hooks/tool-call-hooks.ts), after the rules: they may deny, ask or rewrite, never undo a deny. */
  afterPermission?(checked: CheckedToolCall): Promise<CheckedToolCall>;
}

export interface ToolRunEnvironment {
  createContext(tool: ToolDefinition, toolCallId: string, signal: AbortSignal): ToolExecutionContext;
  writeLock: KeyedLock;
  signal: AbortSignal;
  /** Called right before a permitted tool runs (for `tool_call` events). */
  onStart?(call: ToolCallRequest, args: JSONValue): Promise<void>;
}

/** Default per-call timeout when a tool sets none. */
export const defaultToolTimeoutMs = 10 * 60_000;

/**
 * Check one tool call up to the point of running it. Never throws for the call's own faults:
 * unknown tools, invalid JSON, schema failures and refusals become `done` with an error result.
 */
export async function checkToolCall(call: ToolCallRequest, environment: ToolCheckEnvironment): Promise<CheckedToolCall> {
  const parsed = parseToolInput(call.inputText);
  const base = { toolCallId: call.toolCallId, toolName: call.toolName, args: parsed.value };
  const done = (message: string, invalid: boolean): CheckedToolCall => ({ kind: 'done', call, outcome: { ...base, ...errorResult(message), invalid } });
  const entry = environment.availability.get(call.toolName);
  if (!entry) {
    const offered = [...environment.availability.values()].filter((item) => item.offered).map((item) => item.tool.name);
    return done(`Unknown tool "${call.toolName}". Available tools: ${offered.join(', ')}.`, true);
  }
  if (!entry.offered) return done(`Tool "${call.toolName}" is not available: ${entry.reason}.`, false);
  if (!parsed.ok) return done(`The arguments for ${call.toolName} are not valid JSON (${parsed.error}). Send the arguments again as one JSON object.`, true);
  const tool = entry.tool;
  const validation = validateToolInput(tool.inputSchema, parsed.value);
  if (!validation.ok) return done(`Invalid arguments for ${call.toolName}: ${validation.message.replace(/\.$/, '')}. Fix them and call the tool again.`, true);
  const paths = absolutePaths(tool, validation.value, environment.cwd);
  const verdict = await environment.checkPermission(tool, validation.value, paths);
  if (verdict.decision === 'deny') return deniedCall(call, parsed.value, verdict.reason);
  const ready = { call, tool, input: validation.value, args: parsed.value, paths };
  const checked: CheckedToolCall = verdict.decision === 'ask' ? { kind: 'ask', ...ready, verdict } : { kind: 'ready', ...ready };
  return environment.afterPermission ? environment.afterPermission(checked) : checked;
}

/**
 * Run a checked call to a result the model can read. Never throws for the tool's own failures
 * (thrown errors, time-outs become error results); only a run-level abort propagates.
 */
export async function runCheckedCall(checked: CheckedToolCall, environment: ToolRunEnvironment): Promise<ToolCallOutcome> {
  if (checked.kind === 'done') return checked.outcome;
  if (checked.kind === 'ask') throw new Error(`Tool call ${checked.call.toolCallId} still waits for approval; it cannot run.`);
  const { call, tool, input, args, paths } = checked;
  const base = { toolCallId: call.toolCallId, toolName: call.toolName, args };
  if (environment.signal.aborted) throw environment.signal.reason;
  await environment.onStart?.(call, args);
  const timeoutMs = tool.timeoutMs ?? defaultToolTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([environment.signal, timeout]);
  const execute = async (): Promise<ToolCallOutcome> => {
    try {
      const result = await untilAborted(Promise.resolve(tool.execute(input, environment.createContext(tool, call.toolCallId, signal))), signal);
      return { ...base, ...normalizeToolResult(result), invalid: false };
    } catch (error) {
      if (environment.signal.aborted) throw environment.signal.reason ?? error;
      if (timeout.aborted) return { ...base, ...errorResult(`${call.toolName} timed out after ${Math.round(timeoutMs / 1000)} s and was stopped.`), invalid: false };
      if (isAbortError(error)) return { ...base, ...errorResult(`${call.toolName} was aborted.`), invalid: false };
      return { ...base, ...errorResult(describeToolFailure(call.toolName, error)), invalid: false };
    }
  };
  return tool.readOnly || paths.length === 0 ? execute() : environment.writeLock.run(paths, execute);
}

export function absolutePaths(tool: ToolDefinition, input: unknown, cwd: string): string[] {
  try {
    return (tool.paths?.(input) ?? []).map((path) => (isAbsolute(path) ? path : resolve(cwd, path)));
  } catch {
    return [];
  }
}

function describeToolFailure(toolName: string, error: unknown): string {
  if (CairnError.isInstance(error)) return error.message;
  if (error instanceof Error) return `${toolName} failed: ${error.message}`;
  return `${toolName} failed: ${String(error)}`;
}

