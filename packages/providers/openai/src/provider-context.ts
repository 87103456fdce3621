import { asInstance } from '@cairn/provider-utils';
import type OpenAI from 'openai';
import { createLazyOpenAIClient, type OpenAIClientSettings } from './openai-client.js';

/** An injected `OpenAI` client, recognised by shape so a client from another installed copy works too. */
export const asOpenAIClient = asInstance<OpenAI>(
  'an OpenAI client (new OpenAI({...}))',
  (value) => typeof value === 'object' && value !== null && 'chat' in value && 'responses' in value,
);

export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** One lazily built SDK client per distinct configuration, shared by the provider's models. */
export function createClientCache(): (settings: OpenAIClientSettings) => () => Promise<OpenAI> {
  const clients = new Map<string, () => Promise<OpenAI>>();
  // A function has no JSON: each distinct `fetch` setting gets a number for the key.
  const fetchIds = new WeakMap<typeof globalThis.fetch, number>();
  let lastFetchId = 0;
  const fetchId = (fetch: typeof globalThis.fetch | undefined): number => {
    if (!fetch) return 0;
    let id = fetchIds.get(fetch);
    if (id === undefined) {
      id = ++lastFetchId;
      fetchIds.set(fetch, id);
    }
    return id;
  };
  return (settings) => {
    if (settings.client) return createLazyOpenAIClient(settings);
    const key = JSON.stringify([settings.apiKey, settings.baseURL, settings.headers, settings.organization, settings.project, fetchId(settings.fetch)]);
    let client = clients.get(key);
    if (!client) {
      client = createLazyOpenAIClient(settings);
      clients.set(key, client);
    }
    return client;
  };
}
