import type { ModelMessage } from '@cairn/core/spec';

/** A host name that never resolves (`.invalid` is reserved for exactly this, RFC 2606). */
export const unresolvableBaseURL = 'http://cairn-no-such-host.invalid';

function turn(index: number): ModelMessage[] {
  const callId = `call_${index}`;
  // Every fifth turn comes from a provider that signs nothing (Gemini 3 then needs a placeholder).
  const signed = index % 5 !== 0;
  const metadata = { openai: { itemId: `fc_${index}` }, google: { functionCallId: `fn_${index}`, ...(signed ? { thoughtSignature: `sig-g-${index}` } : {}) } };
  const assistant: ModelMessage = {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: `Thinking about step ${index}.`,
        ...(signed ? { signature: `sig-a-${index}` } : {}),
        providerMetadata: { openai: signed ? { itemId: `rs_${index}`, encryptedContent: `enc-${index}` } : { itemId: `rs_${index}` } },
      },
      { type: 'text', text: `Step ${index}: reading.` },
      { type: 'tool-call', toolCallId: callId, toolName: 'read_file', input: { path: `src/file-${index}.ts` }, providerMetadata: metadata },
      { type: 'tool-call', toolCallId: `${callId}_b`, toolName: 'grep', input: `{"pattern": "todo ${index}` },
    ],
  };
  const results: ModelMessage = {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: callId, toolName: 'read_file', output: index % 2 === 0 ? { type: 'text', value: `export const n = ${index};` } : { type: 'json', value: { lines: index, ok: true } } },
    ],
  };
  const late: ModelMessage = {
    role: 'tool',
    content: [
      index % 3 === 0
        ? { type: 'tool-result', toolCallId: `${callId}_b`, toolName: 'grep', output: { type: 'content', value: [{ type: 'text', text: 'screenshot' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] } }
        : { type: 'tool-result', toolCallId: `${callId}_b`, toolName: 'grep', output: { type: 'error-text', value: 'No matches.' } },
    ],
  };
  // Every fourth turn leaves its second call unanswered and gets a reminder between the results.
  if (index % 4 === 1) return [assistant, results, { role: 'user', content: [{ type: 'text', text: `Reminder ${index}.` }] }];
  return [assistant, results, late];
}

/**
 * A provider-neutral conversation of `length` messages that exercises every part kind the
 * converters handle: system text, user images (inline, URL, one GIF), reasoning with signatures and
 * provider metadata, raw tool input text, text/json/error/content results with images, consecutive
 * tool messages, a reminder between results, an unanswered call and a result nobody asked for.
 * Providers use it to check that a warm (cached) conversion equals a cold one.
 */
export function longConversation(length = 30): ModelMessage[] {
  const messages: ModelMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at these and fix the bug.' },
        { type: 'image', data: 'R0lGODlhAQABAAAAACw=', mediaType: 'image/gif' },
        { type: 'image', url: 'https://example.com/screen.png', mediaType: 'image/png' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'ghost', toolName: 'ls', output: { type: 'text', value: 'orphan' } }] },
    { role: 'assistant', content: [{ type: 'reasoning', text: 'Unsigned thoughts from another provider.' }, { type: 'text', text: 'Starting.' }] },
  ];
  for (let index = 1; messages.length < length; index++) messages.push(...turn(index));
  return messages.slice(0, length);
}

/** A fetch that counts its calls and sends them through the platform's fetch (undici, which sends `sec-fetch-mode: cors`). */
export function countingFetch(): { fetch: typeof globalThis.fetch; calls: () => number } {
  let calls = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    calls += 1;
    return globalThis.fetch(input, init);
  };
  return { fetch, calls: () => calls };
}

/** One call through a provider built with `factoryFetch` (if any) and an agent `fetch` setting (if any): the request's `sec-fetch-mode` header. */
export type TransportProbe = (factoryFetch?: typeof globalThis.fetch, agentFetch?: typeof globalThis.fetch) => Promise<unknown>;

/**
 * The transport rule every provider follows (docs/providers.md, "Transport"), observed through
 * three calls: with no fetch given, with the factory's, with the factory's and an agent's. undici's
 * fetch sends `sec-fetch-mode: cors` and node:http no such header, so the server tells them apart.
 * Compare the result with `transportRule`.
 */
export async function observeTransports(probe: TransportProbe) {
  const factory = countingFetch();
  const agent = countingFetch();
  const byDefault = await probe();
  const withFactoryFetch = await probe(factory.fetch);
  const factoryCallsAlone = factory.calls();
  const withAgentFetch = await probe(factory.fetch, agent.fetch);
  return { byDefault, withFactoryFetch, withAgentFetch, fetchCalls: { factoryAlone: factoryCallsAlone, factory: factory.calls(), agent: agent.calls() } };
}

/** What `observeTransports` sees when node:http is the default and an agent's `fetch` wins over the factory's. */
export const transportRule = { byDefault: undefined, withFactoryFetch: 'cors', withAgentFetch: 'cors', fetchCalls: { factoryAlone: 1, factory: 1, agent: 1 } } as const;
