import type { ToolExecutionContext } from '@cairn/core';

/**
 * A setting for one tool: `settings[toolId][key]` (the spec's per-tool `toolSettings[toolId]`) or,
 * when the runtime hands over the whole bag flat, `settings[key]`.
 */
export function toolSetting(context: ToolExecutionContext, toolId: string, key: string): unknown {
  const settings = context.settings ?? {};
  const scoped = settings[toolId];
  if (scoped && typeof scoped === 'object' && key in scoped) return (scoped as Record<string, unknown>)[key];
  return settings[key];
}

export function numberSetting(context: ToolExecutionContext, toolId: string, key: string, fallback: number): number {
  const value = toolSetting(context, toolId, key);
  return typeof value === 'number' && value > 0 ? value : fallback;
}

/** The explicit bypass for protected paths; `allowProtectedPathWrites` is the agent option's name. */
export function protectedWritesAllowed(context: ToolExecutionContext, toolId: string): boolean {
  return toolSetting(context, toolId, 'allowProtectedWrites') === true || toolSetting(context, toolId, 'allowProtectedPathWrites') === true;
}
