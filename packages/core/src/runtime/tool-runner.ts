import { isAbsolute, resolve } from 'node:path';
import { CairnError, isAbortError } from '../spec/errors/index.js';
import type { JSONValue } from '../spec/json.js';
import type { ToolDefinition, ToolExecutionContext } from '../spec/tool/v1/index.js';
import { parseToolInput } from '../machine/turn-to-message.js';
import type { KeyedLock } from './keyed-lock.js';
import { validateToolInput } from './tool-input-validation.js';
import { errorResult, type NormalizedToolResult, normalizeToolResult } from './tool-result.js';
import type { ToolAvailability } from './tool-set.js';

export interface ToolCallRequest {
  toolCallId: string;
  toolName: string;
  inputText: string;
}

export interface ToolCallOutcome extends NormalizedToolResult {
  toolCallId: string;
  toolName: string;
  args: JSONValue;
  /** The call never ran: unknown tool, bad JSON, failed schema. */
  invalid: boolean;
}

export interface PermissionVerdict {
  decision: 'allow' | 'deny';
  reason: string;
}

export interface ToolRunEnvironment {
  cwd: string;
  availability: Map<string, ToolAvailability>;
  checkPermission(tool: ToolDefinition, input: unknown, paths: string[]): Promise<PermissionVerdict>;
  createContext(tool: ToolDefinition, toolCallId: string, signal: AbortSignal): ToolExecutionContext;
  writeLock: KeyedLock;
  signal: AbortSignal;
  /** Called right before a permitted tool runs and after it ends (for `tool_call` events). */
  onStart?(call: ToolCallRequest, args: JSONValue): Promise<void>;
}

/** Default per-call timeout when a tool sets none. */
export const defaultToolTimeoutMs = 10 * 60_000;

/**
 * Run one tool call to a result the model can read. Never throws for the tool's own failures:
 * unknown tools, invalid JSON, schema failures, refusals and thrown errors all become error results.
 * Only a run-level abort propagates.
 */
export async function runToolCall(call: ToolCallRequest, environment: ToolRunEnvironment): Promise<ToolCallOutcome> {
  const parsed = parseToolInput(call.inputText);
  const base = { toolCallId: call.toolCallId, toolName: call.toolName, args: parsed.value };
  const entry = environment.availability.get(call.toolName);
  if (!entry) {
    const offered = [...environment.availability.values()].filter((item) => item.offered).map((item) => item.tool.name);
    return { ...base, ...errorResult(`Unknown tool "${call.toolName}". Available tools: ${offered.join(', ')}.`), invalid: true };
  }
  if (!entry.offered) {
    return { ...base, ...errorResult(`Tool "${call.toolName}" is not available: ${entry.reason}.`), invalid: false };
  }
  if (!parsed.ok) {
    return { ...base, ...errorResult(`The arguments for ${call.toolName} are not valid JSON (${parsed.error}). Send the arguments again as one JSON object.`), invalid: true };
  }
  const tool = entry.tool;
  const validation = validateToolInput(tool.inputSchema, parsed.value);
  if (!validation.ok) {
    return { ...base, ...errorResult(`Invalid arguments for ${call.toolName}: ${validation.message}. Fix them and call the tool again.`), invalid: true };
  }
  const paths = absolutePaths(tool, validation.value, environment.cwd);
  const verdict = await environment.checkPermission(tool, validation.value, paths);
  if (verdict.decision === 'deny') {
    return { ...base, ...errorResult(`Permission denied for ${call.toolName}: ${verdict.reason}`), invalid: false };
  }
  if (environment.signal.aborted) throw environment.signal.reason;
  await environment.onStart?.(call, parsed.value);
  const timeoutMs = tool.timeoutMs ?? defaultToolTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([environment.signal, timeout]);
  const execute = async (): Promise<ToolCallOutcome> => {
    try {
      const result = await raceAbort(Promise.resolve(tool.execute(validation.value, environment.createContext(tool, call.toolCallId, signal))), signal);
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

function absolutePaths(tool: ToolDefinition, input: unknown, cwd: string): string[] {
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

/** Stop waiting for a tool that ignores its signal; the run must not hang on it. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolvePromise(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
