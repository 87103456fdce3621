import type { LanguageModelV1Usage } from '@cairn/core/spec';

/** `usageMetadata` of a GenerateContentResponse (the fields we read). */
export interface GoogleUsageMetadataLike {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
  [key: string]: unknown;
}

/**
 * Gemini counts the cached part inside `promptTokenCount` and the thinking OUTSIDE
 * `candidatesTokenCount`, so output total = candidates + thoughts. Gemini's implicit cache has no
 * write charge, so cache write stays undefined.
 */
export function mapGoogleUsage(usage: GoogleUsageMetadataLike | undefined): LanguageModelV1Usage {
  const prompt = usage?.promptTokenCount;
  const cached = usage?.cachedContentTokenCount;
  const candidates = usage?.candidatesTokenCount;
  const thoughts = usage?.thoughtsTokenCount;
  const anyOutput = candidates !== undefined || thoughts !== undefined;
  return {
    inputTokens: {
      total: prompt,
      noCache: prompt === undefined ? undefined : prompt - (cached ?? 0),
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: { total: anyOutput ? (candidates ?? 0) + (thoughts ?? 0) : undefined, text: candidates, reasoning: thoughts },
    raw: usage,
  };
}
