import { sdkFetch } from '@cairn/provider-utils';
import type { GoogleGenAI } from '@google/genai';

export interface GoogleClientConfig {
  client?: GoogleGenAI;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  apiVersion?: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * The SDK client, built on first use (a dynamic import keeps start-up fast). Retries are off
 * (`attempts: 1`) because the runtime owns retries; `vertexai: false` keeps the environment's
 * GOOGLE_GENAI_USE_VERTEXAI from switching the backend under us.
 */
export function lazyGoogleClient(config: GoogleClientConfig): () => Promise<GoogleGenAI> {
  let client: Promise<GoogleGenAI> | undefined;
  return () => {
    if (config.client) return Promise.resolve(config.client);
    // Without a `fetch` setting, Node's own HTTP client in Node (docs/providers.md, "Transport").
    client ??= Promise.all([import('@google/genai'), sdkFetch(config.fetch, () => import('@cairn/provider-utils/node-http'))]).then(
      ([{ GoogleGenAI: Client }, fetch]) =>
        new Client({
          vertexai: false,
          apiKey: config.apiKey,
          ...(config.apiVersion ? { apiVersion: config.apiVersion } : {}),
          httpOptions: {
            retryOptions: { attempts: 1 },
            ...(config.baseURL ? { baseUrl: config.baseURL } : {}),
            ...(config.headers ? { headers: config.headers } : {}),
            ...(fetch ? { fetch } : {}),
          },
        }),
    );
    return client;
  };
}

/** The Gemini Developer API's default base URL, for error messages (the SDK's own default). */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * Per-call `httpOptions`: the call's headers over the configured ones (the SDK merges these over
 * the client's), and SDK retries off again, so an injected client with retries of its own does not
 * retry under the runtime's retries.
 */
export function googleCallHttpOptions(configured: Record<string, string> | undefined, call: Record<string, string> | undefined) {
  return { retryOptions: { attempts: 1 }, ...(call ? { headers: { ...(configured ?? {}), ...call } } : {}) };
}
