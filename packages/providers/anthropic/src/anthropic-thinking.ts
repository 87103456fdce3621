import type { CallWarning, LanguageModelV1CallOptions, ModelCatalogEntry } from '@cairn/core/spec';

/** Thinking budgets per effort. The API's minimum budget is 1,024 tokens. */
export const thinkingBudgets = { minimal: 1_024, low: 4_096, medium: 10_000, high: 32_000 } as const;
const MIN_THINKING_BUDGET = 1_024;
/** max_tokens when neither the caller nor the catalog knows better. */
export const DEFAULT_MAX_TOKENS = 8_192;

export interface AnthropicTokenSettings {
  maxTokens: number;
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' };
  /** `output_config.effort`, sent with adaptive thinking. */
  effort?: 'low' | 'medium' | 'high';
  warnings: CallWarning[];
}

function requestedEffort(options: LanguageModelV1CallOptions): keyof typeof thinkingBudgets | undefined {
  const fromParams = options.params?.reasoning_effort;
  const effort = typeof fromParams === 'string' ? fromParams : options.reasoningEffort;
  return effort && effort in thinkingBudgets ? (effort as keyof typeof thinkingBudgets) : undefined;
}

/**
 * max_tokens and the extended-thinking setting (`providerOptions.anthropic.thinking: 'adaptive'`
 * selects adaptive thinking with an effort level, for models that want it). Thinking tokens count against max_tokens, so the
 * requested answer length is added on top of the budget (capped by the model's limit), and the
 * budget shrinks when the cap leaves too little room.
 */
export function resolveAnthropicTokens(options: LanguageModelV1CallOptions, entry: ModelCatalogEntry | undefined): AnthropicTokenSettings {
  const warnings: CallWarning[] = [];
  const modelLimit = entry?.maxOutputTokens;
  const answerTokens = options.maxOutputTokens ?? Math.min(modelLimit ?? DEFAULT_MAX_TOKENS, 32_000);
  const effort = requestedEffort(options);
  if (!effort) return { maxTokens: modelLimit ? Math.min(answerTokens, modelLimit) : answerTokens, warnings };
  if (entry && !entry.capabilities.reasoning) {
    warnings.push({ type: 'unsupported-setting', setting: 'reasoningEffort', message: `${entry.id} does not support extended thinking.` });
    return { maxTokens: Math.min(answerTokens, entry.maxOutputTokens), warnings };
  }
  if (options.toolChoice?.type === 'required' || options.toolChoice?.type === 'tool') {
    warnings.push({ type: 'unsupported-setting', setting: 'reasoningEffort', message: 'Extended thinking cannot be combined with a forced tool choice; thinking was turned off.' });
    return { maxTokens: modelLimit ? Math.min(answerTokens, modelLimit) : answerTokens, warnings };
  }
  if (options.providerOptions?.anthropic?.thinking === 'adaptive') {
    // Newer models decide the budget themselves and take an effort level instead.
    const maxTokens = modelLimit ? Math.min(answerTokens, modelLimit) : answerTokens;
    return { maxTokens, thinking: { type: 'adaptive' }, effort: effort === 'minimal' ? 'low' : effort, warnings };
  }
  let budget: number = thinkingBudgets[effort];
  let maxTokens = answerTokens + budget;
  if (modelLimit && maxTokens > modelLimit) {
    maxTokens = modelLimit;
    budget = Math.max(MIN_THINKING_BUDGET, Math.min(budget, maxTokens - Math.min(answerTokens, maxTokens / 2)));
  }
  if (budget >= maxTokens) budget = Math.max(MIN_THINKING_BUDGET, maxTokens - 1);
  if (budget >= maxTokens) maxTokens = budget + 1;
  return { maxTokens, thinking: { type: 'enabled', budget_tokens: Math.floor(budget) }, warnings };
}
