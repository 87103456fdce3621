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
  return (settings) => {
    if (settings.client) return createLazyOpenAIClient(settings);
    const key = JSON.stringify([settings.apiKey, settings.baseURL, settings.headers, settings.organization, settings.project]);
    let client = clients.get(key);
    if (!client) {
      client = createLazyOpenAIClient(settings);
      clients.set(key, client);
    }
    return client;
  };
}
