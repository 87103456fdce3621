import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ToolError, type ToolResultContent } from '@cairn/core';
import { type FixtureResponse, type FixtureServer, startFixtureServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { createWebFetchTool, webFetchTool } from './web-fetch-tool.js';

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(routes: Record<string, FixtureResponse>): Promise<FixtureServer> {
  const server = await startFixtureServer((request) => routes[request.url] ?? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such page' });
  servers.push(server);
  return server;
}

const allowLoopback = (extra: Record<string, unknown> = {}) => createToolContext({ settings: { webFetch: { allowPrivateHosts: ['127.0.0.1'], ...extra } } });
const textOf = (result: unknown) => (result as ToolResultContent).content.map((part) => (part.type === 'text' ? part.text : '')).join('');
const toolError = (text: string) => (error: unknown) => ToolError.isInstance(error) && error.message.includes(text);
const html = (body: string): FixtureResponse => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body });

const articleHtml = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Streams &amp; you</title>
<style>body { color: red }</style><script>window.tracking = true;</script></head>
<body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<main><h1>Using streams</h1><p>Read the <a href="/docs/api?x=1">API docs</a> first.</p>
<h2>Example</h2><pre><code class="language-js">const s = stream();
s.pipe(out);</code></pre><ul><li>fast</li><li>small</li></ul></main>
<footer>Copyright footer text</footer></body></html>`;

describe('web_fetch', () => {
  it('turns HTML into markdown: title first, links absolute, headings and code blocks kept, noise stripped', async () => {
    const server = await serve({ '/post': html(articleHtml) });
    const result = await webFetchTool.execute({ url: `${server.url}/post` }, allowLoopback());
    const text = textOf(result);
    expect(text.startsWith(`# Streams & you\nURL: ${server.url}/post\n\n# Using streams`)).toBe(true);
    expect(text).toContain(`[API docs](${server.url}/docs/api?x=1)`);
    expect(text).toContain('## Example');
    expect(text).toContain('```js\nconst s = stream();\ns.pipe(out);\n```');
    expect(text).toContain('-   fast');
    for (const noise of ['tracking', 'color: red', 'Copyright footer', 'Blog']) expect(text).not.toContain(noise);
    expect(result).toMatchObject({ truncated: false, structuredContent: { status: 200, contentType: 'text/html', title: 'Streams & you' } });
    expect(server.requests[0]!.headers['user-agent']).toContain('Cairn');
  });

  it('passes text/plain and JSON through, decodes gzip and a declared charset', async () => {
    const server = await serve({
      '/notes.txt': { headers: { 'content-type': 'text/plain' }, body: 'line one\n<b>not html</b>\n' },
      '/data.json': { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync('{"ok":true,"items":[1,2]}') },
      '/latin1': { headers: { 'content-type': 'text/plain; charset=iso-8859-1' }, body: Buffer.from([0x63, 0x61, 0x66, 0xe9]) },
    });
    expect(textOf(await webFetchTool.execute({ url: `${server.url}/notes.txt` }, allowLoopback()))).toBe(`URL: ${server.url}/notes.txt\n\nline one\n<b>not html</b>\n`);
    expect(textOf(await webFetchTool.execute({ url: `${server.url}/data.json` }, allowLoopback()))).toContain('{"ok":true,"items":[1,2]}');
    expect(textOf(await webFetchTool.execute({ url: `${server.url}/latin1` }, allowLoopback()))).toContain('café');
  });

  it('refuses binary content without reading it, and reports HTTP errors', async () => {
    const server = await serve({ '/logo.png': { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(2048, 1) }, '/raw': { headers: {}, body: Buffer.from([0x89, 0x50, 0x00, 0x01]) } });
    await expect(webFetchTool.execute({ url: `${server.url}/logo.png` }, allowLoopback())).rejects.toSatisfy(toolError('binary content (image/png)'));
    await expect(webFetchTool.execute({ url: `${server.url}/raw` }, allowLoopback())).rejects.toSatisfy(toolError('binary content'));
    await expect(webFetchTool.execute({ url: `${server.url}/missing` }, allowLoopback())).rejects.toSatisfy(toolError('answered HTTP 404.\n\nno such page'));
  });

  it('follows redirects (relative and absolute) and says where it came from', async () => {
    const routes: Record<string, FixtureResponse> = {
      '/start': { status: 302, headers: { location: '/middle' }, body: '' },
      '/final': html('<title>Final</title><p>arrived</p>'),
    };
    const real = await serve(routes);
    routes['/middle'] = { status: 301, headers: { location: `${real.url}/final` }, body: '' };
    const result = await webFetchTool.execute({ url: `${real.url}/start` }, allowLoopback());
    expect(textOf(result)).toBe(`# Final\nURL: ${real.url}/final\nRedirected from: ${real.url}/start\n\narrived`);
    expect(real.requests.map((request) => request.url)).toEqual(['/start', '/middle', '/final']);
  });

  it('re-checks every redirect hop: an allowed host redirecting to a private one is refused before connecting', async () => {
    const inner = await serve({ '/admin': html('<p>secret admin page</p>') });
    const innerPort = new URL(inner.url).port;
    const outer = await serve({
      '/to-port': { status: 302, headers: { location: `http://127.0.0.1:${innerPort}/admin` }, body: '' },
      '/to-name': { status: 307, headers: { location: `http://localhost:${innerPort}/admin` }, body: '' },
      '/to-file': { status: 302, headers: { location: 'file:///etc/passwd' }, body: '' },
    });
    // Only the outer server's host:port is allowed.
    const context = () => createToolContext({ settings: { webFetch: { allowPrivateHosts: [new URL(outer.url).host] } } });
    await expect(webFetchTool.execute({ url: `${outer.url}/to-port` }, context())).rejects.toSatisfy(toolError('is a loopback address'));
    await expect(webFetchTool.execute({ url: `${outer.url}/to-name` }, context())).rejects.toSatisfy(toolError('localhost resolves to'));
    await expect(webFetchTool.execute({ url: `${outer.url}/to-file` }, context())).rejects.toSatisfy(toolError('Only http and https'));
    expect(inner.requests).toEqual([]);
    expect(outer.requests).toHaveLength(3);
  });

  it('stops after five redirects', async () => {
    const server = await serve({ '/loop': { status: 302, headers: { location: '/loop' }, body: '' } });
    await expect(webFetchTool.execute({ url: `${server.url}/loop` }, allowLoopback())).rejects.toSatisfy(toolError('Stopped after 5 redirects'));
    expect(server.requests).toHaveLength(6);
  });

  it('caps the download and the markdown, saying so', async () => {
    const big = `<title>Big</title>${'<p>lorem ipsum dolor sit amet</p>'.repeat(20_000)}`;
    const server = await serve({ '/big': html(big) });
    const downloadCapped = await webFetchTool.execute({ url: `${server.url}/big` }, allowLoopback({ maxBytes: 50_000 }));
    expect(textOf(downloadCapped)).toContain('[The download stopped at 49 KB; the rest of the page was not fetched.]');
    expect(downloadCapped).toMatchObject({ truncated: true });
    const markdownCapped = await webFetchTool.execute({ url: `${server.url}/big` }, allowLoopback({ maxMarkdownChars: 1000 }));
    const text = textOf(markdownCapped);
    expect(text).toMatch(/\[Content cut: showing the first 1000 of \d+ characters\.\]$/);
    expect(text.length).toBeLessThan(1200);
  });

  it('fails clearly, without hanging, when the connection drops mid-body (plain and gzip)', async () => {
    const gzipped = gzipSync('<p>' + 'word '.repeat(20_000) + '</p>');
    const server = await serve({
      '/plain': { headers: { 'content-type': 'text/plain', 'content-length': '100000' }, body: 'x'.repeat(100_000), dropAfterBytes: 1000 },
      '/gzip': { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gzipped, dropAfterBytes: Math.floor(gzipped.length / 2) },
    });
    await expect(webFetchTool.execute({ url: `${server.url}/plain` }, allowLoopback())).rejects.toSatisfy(toolError('/plain failed (ECONNRESET'));
    await expect(webFetchTool.execute({ url: `${server.url}/gzip` }, allowLoopback())).rejects.toSatisfy(toolError('/gzip failed (ECONNRESET'));
  });

  it('stops a stalled response at the time cap and on cancel', async () => {
    const server = await serve({ '/slow': { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(100), stallAfterBytes: 10 } });
    await expect(webFetchTool.execute({ url: `${server.url}/slow` }, allowLoopback({ timeoutMs: 200 }))).rejects.toSatisfy(toolError('took longer than'));
    const controller = new AbortController();
    const context = createToolContext({ signal: controller.signal, settings: { webFetch: { allowPrivateHosts: ['127.0.0.1'] } } });
    const pending = webFetchTool.execute({ url: `${server.url}/slow` }, context);
    setTimeout(() => controller.abort(new Error('run cancelled')), 100);
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('refuses private, loopback, link-local and mapped addresses without connecting', async () => {
    const server = await serve({ '/': html('<p>local</p>') });
    const port = new URL(server.url).port;
    const urls = [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::1]:${port}/`,
      `http://localhost:${port}/`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.1.1/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
    ];
    for (const url of urls) {
      await expect(webFetchTool.execute({ url }, createToolContext()), url).rejects.toSatisfy(toolError('Refused to fetch'));
    }
    expect(server.requests).toEqual([]);
  });

  it('pins the connection to the checked address: DNS is asked once per hop and never again', async () => {
    const server = await serve({ '/page': { headers: { 'content-type': 'text/plain' }, body: 'pinned ok' } });
    const port = new URL(server.url).port;
    const asked: string[] = [];
    const tool = createWebFetchTool({
      resolveHost: async (hostname) => {
        asked.push(hostname);
        // A rebinding resolver: the first answer is the checked one, any later answer would be public.
        return asked.length === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }];
      },
    });
    const context = createToolContext({ settings: { webFetch: { allowPrivateHosts: ['docs.internal.test'] } } });
    expect(textOf(await tool.execute({ url: `http://docs.internal.test:${port}/page` }, context))).toContain('pinned ok');
    expect(asked).toEqual(['docs.internal.test']);
    expect(server.requests[0]!.headers.host).toBe(`docs.internal.test:${port}`);
  });

  it('refuses a name with any private address among its answers', async () => {
    const tool = createWebFetchTool({ resolveHost: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }] });
    await expect(tool.execute({ url: 'https://mixed.example/' }, createToolContext())).rejects.toSatisfy(toolError('mixed.example resolves to 10.1.2.3, which is a private address'));
  });

  it('refuses bad URLs and exposes the URL for webFetch(...) rules', async () => {
    await expect(webFetchTool.execute({ url: 'not a url' }, createToolContext())).rejects.toSatisfy(toolError('is not a valid URL'));
    await expect(webFetchTool.execute({ url: 'ftp://example.com/file' }, createToolContext())).rejects.toSatisfy(toolError('Only http and https'));
    expect(webFetchTool.ruleSubject?.({ url: 'https://docs.example.com/a' })).toBe('https://docs.example.com/a');
    expect([webFetchTool.id, webFetchTool.name, webFetchTool.readOnly, webFetchTool.category]).toEqual(['webFetch', 'web_fetch', true, 'web']);
  });
});

describe('web_fetch over HTTPS', () => {
  const certificate = readFileSync(new URL('./__fixtures__/test-tls-cert.pem', import.meta.url), 'utf8');
  const key = readFileSync(new URL('./__fixtures__/test-tls-key.pem', import.meta.url), 'utf8');

  it('verifies the certificate against the URL host name even though the socket is pinned to an address', async () => {
    const serverNames: Array<string | false | null> = [];
    const server = createHttpsServer({ cert: certificate, key }, (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('secure hello');
    });
    server.on('secureConnection', (socket) => serverNames.push(socket.servername));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const tool = createWebFetchTool({ resolveHost: async () => [{ address: '127.0.0.1', family: 4 }], ca: certificate });
      const context = () => createToolContext({ settings: { webFetch: { allowPrivateHosts: ['docs.internal.test', 'other.internal.test'] } } });
      expect(textOf(await tool.execute({ url: `https://docs.internal.test:${port}/` }, context()))).toContain('secure hello');
      expect(serverNames).toEqual(['docs.internal.test']);
      // Same address, another name: the certificate does not match, so the fetch fails.
      await expect(tool.execute({ url: `https://other.internal.test:${port}/` }, context())).rejects.toSatisfy(toolError('ERR_TLS_CERT_ALTNAME_INVALID'));
      // Without the test CA the self-signed certificate is not trusted.
      await expect(createWebFetchTool({ resolveHost: async () => [{ address: '127.0.0.1', family: 4 }] }).execute({ url: `https://docs.internal.test:${port}/` }, context())).rejects.toSatisfy(toolError('self-signed'));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
