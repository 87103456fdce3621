import { mentionedRules, pathsMentioned, globRulesFor } from '../config/rule-matching.js';
import { homedir } from 'node:os';
import { assertNoUnsupportedConfigFiles } from '../config/unsupported-config-files.js';
import { cairnHome, type WorkspaceConfig } from '../config/workspace-config.js';
import { renderRuleReminder } from '../context/rules-prompt.js';
import { buildSystemPrompt, systemReminder } from '../context/system-prompt.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import { markRulesApplied, rulesAppliedStateKey } from './rules-reminders.js';
import { loadWorkspaceConfigCached } from './workspace-scan-cache.js';

export interface SendSettings {
  config: WorkspaceConfig;
  systemPrompt: string;
}

/**
 * The on-disk layers for one send, re-read every time (so `agent.reload()` only has to refresh the
 * agent record): rules for the system prompt and reminders, permission layers for the checker.
 */
export async function loadSendSettings(options: AgentOptions, cwd: string, modes: readonly ModeDefinition[], mcp: boolean): Promise<SendSettings> {
  await assertLoadableConfigFiles(options, cwd, mcp);
  const config = await loadWorkspaceConfigCached({ root: cwd, env: options.env ?? process.env, ...(options.local?.settingSources ? { settingSources: options.local.settingSources } : {}) });
  const systemPrompt = buildSystemPrompt({
    rules: config.rules,
    modes: modes.length > 1 ? modes.map((mode) => ({ id: mode.id, description: mode.description })) : [],
    ...(options.systemPrompt?.append ? { append: options.systemPrompt.append } : {}),
  });
  return { config, systemPrompt };
}

/**
 * Refuse hook, MCP and subagent files of the layers local.settingSources names (see
 * unsupported-config-files.ts). Checked at create/resume and again at every send: files can appear later.
 */
/** Settings files of a send; a broken one is returned as the error (the run ends with it, closed, not thrown). */
export async function loadSendSettingsOrError(options: AgentOptions, cwd: string, modes: readonly ModeDefinition[], mcp: boolean): Promise<{ value: SendSettings; error?: Error & { code?: string } }> {
  try {
    return { value: await loadSendSettings(options, cwd, modes, mcp) };
  } catch (error) {
    const value: SendSettings = { config: { sources: { project: false, user: false, projectTrusted: false, userTrusted: false }, rules: [], permissionLayers: [] }, systemPrompt: '' };
    return { value, error: error as Error & { code?: string } };
  }
}

/** `mcp`: an MCP plugin is registered, so MCP config files are loaded, not refused. */
export async function assertLoadableConfigFiles(options: Pick<AgentOptions, 'env' | 'local'>, cwd: string, mcp: boolean): Promise<void> {
  const sources = options.local?.settingSources;
  if (!sources?.length) return;
  const env = options.env ?? process.env;
  await assertNoUnsupportedConfigFiles({
    root: cwd,
    userHome: env.HOME?.trim() || homedir(),
    cairnHome: cairnHome(env),
    project: sources.includes('project') || sources.includes('all'),
    user: sources.includes('user') || sources.includes('all'),
    mcp,
  });
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
