import { resolve } from 'node:path';
import type { JSONValue } from '../spec/json.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { type CheckedToolCall, deniedCall, type PermissionVerdict, type ToolCallOutcome } from '../runtime/checked-tool-call.js';
import { validateToolInput } from '../runtime/tool-input-validation.js';
import { errorResult } from '../runtime/tool-result.js';
import { absolutePaths } from '../runtime/tool-runner.js';
import { cursorToolKind } from './hook-tool-names.js';
import type { RunHooks } from './run-hooks.js';

/** Who the run is, for the hooks' inputs. */
export interface ToolHookBase {
  agentId: string;
  runId: string;
  cwd: string;
  mode: string;
}

export interface PreToolHookEnvironment {
  hooks: RunHooks;
  base: ToolHookBase;
  /** Someone can answer an approval in this run (canUseTool, or approvals: 'wait'); else a hook's `ask` is a deny. */
  canAsk: boolean;
  signal: AbortSignal;
  /** The permission rules, asked again for an input a hook rewrote. */
  checkPermission(tool: ToolDefinition, input: unknown, paths: string[]): Promise<PermissionVerdict>;
}

/**
 * Pre-tool hooks of one call the rules did not deny (SPEC section 9): a hook may deny it, ask for a
 * person's approval, or rewrite its input. A rewritten input is validated and checked by the rules
 * again, so no hook answer gets a call past a deny rule; `allow` changes nothing the rules decided.
 */
export async function applyPreToolHooks(checked: CheckedToolCall, environment: PreToolHookEnvironment): Promise<CheckedToolCall> {
  if (checked.kind === 'done' || !environment.hooks.has('preToolUse')) return checked;
  const { call, tool } = checked;
  const answer = await environment.hooks.preToolUse({
    ...environment.base, toolCallId: call.toolCallId, toolId: tool.id, toolName: tool.name, category: tool.category,
    input: asRecord(checked.input), permission: checked.kind === 'ask' ? 'ask' : 'allow',
  }, { signal: environment.signal });
  if (answer.additionalContext) environment.hooks.toolNotes.set(call.toolCallId, answer.additionalContext);
  if (answer.decision === 'deny') return deniedCall(call, checked.args, `a hook refused it: ${answer.reason ?? 'no reason given'}`);
  let current = checked;
  if (answer.updatedInput) {
    const rewritten = await rewrite(checked, answer.updatedInput, environment);
    if (rewritten.kind === 'done') return rewritten;
    current = rewritten;
  }
  if (answer.decision !== 'ask' || current.kind === 'ask') return current;
  const reason = `a hook asks for approval${answer.reason ? `: ${answer.reason}` : ''}`;
  if (!environment.canAsk) return deniedCall(call, current.args, `${reason}, and no one can approve calls in this run (pass canUseTool, or approvals: 'wait')`);
  // What canUseTool (or a person answering the stored request) is shown, as for an ask rule.
  const subject = subjectOf(tool, current.input);
  const request = { toolId: tool.id, toolName: tool.name, category: tool.category, readOnly: tool.readOnly, input: current.input, paths: current.paths, cwd: environment.base.cwd, reason, interactive: false, ...(subject === undefined ? {} : { subject }) };
  return { ...current, kind: 'ask', verdict: { decision: 'ask', reason, request } };
}

function subjectOf(tool: ToolDefinition, input: unknown): string | undefined {
  try {
    return tool.ruleSubject?.(input);
  } catch {
    return undefined;
  }
}

async function rewrite(checked: Exclude<CheckedToolCall, { kind: 'done' }>, updated: Record<string, unknown>, environment: PreToolHookEnvironment): Promise<CheckedToolCall> {
  const { call, tool } = checked;
  const args = updated as JSONValue;
  const validation = validateToolInput(tool.inputSchema, updated);
  if (!validation.ok) return { kind: 'done', call, outcome: { toolCallId: call.toolCallId, toolName: call.toolName, args, ...errorResult(`A hook rewrote the arguments of ${call.toolName} into invalid ones: ${validation.message}`), invalid: false } };
  const paths = absolutePaths(tool, validation.value, environment.base.cwd);
  const verdict = await environment.checkPermission(tool, validation.value, paths);
  if (verdict.decision === 'deny') return deniedCall(call, args, verdict.reason);
  const ready = { call, tool, input: validation.value, args, paths };
  return verdict.decision === 'ask' || checked.kind === 'ask' ? { kind: 'ask', ...ready, verdict: verdict.decision === 'ask' ? verdict : (checked as { verdict: PermissionVerdict }).verdict } : { kind: 'ready', ...ready };
}

/**
 * Post-tool hooks of a call that ran: `postToolUse` for a result, `postToolUseFailure` for an
 * error result, then Cursor's `afterFileEdit` for an edit. What they say for the model (a block
 * reason, additional context) is added to the result it reads.
 */
export async function applyPostToolHooks(hooks: RunHooks, base: ToolHookBase, tool: ToolDefinition, outcome: ToolCallOutcome, signal: AbortSignal): Promise<ToolCallOutcome> {
  const call = { ...base, toolCallId: outcome.toolCallId, toolId: tool.id, toolName: tool.name, category: tool.category, input: asRecord(outcome.args) };
  const preContext = hooks.toolNotes.get(outcome.toolCallId);
  hooks.toolNotes.delete(outcome.toolCallId);
  const notes: string[] = preContext ? [preContext] : [];
  if (outcome.isError && hooks.has('postToolUseFailure')) {
    const answer = await hooks.postToolUseFailure({ ...call, error: outcome.text }, { signal });
    if (answer.additionalContext) notes.push(answer.additionalContext);
  } else if (!outcome.isError && hooks.has('postToolUse')) {
    const answer = await hooks.postToolUse({ ...call, output: outcome.text, ...(outcome.structuredContent === undefined ? {} : { structuredContent: outcome.structuredContent }) }, { signal });
    if (answer.decision === 'block') notes.push(`A hook says: ${answer.reason ?? 'the result needs attention.'}`);
    if (answer.additionalContext) notes.push(answer.additionalContext);
  }
  if (!outcome.isError && cursorToolKind(tool.id, tool.category) === 'edit' && hooks.has('afterFileEdit')) {
    const args = asRecord(outcome.args);
    await hooks.afterFileEdit({ ...base, toolCallId: outcome.toolCallId, toolName: tool.name, filePath: resolve(base.cwd, String(args.path ?? '')), edits: [editOf(args)] }, { signal });
  }
  return notes.length ? withNote(outcome, notes.join('\n\n')) : outcome;
}

/** The change an edit tool made, as Cursor reports it: `search_replace` has both sides; a write or `edit_file` only the new text. */
function editOf(args: Record<string, unknown>): { oldString: string; newString: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { oldString: text(args.old_string), newString: text(args.new_string ?? args.contents ?? args.code_edit) };
}

/** The result with a note for the model after it. */
function withNote(outcome: ToolCallOutcome, note: string): ToolCallOutcome {
  const tagged = `<hook_context>\n${note}\n</hook_context>`;
  const output = outcome.output;
  const next: ToolCallOutcome['output'] =
    output.type === 'content'
      ? { ...output, value: [...output.value, { type: 'text', text: tagged }] }
      : output.type === 'text' || output.type === 'error-text'
        ? { ...output, value: `${output.value}\n\n${tagged}` }
        : { type: output.type === 'json' ? 'text' : 'error-text', value: `${JSON.stringify(output.value)}\n\n${tagged}` };
  return { ...outcome, output: next, text: `${outcome.text}\n\n${tagged}` };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Whether someone can answer an approval in the run (the agent's approval settings: canUseTool or approvals: 'wait'). */
export function canAskTools(approvals: object): boolean {
  return (approvals as { askTools?: boolean }).askTools === true;
}
