import type { WorkspaceRule } from '../config/rules-loader.js';

/** Always rules of a layer, each headed by where it came from. */
export function renderAlwaysRules(rules: readonly WorkspaceRule[], layer: 'project' | 'user'): string[] {
  return rules.filter((rule) => rule.layer === layer && rule.kind === 'always').map((rule) => `## ${rule.path}\n${rule.body}`);
}

/**
 * The rules the model may fetch itself: described rules (and glob rules, which also apply on their
 * own once a matching file is in play), by path and description.
 */
export function renderRuleIndex(rules: readonly WorkspaceRule[]): string | undefined {
  const listed = rules.filter((rule) => (rule.kind === 'described' || rule.kind === 'glob') && (rule.description || rule.globs.length));
  if (listed.length === 0) return undefined;
  const lines = listed.map((rule) => {
    const when = [rule.description, rule.globs.length ? `files: ${rule.globs.join(', ')}` : undefined].filter(Boolean).join(' — ');
    return `- ${rule.path}: ${when}`;
  });
  return `# Available rules\nThese rule files hold instructions for specific kinds of work. When one is relevant to the task, read it with read_file before you act, and follow it.\n${lines.join('\n')}`;
}

/** The reminder that brings glob or mentioned rules into the conversation once they apply. */
export function renderRuleReminder(rules: readonly WorkspaceRule[], reason: string): string {
  const blocks = rules.map((rule) => `## ${rule.path}${rule.globs.length ? ` (applies to ${rule.globs.join(', ')})` : ''}\n${rule.body}`);
  return `These rules apply ${reason}. Follow them.\n\n${blocks.join('\n\n')}`;
}
