import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { WorkspaceRule } from '../config/rules-loader.js';
import { globRulesFor } from '../config/rule-matching.js';
import { renderRuleReminder } from '../context/rules-prompt.js';
import { systemReminder } from '../context/system-prompt.js';
import type { ModelMessage, UserModelMessage } from '../spec/language-model/v1/index.js';

/** State key: paths of the glob rules already injected into this conversation. */
export const rulesAppliedStateKey = 'rulesApplied';

export function workspaceRelative(cwd: string, path: string): string {
  const rel = isAbsolute(path) ? relative(cwd, path) : path;
  return rel.split('\\').join('/').replace(/^\.\//, '');
}

/**
 * The reminder for glob rules that became relevant because a tool touched a matching file, once per
 * rule per conversation (stored in history, so later requests keep a byte-identical prefix).
 */
export function ruleReminderFor(rules: readonly WorkspaceRule[], touched: readonly string[], state: Record<string, unknown>): ModelMessage | undefined {
  const applied = new Set(Array.isArray(state[rulesAppliedStateKey]) ? (state[rulesAppliedStateKey] as string[]) : []);
  const inside = touched.filter((path) => path && !path.startsWith('../'));
  const fresh = globRulesFor(rules, inside).filter((rule) => !applied.has(rule.path));
  if (fresh.length === 0) return undefined;
  markRulesApplied(state, fresh);
  return { role: 'user', content: [{ type: 'text', text: systemReminder(renderRuleReminder(fresh, 'to files you are working with')) }] };
}

export function markRulesApplied(state: Record<string, unknown>, rules: readonly WorkspaceRule[]): void {
  const applied = new Set(Array.isArray(state[rulesAppliedStateKey]) ? (state[rulesAppliedStateKey] as string[]) : []);
  for (const rule of rules) applied.add(rule.path);
  state[rulesAppliedStateKey] = [...applied].sort();
}

export function stepReminderMessage(text: string): UserModelMessage {
  return { role: 'user', content: [{ type: 'text', text: systemReminder(text) }] };
}

const maxEditedFiles = 50;
const maxEditedBytes = 1024 * 1024;

/** Current text of files this run changed, for mode reminders (null: gone, too big or binary). */
export async function readEditedFiles(cwd: string, paths: readonly string[]): Promise<Array<{ path: string; text: string | null }>> {
  return Promise.all(
    paths.slice(0, maxEditedFiles).map(async (path) => {
      try {
        const absolute = join(cwd, path);
        if ((await stat(absolute)).size > maxEditedBytes) return { path, text: null };
        const bytes = await readFile(absolute);
        return { path, text: bytes.includes(0) ? null : bytes.toString('utf8') };
      } catch {
        return { path, text: null };
      }
    }),
  );
}
