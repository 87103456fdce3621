import type { LanguageModelV1Usage } from '../spec/language-model/v1/index.js';

/** Whether a turn's usage holds any figure: adapters report every figure undefined for a server that sent no usage. */
export function hasUsageFigures(usage: LanguageModelV1Usage | undefined): usage is LanguageModelV1Usage {
  if (!usage) return false;
  return [...Object.values(usage.inputTokens), ...Object.values(usage.outputTokens)].some((figure) => figure !== undefined);
}
