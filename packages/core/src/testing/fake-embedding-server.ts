import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally } from './local-http-server.js';
import { geminiErrorBody } from './fake-gemini-server.js';
import { hashedEmbedding } from './hashed-embedding.js';

/** An injected answer instead of the vectors: an HTTP error with optional headers (`retry-after`) and body. */
export interface EmbeddingFailure {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeEmbeddingServerOptions {
  /** Vector length for models without a known one (default 64); a request's `dimensions` / `outputDimensionality` wins. */
  dimensions?: number;
  /** Synonyms mapped to one word before hashing (see `hashedEmbedding`). */
  concepts?: Record<string, string>;
  /** Decide per request (0-based index over every embedding request) whether it fails. */
  failures?: (requestIndex: number, inputs: string[]) => EmbeddingFailure | undefined;
}

export interface FakeEmbeddingServer {
  /** The server's root; OpenAI-style clients take `${url}/v1`, Gemini's takes `url` as is. */
  url: string;
  /** Embedding requests received (failed ones included). */
  readonly requests: number;
  /** Every input text of the requests that were answered, in order. */
  readonly inputs: string[];
  /** Paths and models of every request, in order. */
  readonly received: Array<{ path: string; model: string; inputs: number; status: number; authorization?: string }>;
  /** Replace the failure rule (e.g. fail from now on, then recover). `undefined` answers every request. */
  setFailures(failures: FakeEmbeddingServerOptions['failures']): void;
  /** Forget the counters (not the failure rule). */
  resetCounts(): void;
  /** The vector the server answers for `text` with that many dimensions. */
  embed(text: string, dimensions?: number): number[];
  close(): Promise<void>;
}

// Sizes of the real models, so an adapter that knows them gets vectors of that length.
const knownDimensions: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
  'nomic-embed-text': 768,
};

interface ParsedRequest {
  wire: 'openai' | 'gemini';
  model: string;
  inputs: string[];
  dimensions?: number;
}

function parseRequest(path: string, body: Record<string, any>): ParsedRequest | string {
  const gemini = /\/models\/([^/:]+):batchEmbedContents$/.exec(path.split('?')[0] ?? '');
  if (gemini) {
    if (!Array.isArray(body.requests) || body.requests.length === 0) return 'requests must be a non-empty array';
    if (body.requests.length > 100) return 'at most 100 requests per batch';
    const inputs = body.requests.map((request: any) => (request?.content?.parts ?? []).map((part: any) => String(part?.text ?? '')).join(''));
    const dimensions = body.requests[0]?.outputDimensionality;
    return { wire: 'gemini', model: decodeURIComponent(gemini[1]!), inputs, ...(typeof dimensions === 'number' ? { dimensions } : {}) };
  }
  if (!/(^|\/)embeddings$/.test(path.split('?')[0] ?? '')) return 'unknown path';
  if (typeof body.model !== 'string' || !body.model) return 'model is required';
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || input.some((item) => typeof item !== 'string')) return 'input must be a string or a non-empty array of strings';
  if (input.length > 2048) return 'at most 2048 inputs per request';
  if (body.encoding_format !== undefined && body.encoding_format !== 'float') return `encoding_format ${String(body.encoding_format)} is not supported by this server`;
  return { wire: 'openai', model: body.model, inputs: input, ...(typeof body.dimensions === 'number' ? { dimensions: body.dimensions } : {}) };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function errorBody(wire: 'openai' | 'gemini', status: number, message: string): unknown {
  return wire === 'gemini' ? geminiErrorBody(status, message) : { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } };
}

/**
 * A deterministic local embedding server for tests and benchmarks: OpenAI's `POST /v1/embeddings`
 * (also what Ollama, vLLM and LM Studio serve) and Gemini's `batchEmbedContents`. Vectors are a
 * hashed bag of words of each input, so similar texts are near. Binds to 127.0.0.1 only.
 */
export async function startFakeEmbeddingServer(options: FakeEmbeddingServerOptions = {}): Promise<FakeEmbeddingServer> {
  const defaultDimensions = options.dimensions ?? 64;
  let failures = options.failures;
  let requests = 0;
  const inputs: string[] = [];
  const received: FakeEmbeddingServer['received'] = [];
  const embed = (text: string, dimensions = defaultDimensions) => hashedEmbedding(text, { dimensions, ...(options.concepts ? { concepts: options.concepts } : {}) });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    let body: Record<string, any>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, any>;
    } catch {
      return sendJson(response, 400, { error: { message: 'body is not JSON' } });
    }
    const parsed = parseRequest(path, body);
    if (typeof parsed === 'string') return sendJson(response, parsed === 'unknown path' ? 404 : 400, { error: { message: `${parsed} (${path})` } });
    const index = requests++;
    const authorization = request.headers.authorization ?? (request.headers['x-goog-api-key'] as string | undefined);
    const failure = failures?.(index, parsed.inputs);
    received.push({ path, model: parsed.model, inputs: parsed.inputs.length, status: failure?.status ?? 200, ...(authorization ? { authorization } : {}) });
    if (failure) return sendJson(response, failure.status, failure.body ?? errorBody(parsed.wire, failure.status, `injected failure of request ${index + 1}`), failure.headers);
    inputs.push(...parsed.inputs);
    const dimensions = parsed.dimensions ?? knownDimensions[parsed.model.replace(/^models\//, '').replace(/:.*$/, '')] ?? defaultDimensions;
    const vectors = parsed.inputs.map((text) => embed(text, dimensions));
    if (parsed.wire === 'gemini') return sendJson(response, 200, { embeddings: vectors.map((values) => ({ values })) });
    const tokens = parsed.inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
    sendJson(response, 200, {
      object: 'list',
      model: parsed.model,
      data: vectors.map((embedding, position) => ({ object: 'embedding', index: position, embedding })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  const listening = await listenLocally(handle, (response, error) => sendJson(response, 500, { error: { message: `fake embedding server failed: ${String(error)}` } }));
  return {
    url: listening.origin,
    get requests() {
      return requests;
    },
    inputs,
    received,
    setFailures(next) {
      failures = next;
    },
    resetCounts() {
      requests = 0;
      inputs.length = 0;
      received.length = 0;
    },
    embed,
    close: () => listening.close(),
  };
}
