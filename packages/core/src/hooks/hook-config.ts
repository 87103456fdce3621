import { ConfigurationError } from '../spec/errors/index.js';
import type { HookEventName } from './hook-types.js';

/** The two de-facto file formats: Cursor's `hooks.json` and the `hooks` key of Claude Code's settings. */
export type HookFormat = 'cursor' | 'claude';

/** One command of a hooks file, normalised: which Cairn event runs it, and how its payload and answer are spelled. */
export interface HookCommand {
  event: HookEventName;
  /** The event as the file names it (`beforeShellExecution`, `PreToolUse`): the payload's `hook_event_name`. */
  nativeEvent: string;
  format: HookFormat;
  /** Claude Code: a regular expression on the tool name (or the session source, compaction trigger...); absent or `*` = all. */
  matcher?: string;
  /** Cursor's tool-specific events run only for these tools. */
  toolFilter?: 'shell' | 'mcp' | 'read' | 'edit';
  command: string;
  timeoutMs: number;
  /** The file that declared it. */
  file: string;
  layer: 'project' | 'user';
  /** Where the command runs. */
  cwd: string;
}

export const defaultHookTimeoutMs = 60_000;

const cursorEvents: Record<string, Pick<HookCommand, 'event' | 'toolFilter'>> = {
  beforeShellExecution: { event: 'preToolUse', toolFilter: 'shell' },
  beforeMCPExecution: { event: 'preToolUse', toolFilter: 'mcp' },
  beforeReadFile: { event: 'preToolUse', toolFilter: 'read' },
  // Dispatched only after an edit (tool-call-hooks.ts): no tool filter, its input names no tool id.
  afterFileEdit: { event: 'afterFileEdit' },
  beforeSubmitPrompt: { event: 'userPromptSubmit' },
  stop: { event: 'stop' },
};

const claudeEvents: Record<string, HookEventName> = {
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  UserPromptSubmit: 'userPromptSubmit',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  Stop: 'stop',
  SubagentStart: 'subagentStart',
  SubagentStop: 'subagentStop',
  PreCompact: 'preCompact',
  Notification: 'notification',
};

export interface ParsedHooks {
  format: HookFormat;
  commands: HookCommand[];
  /** Events or entry kinds the file declares that Cairn does not run (said as a warning, never silently dropped). */
  unsupported: string[];
  /** The `hooks` value, for the config hash. */
  hooks: Record<string, unknown>;
}

interface ParseContext {
  file: string;
  layer: 'project' | 'user';
  /** Where commands run: the workspace, or the folder of a user-level Cursor file (Cursor resolves its paths there). */
  cwd: string;
  /** Which format the file's place says it is; `detect` for `.cairn/hooks.json`. */
  format: HookFormat | 'detect';
}

/**
 * Read a parsed hooks file. `undefined` when it declares no hooks (a Claude Code settings file
 * without a `hooks` key). A malformed file is a ConfigurationError naming the file and the entry:
 * hooks are a policy boundary, so a run never goes on without the ones it could not read.
 */
export function parseHookFile(data: unknown, context: ParseContext): ParsedHooks | undefined {
  if (!isObject(data)) throw invalid(context, 'the file must hold a JSON object');
  const hooks = data.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw invalid(context, '"hooks" must be an object that maps event names to lists of hooks');
  const format = context.format === 'detect' ? detectFormat(data, hooks) : context.format;
  const parsed: ParsedHooks = { format, commands: [], unsupported: [], hooks };
  for (const [name, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) throw invalid(context, `hooks.${name} must be a list`);
    if (format === 'cursor') readCursorEvent(name, entries, context, parsed);
    else readClaudeEvent(name, entries, context, parsed);
  }
  return parsed;
}

function detectFormat(data: Record<string, unknown>, hooks: Record<string, unknown>): HookFormat {
  if (data.version !== undefined) return 'cursor';
  const names = Object.keys(hooks);
  if (names.some((name) => name in claudeEvents)) return 'claude';
  if (names.some((name) => name in cursorEvents)) return 'cursor';
  const first = Object.values(hooks).find((entries) => Array.isArray(entries) && entries.length > 0) as unknown[] | undefined;
  return isObject(first?.[0]) && Array.isArray(first[0].hooks) ? 'claude' : 'cursor';
}

function readCursorEvent(name: string, entries: unknown[], context: ParseContext, parsed: ParsedHooks): void {
  const known = cursorEvents[name];
  if (!known) {
    parsed.unsupported.push(`Cursor event "${name}"`);
    return;
  }
  entries.forEach((entry, index) => {
    const where = `hooks.${name}[${index}]`;
    if (!isObject(entry)) throw invalid(context, `${where} must be an object such as { "command": "./hooks/check.sh" }`);
    if (entry.type !== undefined && entry.type !== 'command') {
      parsed.unsupported.push(`${where} of type "${String(entry.type)}"`);
      return;
    }
    parsed.commands.push({ ...known, nativeEvent: name, format: 'cursor', command: commandOf(entry, where, context), timeoutMs: timeoutOf(entry, where, context), file: context.file, layer: context.layer, cwd: context.cwd });
  });
}

function readClaudeEvent(name: string, groups: unknown[], context: ParseContext, parsed: ParsedHooks): void {
  const event = claudeEvents[name];
  if (!event) {
    parsed.unsupported.push(`Claude Code event "${name}"`);
    return;
  }
  groups.forEach((group, index) => {
    const where = `hooks.${name}[${index}]`;
    if (!isObject(group) || !Array.isArray(group.hooks)) throw invalid(context, `${where} must be an object such as { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] }`);
    if (group.matcher !== undefined && typeof group.matcher !== 'string') throw invalid(context, `${where}.matcher must be a string (a regular expression on the tool name)`);
    const matcher = typeof group.matcher === 'string' && group.matcher !== '' && group.matcher !== '*' ? group.matcher : undefined;
    if (matcher) assertRegExp(matcher, `${where}.matcher`, context);
    group.hooks.forEach((hook, hookIndex) => {
      const at = `${where}.hooks[${hookIndex}]`;
      if (!isObject(hook)) throw invalid(context, `${at} must be an object such as { "type": "command", "command": "./check.sh" }`);
      if (hook.type !== 'command') {
        parsed.unsupported.push(`${at} of type "${String(hook.type)}" (Cairn runs "command" hooks)`);
        return;
      }
      parsed.commands.push({ event, nativeEvent: name, format: 'claude', ...(matcher ? { matcher } : {}), command: commandOf(hook, at, context), timeoutMs: timeoutOf(hook, at, context), file: context.file, layer: context.layer, cwd: context.cwd });
    });
  });
}

function commandOf(entry: Record<string, unknown>, where: string, context: ParseContext): string {
  if (typeof entry.command !== 'string' || !entry.command.trim()) throw invalid(context, `${where}.command must be a non-empty string (the shell command to run)`);
  return entry.command;
}

/** `timeout` is in seconds in both formats. */
function timeoutOf(entry: Record<string, unknown>, where: string, context: ParseContext): number {
  if (entry.timeout === undefined) return defaultHookTimeoutMs;
  if (typeof entry.timeout !== 'number' || !(entry.timeout > 0)) throw invalid(context, `${where}.timeout must be a positive number of seconds`);
  return Math.round(entry.timeout * 1000);
}

function assertRegExp(pattern: string, where: string, context: ParseContext): void {
  try {
    new RegExp(pattern);
  } catch (error) {
    throw invalid(context, `${where} is not a valid regular expression (${(error as Error).message})`);
  }
}

function invalid(context: ParseContext, problem: string): ConfigurationError {
  return new ConfigurationError(`${context.file}: ${problem}. Fix the hooks file, or leave its layer out of local.settingSources.`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
