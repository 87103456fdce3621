import http from 'node:http';
import https from 'node:https';
import { type NodeHttpRequestPlan, planNodeHttpRequest } from './node-http-request.js';
import { type BodyStream, createBodyStream, hasBody, isFollowableRedirect, toFetchResponse } from './node-http-response.js';

type Fetch = typeof globalThis.fetch;

export interface NodeHttpFetchOptions {
  /**
   * The agents for http: and https: requests. Default: Node's global agents, read at each request
   * (keep-alive is on in Node 20, and a global agent the application configured, a proxy agent
   * for one, keeps working). Tests pass an https agent that trusts their own CA.
   */
  agents?: { http?: http.Agent; https?: https.Agent };
}

/**
 * The platform's fetch, for what this transport hands over. Read at call time, so a fetch the
 * application installed is the one used; refused when that is this transport itself (it would
 * hand the call back to itself for ever).
 */
function platformFetch(self: Fetch): Fetch {
  const fetch = globalThis.fetch;
  if (fetch === self) {
    throw new TypeError('The node:http fetch cannot hand this call to globalThis.fetch, which is itself: leave the platform fetch in globalThis.fetch and pass this one where a fetch is asked for.');
  }
  return fetch;
}

/** What undici's fetch rejects with when no response came: `TypeError('fetch failed')`, the socket's error (with its `code`) as the cause. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function send(plan: NodeHttpRequestPlan, options: NodeHttpFetchOptions, followRedirect: () => Promise<Response>): Promise<Response> {
  const { signal } = plan;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const secure = plan.url.protocol === 'https:';
  const agent = secure ? options.agents?.https : options.agents?.http;
  return new Promise<Response>((resolve, reject) => {
    let body: BodyStream | undefined;
    const onAbort = () => {
      // Before the headers the call rejects with the reason; after them the body errors with it.
      if (body) return body.fail(signal?.reason);
      reject(signal?.reason);
      request.destroy();
    };
    const removeAbortListener = () => signal?.removeEventListener('abort', onAbort);

    const request = (secure ? https : http).request(plan.url, { method: plan.method, headers: plan.headers, agent }, (message) => {
      if (isFollowableRedirect(message)) {
        // Redirects are rare for API calls; the platform's fetch re-issues the call and follows
        // them with all of fetch's rules (method changes, credentials across origins, the limit).
        removeAbortListener();
        message.resume();
        resolve(followRedirect());
        return;
      }
      try {
        if (hasBody(message, plan.method)) body = createBodyStream(message, removeAbortListener);
        else {
          removeAbortListener();
          message.resume();
        }
        resolve(toFetchResponse(message, plan, body ?? null));
      } catch (error) {
        // A status or header value the Response class refuses.
        removeAbortListener();
        message.destroy();
        reject(fetchFailed(error));
      }
    });
    request.on('error', (error) => {
      if (body) return; // the body stream reports errors after the headers
      removeAbortListener();
      reject(fetchFailed(error));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(plan.body ?? undefined);
  });
}

/**
 * A function with fetch's signature that sends through `node:http` / `node:https`, returning real
 * (global) `Response` objects whose body is a web ReadableStream fed as the data arrives. Why:
 * Node's global fetch (undici) parses HTTP with llhttp compiled to WebAssembly, and compiling that
 * module costs a process about 25 MB of peak memory; node:http uses the native parser
 * (docs/providers.md, "Transport"). What it does not implement it hands, whole, to
 * `globalThis.fetch`: a `Request` input, stream / Blob / FormData bodies, non-http(s) URLs,
 * `redirect: 'manual' | 'error'`, undici's `dispatcher` or another init key it does not know,
 * and following a redirect (the call is re-issued there, so the first request is sent twice).
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): Fetch {
  const nodeHttpFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const plan = planNodeHttpRequest(input, init);
    if (!plan) return platformFetch(nodeHttpFetch)(input, init);
    return send(plan, options, async () => platformFetch(nodeHttpFetch)(input, init));
  };
  return nodeHttpFetch as Fetch;
}

/** The shared transport on Node's global agents: the providers' default in Node when the user gives no `fetch` or client. */
export const nodeHttpFetch: Fetch = createNodeHttpFetch();
