import type { ModelMessage } from '@cairn/core/spec';

/**
 * Each message's converted form, computed once per message object. The runtime keeps the same
 * message objects from step to step (a changed message, say a pruned tool output, is a new
 * object), so a step converts only the messages that are new. Keyed weakly: a message the
 * conversation dropped takes its converted form with it.
 *
 * The cached values are shared by every later request: whoever assembles a request from them
 * must copy before changing anything (merging turns, adding cache breakpoints).
 */
export interface MessageCache<Converted> {
  get(message: ModelMessage, convert: (message: ModelMessage) => Converted): Converted;
  /** Lookups answered from the cache, and conversions done, since the cache was created. */
  readonly stats: { readonly hits: number; readonly misses: number };
}

export function createMessageCache<Converted>(): MessageCache<Converted> {
  const converted = new WeakMap<ModelMessage, Converted>();
  const stats = { hits: 0, misses: 0 };
  return {
    stats,
    get(message, convert) {
      const cached = converted.get(message);
      if (cached !== undefined) {
        stats.hits += 1;
        return cached;
      }
      stats.misses += 1;
      const result = convert(message);
      converted.set(message, result);
      return result;
    },
  };
}
