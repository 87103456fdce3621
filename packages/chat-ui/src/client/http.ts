import { apiErrorOf, networkError } from './api-error.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface HttpOptions {
  baseUrl: string;
  token: string;
  fetch: FetchLike;
}

export type Query = Record<string, string | number | boolean | undefined>;

/** `/v1/runs/x?after=3`: the path with the query's defined values, URL-encoded. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** One path segment (an id, an artifact path with its slashes), safe inside a route. */
export const segment = (value: string) => encodeURIComponent(value);

/**
 * Send one authorized request and return the response when it is 2xx; otherwise throw the
 * server's error as a CairnApiError. The bearer token always goes in the header, never the URL.
 */
export async function send(http: HttpOptions, method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${http.token}`);
  if (body !== undefined) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await http.fetch(`${http.baseUrl}${path}`, { ...init, method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw networkError(error);
  }
  if (!response.ok) throw await apiErrorOf(response);
  return response;
}

/** `send`, then the JSON body (undefined for a `204`). */
export async function sendJson<T>(http: HttpOptions, method: string, path: string, body?: unknown, init?: RequestInit): Promise<T> {
  const response = await send(http, method, path, body, init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
