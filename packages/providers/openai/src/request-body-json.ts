/**
 * A request body as JSON text, assembled from the text of its parts. The messages and tool
 * definitions of a conversation are the same objects from one step to the next (each message is
 * converted once, see convert-to-openai-chat-messages.ts; the tool list once, see openai-chat-request.ts),
 * so each one is serialised once and a step serialises only what is new. The tools and the system
 * prompt alone are about 20 KB per request of a coding agent, sent again every step.
 *
 * The text equals `JSON.stringify(body)`: same keys in the same order, undefined and function
 * values left out. The cached objects must not change after they were sent (the caches they come
 * from already require that).
 */
const textOfObject = new WeakMap<object, string>();
/** Lookups answered from the cache, and serialisations done, since the module loaded (for tests). */
export const requestBodyJsonStats = { hits: 0, misses: 0 };

function cachedText(value: object): string {
  const cached = textOfObject.get(value);
  if (cached !== undefined) {
    requestBodyJsonStats.hits += 1;
    return cached;
  }
  requestBodyJsonStats.misses += 1;
  const text = JSON.stringify(value) ?? 'null';
  textOfObject.set(value, text);
  return text;
}

function arrayText(items: readonly unknown[]): string {
  return `[${items.map((item) => (typeof item === 'object' && item !== null ? cachedText(item) : (JSON.stringify(item) ?? 'null'))).join(',')}]`;
}

/**
 * How a field's value is shared between requests: `whole`, the same object (a tool list); `items`,
 * a new array of the same objects (the messages, one more each step).
 */
export type SharedFields = ReadonlyMap<string, 'whole' | 'items'>;

function fieldText(value: unknown, sharing: 'whole' | 'items' | undefined): string | undefined {
  if (sharing === 'items' && Array.isArray(value)) return arrayText(value);
  if (sharing === 'whole' && typeof value === 'object' && value !== null) return cachedText(value);
  return JSON.stringify(value);
}

/** `body` as JSON; the values of the `shared` fields (or their items) are serialised once per object. */
export function requestBodyJson(body: Record<string, unknown>, shared: SharedFields): string {
  const fields: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || typeof value === 'function') continue;
    const text = fieldText(value, shared.get(key));
    fields.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}
