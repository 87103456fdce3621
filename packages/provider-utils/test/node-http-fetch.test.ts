// The node:http transport against a real local server: what goes on the wire, what comes back,
// and what it hands to the platform's fetch.
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../src/node-http-fetch.js';
import { type Handler, startTestServer, type TestServer } from './node-http-test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler): Promise<TestServer> {
  server = await startTestServer(handler);
  return server;
}

const ok: Handler = (_request, response) => response.end('ok');

describe('nodeHttpFetch: requests', () => {
  it('sends a string body with its byte length and fetch’s default content-type, never chunked', async () => {
    const { url, requests } = await serve(ok);
    const response = await nodeHttpFetch(`${url}/v1/chat`, { method: 'POST', body: 'héllo ✓' });
    expect(await response.text()).toBe('ok');
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat');
    expect(request?.body.toString('utf8')).toBe('héllo ✓');
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength('héllo ✓')));
    expect(request?.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(request?.headers['transfer-encoding']).toBeUndefined();
  });

  it('sends Uint8Array, ArrayBuffer, DataView and URLSearchParams bodies with content-length; an empty POST says 0', async () => {
    const { url, requests } = await serve(ok);
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const offset = new Uint8Array([9, 9, 1, 2, 3, 9]).subarray(2, 5);
    for (const body of [bytes, bytes.buffer, new DataView(offset.buffer, offset.byteOffset, offset.byteLength), new URLSearchParams({ q: 'a b' })]) {
      await (await nodeHttpFetch(url, { method: 'PUT', body })).text();
    }
    await (await nodeHttpFetch(url, { method: 'POST' })).text();
    expect(requests.map((request) => [...request.body])).toEqual([[0, 1, 2, 250, 255], [0, 1, 2, 250, 255], [1, 2, 3], [...Buffer.from('q=a+b')], []]);
    expect(requests.map((request) => request.headers['content-length'])).toEqual(['5', '5', '3', '5', '0']);
    expect(requests[3]?.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(requests[0]?.headers['content-type']).toBeUndefined();
    expect(requests.every((request) => request.headers['transfer-encoding'] === undefined)).toBe(true);
  });

  it('sends headers from a Headers object, pairs or a record, adds accept and accept-encoding only when missing, and no sec-fetch-mode', async () => {
    const { url, requests } = await serve(ok);
    await (await nodeHttpFetch(url, { headers: new Headers({ 'X-Team': 'cairn', Accept: 'text/event-stream' }) })).text();
    await (await nodeHttpFetch(url, { headers: [['x-pair', 'one'], ['accept-encoding', 'identity']] })).text();
    await (await nodeHttpFetch(new URL(url), { method: 'get', headers: { Authorization: 'Bearer sk-test' } })).text();
    expect(requests[0]?.headers).toMatchObject({ 'x-team': 'cairn', accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' });
    expect(requests[1]?.headers).toMatchObject({ 'x-pair': 'one', accept: '*/*', 'accept-encoding': 'identity' });
    expect(requests[2]?.headers).toMatchObject({ authorization: 'Bearer sk-test', accept: '*/*' });
    expect(requests[2]?.method).toBe('GET');
    // undici's fetch sends sec-fetch-mode: cors; node:http does not (the provider tests tell the paths apart by it).
    expect(requests.map((request) => request.headers['sec-fetch-mode'])).toEqual([undefined, undefined, undefined]);
  });
});

describe('nodeHttpFetch: responses', () => {
  it('returns a real Response: status, status text, repeated headers, the request URL without its fragment', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(201, 'Made It', [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['X-Request-Id', 'req_1'], ['Content-Type', 'application/json']]);
      response.end('{"ok":true}');
    });
    const response = await nodeHttpFetch(`${url}/v1/x?y=1#frag`);
    expect(response).toBeInstanceOf(Response);
    expect(response.headers).toBeInstanceOf(Headers);
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Made It', true]);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.url).toBe(`${url}/v1/x?y=1`);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('streams: the first chunk is readable before the server ends the response', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { url } = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      // The server only goes on once the client has read the first event: a buffering transport never gets there.
      await released;
      response.end('data: second\n\n');
    });
    const response = await nodeHttpFetch(url);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: first\n\n');
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value);
    expect(rest).toBe('data: second\n\n');
  });

  it.each([
    ['gzip', zlib.gzipSync],
    ['x-gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const)('decodes a %s response and keeps the content-encoding header', async (coding, compress) => {
    const text = `{"text":"${'compressible '.repeat(500)}"}`;
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': coding, 'content-type': 'application/json' });
      response.end(compress(Buffer.from(text)));
    });
    const response = await nodeHttpFetch(url);
    expect(response.headers.get('content-encoding')).toBe(coding);
    expect(await response.text()).toBe(text);
  });

  it('decodes stacked codings last-applied first, and leaves an unknown coding as it came', async () => {
    const { url } = await serve((request, response) => {
      if (request.path === '/stacked') {
        response.writeHead(200, { 'content-encoding': 'gzip, br' });
        response.end(zlib.brotliCompressSync(zlib.gzipSync('two layers')));
      } else {
        response.writeHead(200, { 'content-encoding': 'zstd-unknown' });
        response.end('raw bytes');
      }
    });
    expect(await (await nodeHttpFetch(`${url}/stacked`)).text()).toBe('two layers');
    expect(await (await nodeHttpFetch(`${url}/unknown`)).text()).toBe('raw bytes');
  });

  it('gives 204, 205, 304 and HEAD responses a null body, and the connection is reused after them', async () => {
    const { url, requests } = await serve((request, response) => {
      const status = Number(request.path.slice(1)) || 200;
      response.writeHead(status, { 'content-length': status === 200 ? '5' : '0' });
      response.end(status === 200 && request.method !== 'HEAD' ? 'hello' : undefined);
    });
    for (const status of [204, 205, 304]) {
      const response = await nodeHttpFetch(`${url}/${status}`);
      expect([response.status, response.body]).toEqual([status, null]);
    }
    const head = await nodeHttpFetch(url, { method: 'HEAD' });
    expect([head.status, head.body, head.headers.get('content-length')]).toEqual([200, null, '5']);
    expect(await (await nodeHttpFetch(url)).text()).toBe('hello');
    expect(requests).toHaveLength(5);
  });
});

describe('nodeHttpFetch: what it hands to the platform fetch', () => {
  it('follows a redirect by re-issuing the call through globalThis.fetch (the first request is sent twice)', async () => {
    const { url, requests } = await serve((request, response) => {
      if (request.path === '/old') {
        response.writeHead(307, { location: '/new' });
        response.end('moved');
      } else response.end(`arrived with ${request.body.toString()}`);
    });
    const response = await nodeHttpFetch(`${url}/old`, { method: 'POST', body: 'payload' });
    expect(await response.text()).toBe('arrived with payload');
    expect(response.url).toBe(`${url}/new`);
    expect(response.redirected).toBe(true);
    expect(requests.map((request) => [request.path, request.headers['sec-fetch-mode']])).toEqual([
      ['/old', undefined],
      ['/old', 'cors'],
      ['/new', 'cors'],
    ]);
  });

  it('delegates a Request input, a stream body, redirect: manual, an init key it does not implement and a data: URL', async () => {
    const { url, requests } = await serve((request, response) => {
      if (request.path === '/redirect') {
        response.writeHead(302, { location: '/elsewhere' });
        response.end();
      } else response.end(request.body);
    });
    expect(await (await nodeHttpFetch(new Request(`${url}/request`, { method: 'POST', body: 'from a Request' }))).text()).toBe('from a Request');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    expect(await (await nodeHttpFetch(`${url}/stream`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit)).text()).toBe('streamed');
    const manual = await nodeHttpFetch(`${url}/redirect`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/elsewhere']);
    await (await nodeHttpFetch(`${url}/dispatcher`, { cache: 'no-store', signal: undefined })).text();
    expect(requests.map((request) => [request.path, request.headers['sec-fetch-mode']])).toEqual([
      ['/request', 'cors'],
      ['/stream', 'cors'],
      ['/redirect', 'cors'],
      ['/dispatcher', 'cors'],
    ]);
    expect(await (await nodeHttpFetch('data:text/plain,from%20data')).text()).toBe('from data');
  });

  it('rejects an invalid URL with a TypeError, as fetch does, and refuses to hand a call to itself', async () => {
    await expect(nodeHttpFetch('not a url')).rejects.toBeInstanceOf(TypeError);
    const platform = globalThis.fetch;
    globalThis.fetch = nodeHttpFetch;
    try {
      await expect(nodeHttpFetch('data:text/plain,x')).rejects.toThrowError('leave the platform fetch in globalThis.fetch');
    } finally {
      globalThis.fetch = platform;
    }
  });
});
