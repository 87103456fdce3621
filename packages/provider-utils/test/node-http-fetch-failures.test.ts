// How the node:http transport fails, against real servers: aborts in each phase, a refused
// connection, a connection cut mid-body, TLS with a certificate made for the test. The errors
// must look like undici's, so the SDKs and classifyNetworkError treat them as before.
import { execFileSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyNetworkError } from '../src/network-error.js';
import { createNodeHttpFetch, nodeHttpFetch } from '../src/node-http-fetch.js';
import { type Handler, startTestServer, type TestServer } from './node-http-test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler, tls?: { key: string; cert: string }): Promise<TestServer> {
  server = await startTestServer(handler, tls);
  return server;
}

function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** A promise and the function that settles it: the test decides when the server goes on. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('nodeHttpFetch: aborts', () => {
  it('an aborted signal rejects with its reason and sends nothing', async () => {
    const { url, requests } = await serve((_request, response) => response.end('ok'));
    const reason = new Error('cancelled before');
    expect(await rejection(nodeHttpFetch(url, { signal: AbortSignal.abort(reason) }))).toBe(reason);
    await (await nodeHttpFetch(url)).text();
    expect(requests).toHaveLength(1);
  });

  it('an abort while waiting for the headers rejects with the reason and removes the listener', async () => {
    const arrived = gate();
    await serve(() => arrived.open());
    const controller = new AbortController();
    const pending = rejection(nodeHttpFetch(server!.url, { method: 'POST', body: '{}', signal: controller.signal }));
    await arrived.opened;
    expect(abortListeners(controller.signal)).toBe(1);
    const reason = new DOMException('This operation was aborted', 'AbortError');
    controller.abort(reason);
    expect(await pending).toBe(reason);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('an abort mid-body errors the body stream with the reason', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
    });
    const controller = new AbortController();
    const response = await nodeHttpFetch(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n');
    const reason = new Error('stop reading');
    controller.abort(reason);
    expect(await rejection(reader.read())).toBe(reason);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('removes the listener once a body is read to its end, and for a body-less response at once', async () => {
    const checked = gate();
    const { url } = await serve(async (request, response) => {
      response.writeHead(request.path === '/empty' ? 204 : 200);
      if (request.path === '/empty') return void response.end();
      response.write('do');
      await checked.opened;
      response.end('ne');
    });
    const controller = new AbortController();
    const response = await nodeHttpFetch(url, { signal: controller.signal });
    expect(abortListeners(controller.signal)).toBe(1);
    checked.open();
    expect(await response.text()).toBe('done');
    expect(abortListeners(controller.signal)).toBe(0);
    await nodeHttpFetch(`${url}/empty`, { signal: controller.signal });
    expect(abortListeners(controller.signal)).toBe(0);
  });
});

describe('nodeHttpFetch: transport failures look like undici’s', () => {
  it('a refused connection rejects TypeError("fetch failed") with the ECONNREFUSED cause, classified as undici’s is', async () => {
    const closed = await startTestServer(() => undefined);
    await closed.close();
    const error = await rejection(nodeHttpFetch(`${closed.url}/v1/chat/completions`, { method: 'POST', body: '{}' }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
    const undiciError = await rejection(fetch(`${closed.url}/v1/chat/completions`, { method: 'POST', body: '{}' }));
    const { detail: _detail, ...failure } = classifyNetworkError(error)!;
    const { detail: _undiciDetail, ...undiciFailure } = classifyNetworkError(undiciError)!;
    expect(failure).toEqual({ code: 'ECONNREFUSED', unreachable: true, isRetryable: true });
    expect(failure).toEqual(undiciFailure);
  });

  it('a connection cut mid-body errors the stream with TypeError("terminated"), a retryable dropped connection', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('partial');
      setImmediate(() => response.socket?.destroy());
    });
    const response = await nodeHttpFetch(url);
    const error = await rejection(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
    expect(classifyNetworkError(error)).toMatchObject({ code: 'ECONNRESET', unreachable: false, isRetryable: true });
  });

  it('a corrupt gzip body errors the stream with zlib’s error', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip' });
      response.end('this is not gzip');
    });
    const error = await rejection((await nodeHttpFetch(url)).text());
    expect((error as { code?: string }).code).toBe('Z_DATA_ERROR');
  });
});

/** A self-signed certificate for localhost, made with openssl now; undefined when there is no openssl. */
function selfSignedCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certificate = selfSignedCertificate();

// CI installs openssl (.ci/run), so there the https path is always tested; elsewhere it needs openssl.
describe.skipIf(!certificate && process.env.CI !== 'true')('nodeHttpFetch over https (needs openssl to make a certificate)', () => {
  it('talks to a server with a test CA through options.agents.https, and the global agent refuses the unknown certificate', async () => {
    if (!certificate) throw new Error('openssl could not make the test certificate: install openssl (CI does, in .ci/run).');
    const { url, requests } = await serve((request, response) => response.end(`secure ${request.method}`), certificate);
    const agent = new https.Agent({ ca: certificate.cert });
    try {
      const trusting = createNodeHttpFetch({ agents: { https: agent } });
      expect(await (await trusting(`${url}/v1`, { method: 'POST', body: '{}' })).text()).toBe('secure POST');
      const error = await rejection(nodeHttpFetch(`${url}/v1`));
      expect((error as Error).message).toBe('fetch failed');
      const failure = classifyNetworkError(error);
      expect(failure?.code).toMatch(/CERT|SELF_SIGNED/);
      expect(failure?.isRetryable).toBe(false);
      expect(requests).toHaveLength(1);
    } finally {
      agent.destroy();
    }
  });
});
