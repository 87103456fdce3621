import type { TokenUsage } from '../spec/events/v1/index.js';
import type { JSONObject } from '../spec/json.js';
import type { RunRecord } from '../spec/store/v1/index.js';

/**
 * The tokens one finished subagent spent, with the model that spent them. A parent run's `usage`
 * includes its subagents' tokens (they roll up); these entries, kept in the run record's metadata,
 * let its cost price each share at the model that used it.
 */
export interface SubagentUsage {
  model: string;
  usage: TokenUsage;
}

const subagentUsageKey = 'subagentUsage';

/** The metadata entry a parent run's record gets when it finishes (nothing when no subagent reported usage). */
export function subagentUsageMetadata(entries: readonly SubagentUsage[]): JSONObject {
  return entries.length ? { [subagentUsageKey]: entries.map((entry) => ({ model: entry.model, usage: { ...entry.usage } })) } : {};
}

/** The subagent shares recorded on a run; entries that are not well-formed are ignored. */
export function subagentUsageOf(run: Pick<RunRecord, 'metadata'>): SubagentUsage[] {
  const entries = run.metadata?.[subagentUsageKey];
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry) => {
    const candidate = entry as Partial<SubagentUsage> | null;
    return candidate && typeof candidate.model === 'string' && typeof candidate.usage?.inputTokens === 'number' ? [candidate as SubagentUsage] : [];
  });
}
