import type { ProviderContext } from '@cairn/core';
import type OpenAI from 'openai';
import { createLazyOpenAIClient, type OpenAIClientSettings } from './openai-client.js';

/** The context used when a model is built without one (outside the Cairn runtime). */
export function defaultProviderContext(): ProviderContext {
  return { settings: {}, env: typeof process === 'undefined' ? {} : process.env };
}

export function stringSetting(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

export function headerSettings(...values: unknown[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, header] of Object.entries(value)) if (typeof header === 'string') headers[key] = header;
  }
  return headers;
}

export function injectedClient(...values: unknown[]): OpenAI | undefined {
  for (const value of values) {
    if (typeof value === 'object' && value !== null && 'chat' in value && 'responses' in value) return value as OpenAI;
  }
  return undefined;
}

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
