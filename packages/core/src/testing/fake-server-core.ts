import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally } from './local-http-server.js';

/** One scripted model answer: reasoning (thinking), text and/or parallel tool calls. */
export interface FakeModelTurn {
  /** Reasoning streamed before the answer (Anthropic thinking, Gemini thoughts, Responses summary). */
  reasoning?: string;
  text?: string;
  toolCalls?: Array<{ name: string; args: unknown }>;
}

/**
 * What to do instead of (or to) the normal answer of one request. `status` (with optional
 * `headers` and `body`) answers with that error; `cutAfterBytes` / `cutAfterText` stream the normal
 * answer and drop the connection after that many bytes, or right after the first occurrence of the
 * text in the stream (a dropped stream never reaches its final event).
 */
export interface FakeFailure {
  status?: number;
  headers?: Record<string, string>;
  /** The error body; a string is sent as is, anything else as JSON. */
  body?: unknown;
  cutAfterBytes?: number;
  cutAfterText?: string;
}

export type FakeTurns = FakeModelTurn[] | ((body: Record<string, any>, turnIndex: number) => FakeModelTurn);
/** Failures by request index (0-based, every request counts), or a function of the request. */
export type FakeFailures = Array<FakeFailure | undefined> | ((body: Record<string, any>, requestIndex: number) => FakeFailure | undefined);

export interface FakeServerOptions {
  turns: FakeTurns;
  failures?: FakeFailures;
  /** Send every answer in pieces of this many bytes (splits UTF-8 sequences and JSON on purpose). */
  chunkSize?: number;
}

export interface FakeProviderServer {
  /** Base URL to give the provider (what its `*_BASE_URL` variable takes). */
  url: string;
  /** Request bodies received, in order (failed and cut requests included). */
  requests: Array<Record<string, any>>;
  /** Path and headers of every request, in the same order. */
  received: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
  /** Problems found in the requests: what the real API would have rejected with a 400. */
  problems: string[];
  close(): Promise<void>;
}

/** What a concrete fake (Anthropic, Gemini, Responses) plugs into the shared server. */
export interface FakeWire {
  /** Whether the path is the streaming endpoint; returns the model id when the path carries it. */
  matchPath(path: string): { model?: string } | undefined;
  validate(body: Record<string, any>, request: { path: string; headers: Record<string, string | string[] | undefined> }): string[];
  /** The SSE body for one turn. `turnIndex` counts the answered (not failed) requests. */
  render(turn: FakeModelTurn, body: Record<string, any>, turnIndex: number, model: string): string;
  /** The error body for an injected status without a body, in the provider's error format. */
  errorBody(status: number): unknown;
  notFoundBody(path: string): unknown;
}

/**
 * The HTTP part shared by the fake provider servers: records and validates requests, answers with
 * scripted turns (the last one repeats), and injects failures. Binds to 127.0.0.1 only.
 */
export async function startFakeServer(wire: FakeWire, options: FakeServerOptions, urlSuffix = ''): Promise<FakeProviderServer> {
  const requests: Array<Record<string, any>> = [];
  const received: FakeProviderServer['received'] = [];
  const problems: string[] = [];
  let turnIndex = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const matched = wire.matchPath(path);
    if (!matched) return sendJson(response, 404, wire.notFoundBody(path));
    let body: Record<string, any>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
    } catch {
      return sendJson(response, 400, wire.errorBody(400));
    }
    const requestIndex = requests.length;
    requests.push(body);
    received.push({ path, headers: request.headers });
    const failure = typeof options.failures === 'function' ? options.failures(body, requestIndex) : options.failures?.[requestIndex];
    if (failure?.status !== undefined) {
      const errorBody = failure.body ?? wire.errorBody(failure.status);
      const text = typeof errorBody === 'string' ? errorBody : JSON.stringify(errorBody);
      response.writeHead(failure.status, { 'content-type': 'application/json', ...(failure.headers ?? {}) });
      response.end(text);
      return;
    }
    problems.push(...wire.validate(body, { path, headers: request.headers }).map((problem) => `request ${requestIndex + 1}: ${problem}`));
    const turns = options.turns;
    const turn = typeof turns === 'function' ? turns(body, turnIndex) : (turns[turnIndex] ?? turns[turns.length - 1] ?? { text: '' });
    const sse = Buffer.from(wire.render(turn, body, turnIndex, matched.model ?? String(body.model ?? 'unknown')), 'utf8');
    turnIndex++;
    const cut = cutPosition(sse, failure);
    await writeMaybeCut(response, 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...(failure?.headers ?? {}) }, sse, cut, options.chunkSize);
  }

  const listening = await listenLocally(handle, (response, error) => sendJson(response, 500, { error: { message: `fake server failed: ${String(error)}` } }));
  return {
    url: `${listening.origin}${urlSuffix}`,
    requests,
    received,
    problems,
    close: () => listening.close(),
  };
}

/** Writes a response, or only its first `cut` bytes followed by a dropped connection. */
export async function writeMaybeCut(
  response: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: Buffer,
  cut: number | undefined,
  chunkSize?: number,
): Promise<void> {
  response.writeHead(status, headers);
  const end = cut ?? body.length;
  const size = chunkSize && chunkSize > 0 ? chunkSize : Math.max(end, 1);
  // Each piece is handed to the socket before the next, so the client reads them as separate chunks.
  for (let start = 0; start < end; start += size) {
    await new Promise<void>((resolve) => response.write(body.subarray(start, Math.min(start + size, end)), () => resolve()));
    if (response.destroyed) return;
  }
  if (cut === undefined) {
    response.end();
    return;
  }
  // Half-close without the final chunk: the client has the partial stream, then sees the body end early.
  response.socket?.end();
}

/** Where a failure cuts a body: after `cutAfterText`, after `cutAfterBytes`, or nowhere. */
export function cutPosition(sse: Buffer, failure: FakeFailure | undefined): number | undefined {
  if (!failure) return undefined;
  if (failure.cutAfterText !== undefined) {
    const at = sse.indexOf(failure.cutAfterText);
    if (at < 0) throw new Error(`cutAfterText ${JSON.stringify(failure.cutAfterText)} does not occur in the stream`);
    return at + Buffer.byteLength(failure.cutAfterText);
  }
  if (failure.cutAfterBytes !== undefined) return Math.min(failure.cutAfterBytes, sse.length);
  return undefined;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Splits text into pieces of at most `size` characters, as a model streams it. */
export function pieces(text: string, size: number): string[] {
  return text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
}

/** A deterministic opaque token (stands in for signatures and encrypted reasoning). */
export function opaqueToken(prefix: string, ...parts: Array<string | number>): string {
  return `${prefix}${Buffer.from(parts.join('|'), 'utf8').toString('base64')}`;
}

/** A header value as one string (first value of repeated headers). */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
