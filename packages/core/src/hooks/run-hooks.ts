import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { AgentHooks, HookContext, HookEventName } from './hook-types.js';
import type { HookEventInputs, HookEventOutputs } from './hook-payloads.js';

export const runHooksBrand = Symbol.for('cairn.hooks.run');

type Dispatch<Name extends HookEventName> = (input: HookEventInputs[Name], context?: HookContext) => Promise<HookEventOutputs[Name]>;

/**
 * The hooks of one run as the runtime calls them (hook-dispatcher.ts): every event's file hooks and
 * typed callback, combined into one answer. This module is tiny on purpose: the runtime imports it
 * on every path, the dispatcher (and child_process) only loads for agents that have hooks.
 */
export interface RunHooks extends AgentHooks {
  readonly [runHooksBrand]: true;
  has(event: HookEventName): boolean;
  noteConversation(messages: readonly ModelMessage[]): void;
  /** Context pre-tool hooks gave for a call (by call id), added to its result once it ran. */
  readonly toolNotes: Map<string, string>;
  preToolUse: Dispatch<'preToolUse'>;
  postToolUse: Dispatch<'postToolUse'>;
  postToolUseFailure: Dispatch<'postToolUseFailure'>;
  userPromptSubmit: Dispatch<'userPromptSubmit'>;
  sessionStart: Dispatch<'sessionStart'>;
  stop: Dispatch<'stop'>;
  subagentStart: Dispatch<'subagentStart'>;
  subagentStop: Dispatch<'subagentStop'>;
  afterFileEdit: (input: HookEventInputs['afterFileEdit'], context?: HookContext) => Promise<void>;
  notification: (input: HookEventInputs['notification'], context?: HookContext) => Promise<void>;
}

/** The run's hooks when the plan carries them (the agent always hands over a dispatcher, never raw callbacks). */
export function runHooksOf(hooks: AgentHooks | undefined): RunHooks | undefined {
  return hooks && (hooks as Partial<RunHooks>)[runHooksBrand] === true ? (hooks as RunHooks) : undefined;
}

/** How many times stop hooks may keep one run going; then the run ends, and says why. */
export const maxStopHookContinues = 5;
