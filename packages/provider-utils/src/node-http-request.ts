import { headersToRecord } from './request-options.js';

/** What `node:http` sends for one fetch call. */
export interface NodeHttpRequestPlan {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** The exact bytes, sent with a `content-length` (never chunked); null sends none. */
  body: Uint8Array | null;
  signal: AbortSignal | undefined;
}

/**
 * The `RequestInit` keys the node:http path implements. `duplex` only matters for stream bodies
 * (which are delegated) and `keepalive` is what Node's global agents do anyway. A call with any
 * other key set (undici's `dispatcher`, `cache`, `integrity`...) goes to the platform's fetch.
 */
const handledInitKeys = new Set(['method', 'headers', 'body', 'signal', 'redirect', 'duplex', 'keepalive']);

// fetch upper-cases these six methods only (WHATWG fetch, "normalize a method"); others go as given.
const normalizedMethods = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
// undici sends `content-length: 0` for these when there is no body.
const methodsExpectingBody = new Set(['POST', 'PUT', 'PATCH']);

const encoder = new TextEncoder();

type EncodedBody = { bytes: Uint8Array | null; contentType?: string };

/** The body as bytes, or undefined when it is a kind only the platform's fetch handles (streams, Blob, FormData). */
function encodeBody(body: unknown): EncodedBody | undefined {
  if (body === null || body === undefined) return { bytes: null };
  if (typeof body === 'string') return { bytes: encoder.encode(body), contentType: 'text/plain;charset=UTF-8' };
  if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body) };
  if (ArrayBuffer.isView(body)) return { bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  if (body instanceof URLSearchParams) return { bytes: encoder.encode(body.toString()), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  return undefined;
}

function hasUnhandledInitKey(init: RequestInit): boolean {
  return Object.entries(init).some(([key, value]) => value !== undefined && !handledInitKeys.has(key));
}

/**
 * How node:http would send this call, or undefined when the platform's fetch must do it: a
 * `Request` input, a body that is not a string, bytes or URLSearchParams, a URL that is not
 * http(s), `redirect: 'manual' | 'error'`, or an init key this path does not implement.
 */
export function planNodeHttpRequest(input: string | URL | Request, init: RequestInit = {}): NodeHttpRequestPlan | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  if (hasUnhandledInitKey(init)) return undefined;
  const redirect = init.redirect ?? 'follow';
  if (redirect !== 'follow') return undefined;
  // An invalid URL throws here, as fetch throws a TypeError for one.
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const body = encodeBody(init.body);
  if (!body) return undefined;

  const upper = (init.method ?? 'GET').toUpperCase();
  const method = normalizedMethods.has(upper) ? upper : (init.method ?? 'GET');
  const headers = requestHeaders(init.headers);
  headers.accept ??= '*/*';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body.contentType) headers['content-type'] ??= body.contentType;
  if (body.bytes) headers['content-length'] = String(body.bytes.byteLength);
  else if (methodsExpectingBody.has(upper)) headers['content-length'] = '0';
  return { url, method, headers, body: body.bytes, signal: init.signal ?? undefined };
}

/**
 * The request's headers as a record with lower-case names. A `Headers` object (what the SDKs pass)
 * is read as it is: its names and values were checked when it was filled, and checking them again
 * is a good part of a request's cost in a cold process. Any other form goes through `Headers`, so
 * it is checked and combined as fetch would.
 */
function requestHeaders(init: HeadersInit | undefined): Record<string, string> {
  return headersToRecord(init instanceof Headers ? init : new Headers(init));
}
