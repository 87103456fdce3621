import type { CallWarning, LanguageModelV1CallOptions, ModelCatalogEntry } from '@cairn/core/spec';

/** `thinkingConfig` as sent (`ThinkingConfig` of `@google/genai`). */
export interface GoogleThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
}

export const googleThinkingBudgets = { minimal: 512, low: 2_048, medium: 8_192, high: 24_576 } as const;
type Effort = keyof typeof googleThinkingBudgets | 'off';

function requestedEffort(options: LanguageModelV1CallOptions): Effort | undefined {
  const fromParams = options.params?.reasoning_effort;
  const effort = typeof fromParams === 'string' ? fromParams : options.reasoningEffort;
  return effort === 'off' || (effort && effort in googleThinkingBudgets) ? (effort as Effort) : undefined;
}

/** Gemini 3 ids take levels; 2.5 ids take budgets; for unknown ids the name decides. */
function thinkingStyle(modelId: string, entry: ModelCatalogEntry | undefined): 'level' | 'budget' | undefined {
  const hint = entry?.providerHints?.thinking;
  if (hint === 'level' || hint === 'budget') return hint;
  if (entry && !entry.capabilities.reasoning) return undefined;
  if (/gemini-3/.test(modelId)) return 'level';
  if (/gemini-2\.5/.test(modelId)) return 'budget';
  return undefined;
}

/**
 * The thinking config for one call. Thought summaries are always asked for on thinking models, so
 * reasoning streams to the UI; the effort picks a level (Gemini 3) or a budget (Gemini 2.5).
 */
export function resolveGoogleThinking(modelId: string, options: LanguageModelV1CallOptions, entry: ModelCatalogEntry | undefined): { thinkingConfig?: GoogleThinkingConfig; warnings: CallWarning[] } {
  const warnings: CallWarning[] = [];
  const style = thinkingStyle(modelId, entry);
  const effort = requestedEffort(options);
  if (!style) {
    if (effort) warnings.push({ type: 'unsupported-setting', setting: 'reasoningEffort', message: `${modelId} does not think; reasoningEffort is ignored.` });
    return { warnings };
  }
  if (!effort) return { thinkingConfig: { includeThoughts: true }, warnings };
  if (style === 'level') {
    const levels = String(entry?.providerHints?.thinkingLevels ?? 'LOW,HIGH').split(',');
    const wanted = effort === 'off' ? 'MINIMAL' : (effort.toUpperCase() as GoogleThinkingConfig['thinkingLevel'] & string);
    const order = ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];
    // The closest supported level at or above the wanted one, else the highest.
    const level = (levels.find((candidate) => order.indexOf(candidate) >= order.indexOf(wanted)) ?? levels[levels.length - 1]) as GoogleThinkingConfig['thinkingLevel'];
    if (effort === 'off') warnings.push({ type: 'unsupported-setting', setting: 'reasoningEffort', message: `${modelId} cannot turn thinking off; using ${level}.` });
    return { thinkingConfig: { includeThoughts: true, thinkingLevel: level }, warnings };
  }
  const minimum = Number(entry?.providerHints?.minThinkingBudget ?? 128);
  const maximum = Number(entry?.providerHints?.maxThinkingBudget ?? 24_576);
  if (effort === 'off') {
    if (minimum > 0) {
      warnings.push({ type: 'unsupported-setting', setting: 'reasoningEffort', message: `${modelId} cannot turn thinking off; using the minimum budget.` });
      return { thinkingConfig: { includeThoughts: true, thinkingBudget: minimum }, warnings };
    }
    return { thinkingConfig: { thinkingBudget: 0 }, warnings };
  }
  const budget = Math.min(maximum, Math.max(minimum, googleThinkingBudgets[effort]));
  return { thinkingConfig: { includeThoughts: true, thinkingBudget: budget }, warnings };
}
