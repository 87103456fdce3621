import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PreCompactEvent, PreCompactResult } from '../runtime/compaction.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import { type HookAnswer, type HookOutput, readHookAnswer } from './hook-answers.js';
import { runHookProcess } from './hook-command.js';
import { combineHookOutputs } from './hook-compose.js';
import { defaultHookTimeoutMs, type HookCommand } from './hook-config.js';
import { type DispatchedEvent, type HookEventInputs, type HookEventOutputs, hookPayload } from './hook-payloads.js';
import { claudeToolName, cursorToolKind } from './hook-tool-names.js';
import type { HookTranscript } from './hook-transcript.js';
import type { AgentHooks, HookContext, HookEventName, ToolHookInput } from './hook-types.js';
import { type RunHooks, runHooksBrand } from './run-hooks.js';
import { untilAborted } from '../util/until-aborted.js';

export interface HookDispatcherOptions {
  /** Command hooks of the loaded files, project before user. */
  commands: readonly HookCommand[];
  /** `AgentOptions.hooks`: they run after the file hooks of the same event. */
  typed?: AgentHooks;
  /** How long one typed callback may take (`AgentOptions.hookTimeoutMs`; default: the command hooks' default). */
  typedTimeoutMs?: number;
  env: Record<string, string | undefined>;
  /** The agent's workspace: the payloads' `cwd` and the scripts' project folder for events whose input names none (preCompact). */
  cwd: string;
  transcript: HookTranscript;
  /** A hook's message for the user, or a hook that failed: shown, never fatal. */
  warn(text: string): void;
}

/** Cursor's beforeReadFile hooks get the file's content; more than this is cut. */
const readFileContentCap = 1024 * 1024;

/**
 * The hooks of one agent for one run: the file hooks and the typed callbacks of each event, run
 * in that order and combined (hook-compose.ts). It has the shape of `AgentHooks`, so the runtime
 * calls every hook through it, and each answer is already the combined one. Never throws: a hook
 * that fails (a crash, a timeout, a callback that throws) is a warning and the run goes on.
 */
export class HookDispatcher implements RunHooks {
  readonly [runHooksBrand] = true;
  readonly toolNotes = new Map<string, string>();

  constructor(private readonly options: HookDispatcherOptions) {}

  /** Whether any hook listens to the event, so callers skip building its input otherwise. */
  has(event: HookEventName): boolean {
    return this.options.typed?.[event] !== undefined || this.options.commands.some((command) => command.event === event);
  }

  /** The conversation the transcript file shows (called before each step). */
  noteConversation(messages: readonly ModelMessage[]): void {
    this.options.transcript.note(messages);
  }

  sessionStart = (input: HookEventInputs['sessionStart'], context?: HookContext) => this.dispatch('sessionStart', input, context);
  sessionEnd = async (input: HookEventInputs['sessionEnd'], context?: HookContext) => void (await this.dispatch('sessionEnd', input, context));
  userPromptSubmit = (input: HookEventInputs['userPromptSubmit'], context?: HookContext) => this.dispatch('userPromptSubmit', input, context);
  preToolUse = (input: HookEventInputs['preToolUse'], context?: HookContext) => this.dispatch('preToolUse', input, context);
  postToolUse = (input: HookEventInputs['postToolUse'], context?: HookContext) => this.dispatch('postToolUse', input, context);
  postToolUseFailure = (input: HookEventInputs['postToolUseFailure'], context?: HookContext) => this.dispatch('postToolUseFailure', input, context);
  afterFileEdit = async (input: HookEventInputs['afterFileEdit'], context?: HookContext) => void (await this.dispatch('afterFileEdit', input, context));
  stop = (input: HookEventInputs['stop'], context?: HookContext) => this.dispatch('stop', input, context);
  subagentStart = (input: HookEventInputs['subagentStart'], context?: HookContext) => this.dispatch('subagentStart', input, context);
  subagentStop = (input: HookEventInputs['subagentStop'], context?: HookContext) => this.dispatch('subagentStop', input, context);
  notification = async (input: HookEventInputs['notification'], context?: HookContext) => void (await this.dispatch('notification', input, context));

  preCompact = async (event: PreCompactEvent, context?: HookContext): Promise<PreCompactResult> => {
    const withCwd = { cwd: this.options.cwd, ...event };
    await this.runCommands('preCompact', withCwd, context);
    const typed = await this.runTyped('preCompact', withCwd, context);
    const instructions = typed && typeof typed === 'object' && 'instructions' in typed ? (typed as { instructions?: string }).instructions : undefined;
    return instructions ? { instructions } : undefined;
  };

  private async dispatch<Name extends Exclude<HookEventName, 'preCompact'>>(name: Name, input: HookEventInputs[Name], context: HookContext | undefined): Promise<HookEventOutputs[Name]> {
    const fromFiles = await this.runCommands(name, input, context);
    // A typed callback sees the input as the file hooks rewrote it.
    const rewritten = name === 'preToolUse' && fromFiles.updatedInput ? ({ ...input, input: fromFiles.updatedInput } as HookEventInputs[Name]) : input;
    const typed = await this.runTyped(name, rewritten, context);
    // The combination keeps each event's own fields: what the file hooks and the callback answered.
    return combineHookOutputs(typed ? [fromFiles, typed as HookOutput] : [fromFiles]) as HookEventOutputs[Name];
  }

  /** The matching command hooks of the event, in parallel, combined. */
  private async runCommands<Name extends HookEventName>(name: Name, input: HookEventInputs[Name], context: HookContext | undefined): Promise<HookOutput> {
    const commands = this.options.commands.filter((command) => command.event === name && matches(command, name, input));
    if (commands.length === 0) return {};
    await this.options.transcript.flush();
    const event: DispatchedEvent = { name, input, transcriptPath: this.options.transcript.path };
    if (commands.some((command) => command.nativeEvent === 'beforeReadFile')) event.fileContent = await readContent(input as ToolHookInput);
    const toolId = name === 'preToolUse' || name === 'postToolUse' || name === 'postToolUseFailure' ? (input as ToolHookInput).toolId : undefined;
    const answers = await Promise.all(commands.map((command) => this.runCommand(command, event, toolId, context)));
    return combineHookOutputs(answers.map((answer) => answer.output));
  }

  private async runCommand(command: HookCommand, event: DispatchedEvent, toolId: string | undefined, context: HookContext | undefined): Promise<HookAnswer> {
    // Every script gets a project folder, also for an event whose input names none.
    const cwd = (event.input as { cwd?: string }).cwd ?? this.options.cwd;
    const result = await runHookProcess({
      command: command.command,
      cwd: command.cwd,
      env: { ...this.options.env, CLAUDE_PROJECT_DIR: cwd, CURSOR_PROJECT_DIR: cwd, CAIRN_PROJECT_DIR: cwd },
      input: JSON.stringify(hookPayload(command, event)),
      timeoutMs: command.timeoutMs,
      ...(context?.signal ? { signal: context.signal } : {}),
    });
    const answer = readHookAnswer(command, event.name, toolId, result);
    if (answer.warning) this.options.warn(answer.warning);
    if (answer.output.systemMessage) this.options.warn(answer.output.systemMessage);
    return answer;
  }

  /**
   * One typed callback, bounded by `typedTimeoutMs`: its context's signal aborts at the limit (or
   * when the run is cancelled) and the run stops waiting then, whether or not the callback listens.
   */
  private async runTyped<Name extends HookEventName>(name: Name, input: HookEventInputs[Name], context: HookContext | undefined): Promise<unknown> {
    const callback = this.options.typed?.[name] as ((input: unknown, context: HookContext) => unknown) | undefined;
    if (!callback) return undefined;
    const limitMs = this.options.typedTimeoutMs ?? defaultHookTimeoutMs;
    const limit = AbortSignal.timeout(limitMs);
    const signal = context?.signal ? AbortSignal.any([context.signal, limit]) : limit;
    try {
      const output = await untilAborted(Promise.resolve().then(() => callback(input, { ...context, signal })), signal);
      const message = (output as { systemMessage?: unknown } | undefined)?.systemMessage;
      if (typeof message === 'string' && message.trim()) this.options.warn(message);
      return output ?? undefined;
    } catch (error) {
      if (context?.signal?.aborted) return undefined;
      const why = limit.aborted ? `did not answer within ${limitMs} ms (hookTimeoutMs)` : `threw: ${error instanceof Error ? error.message : String(error)}`;
      this.options.warn(`hooks.${name} ${why}; the run went on without its answer.`);
      return undefined;
    }
  }
}

/** Whether a command listens to this particular event: Cursor's tool events by tool kind, Claude Code's matchers by name. */
function matches(command: HookCommand, name: HookEventName, input: unknown): boolean {
  const call = input as ToolHookInput;
  if (command.toolFilter) return cursorToolKind(call.toolId, call.category) === command.toolFilter;
  const subjects = command.matcher ? matchSubjects(name, input) : undefined;
  if (!command.matcher || !subjects) return true;
  const pattern = new RegExp(`^(?:${command.matcher})$`);
  return subjects.some((subject) => pattern.test(subject));
}

/** What a Claude Code matcher is tested against; undefined for events without one (the matcher is ignored, as Claude Code does). */
function matchSubjects(name: HookEventName, input: unknown): string[] | undefined {
  const record = input as Record<string, unknown>;
  switch (name) {
    case 'preToolUse':
    case 'postToolUse':
    case 'postToolUseFailure': {
      const call = input as ToolHookInput;
      return [claudeToolName(call.toolId, call.toolName), call.toolName, call.toolId];
    }
    case 'sessionStart':
      return [String(record.source)];
    case 'preCompact':
      return [String(record.trigger)];
    case 'notification':
      return [String(record.notificationType)];
    case 'subagentStart':
    case 'subagentStop':
      return [String(record.subagentType)];
    default:
      return undefined;
  }
}

async function readContent(call: ToolHookInput): Promise<string> {
  try {
    const handle = await open(resolve(call.cwd, String(call.input.path ?? '')), 'r');
    try {
      const buffer = Buffer.alloc(readFileContentCap);
      const { bytesRead } = await handle.read(buffer, 0, readFileContentCap, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}
