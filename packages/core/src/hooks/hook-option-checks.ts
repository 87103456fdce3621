import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentHooks } from './hook-types.js';

const hookEvents: ReadonlyArray<keyof AgentHooks> = [
  'sessionStart', 'sessionEnd', 'userPromptSubmit', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'afterFileEdit', 'preCompact', 'stop', 'subagentStart', 'subagentStop', 'notification',
];

/**
 * Check `hooks`, `local.hookConfigFiles` and `local.trustProjectHooks` at Agent.create and
 * Agent.resume: a misspelt event would be a hook that never runs, so it is refused with the list.
 */
export function assertHookOptions(options: { hooks?: unknown; hookTimeoutMs?: unknown; local?: { hookConfigFiles?: unknown; trustProjectHooks?: unknown } }, where: string): void {
  const hooks = options.hooks;
  if (hooks !== undefined) {
    if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) throw new ConfigurationError(`${where}: hooks must be an object of callbacks, e.g. { preToolUse: (input) => ({ decision: 'deny', reason: '...' }) }.`);
    for (const [name, callback] of Object.entries(hooks)) {
      if (!(hookEvents as readonly string[]).includes(name)) throw new ConfigurationError(`${where}: hooks.${name} is not a hook event. Known events: ${hookEvents.join(', ')}.`);
      if (callback !== undefined && typeof callback !== 'function') throw new ConfigurationError(`${where}: hooks.${name} must be a function (input, context) => answer.`);
    }
  }
  const timeout = options.hookTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)) {
    throw new ConfigurationError(`${where}: hookTimeoutMs must be a positive number of milliseconds (how long one hooks callback may take), got ${JSON.stringify(timeout)}.`);
  }
  const files: unknown = options.local?.hookConfigFiles;
  if (files !== undefined && !(Array.isArray(files) && files.every((layer) => layer === 'project' || layer === 'user'))) {
    throw new ConfigurationError(`${where}: local.hookConfigFiles must be an array of "project" and "user" (the hooks-file layers to load), got ${JSON.stringify(files)}.`);
  }
  const trust: unknown = options.local?.trustProjectHooks;
  if (trust !== undefined && typeof trust !== 'function') throw new ConfigurationError(`${where}: local.trustProjectHooks must be a function (file) => boolean | Promise<boolean>.`);
}
