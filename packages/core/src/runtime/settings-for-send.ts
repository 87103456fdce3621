import { mentionedRules, pathsMentioned, globRulesFor } from '../config/rule-matching.js';
import { loadWorkspaceConfig, type WorkspaceConfig } from '../config/workspace-config.js';
import { renderRuleReminder } from '../context/rules-prompt.js';
import { buildSystemPrompt, systemReminder } from '../context/system-prompt.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import { markRulesApplied, rulesAppliedStateKey } from './rules-reminders.js';

export interface SendSettings {
  config: WorkspaceConfig;
  systemPrompt: string;
}

/**
 * The on-disk layers for one send, re-read every time (so `agent.reload()` only has to refresh the
 * agent record): rules for the system prompt and reminders, permission layers for the checker.
 */
export async function loadSendSettings(options: AgentOptions, cwd: string, modes: readonly ModeDefinition[]): Promise<SendSettings> {
  const config = await loadWorkspaceConfig({ root: cwd, env: options.env ?? process.env, ...(options.local?.settingSources ? { settingSources: options.local.settingSources } : {}) });
  const systemPrompt = buildSystemPrompt({
    rules: config.rules,
    modes: modes.length > 1 ? modes.map((mode) => ({ id: mode.id, description: mode.description })) : [],
    ...(options.systemPrompt?.append ? { append: options.systemPrompt.append } : {}),
  });
  return { config, systemPrompt };
}

/**
 * Rules the user message brings into play: glob rules matching a path the query mentions and manual
 * rules named with `@name`, each once per conversation.
 */
export function queryRuleReminders(config: WorkspaceConfig, query: string, state: Record<string, unknown>): string[] {
  const applied = new Set(Array.isArray(state[rulesAppliedStateKey]) ? (state[rulesAppliedStateKey] as string[]) : []);
  const byGlob = globRulesFor(config.rules, pathsMentioned(query));
  const byName = mentionedRules(config.rules, query);
  const fresh = [...new Map([...byGlob, ...byName].map((rule) => [rule.path, rule])).values()].filter((rule) => !applied.has(rule.path));
  if (fresh.length === 0) return [];
  markRulesApplied(state, fresh);
  return [systemReminder(renderRuleReminder(fresh, 'to this request'))];
}
