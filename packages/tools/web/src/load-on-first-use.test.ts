import { type FixtureServer, startFixtureServer } from '@cairn/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToolContext } from '../test/tool-context.js';

// Modules swapped for pass-throughs that note when they are imported: web_fetch's body and the
// builtins and packages only a fetch needs.
const watched = {
  './web-fetch-execute.js': 'fetch body',
  './resolve-target.js': 'resolver',
  'node:http': 'http',
  'node:https': 'https',
  'node:net': 'net',
  'node:dns/promises': 'dns',
  'node:zlib': 'zlib',
} as const;
const loaded: string[] = [];

// A fresh module registry and fresh pass-throughs per test: each test sees only its own loads.
beforeEach(() => {
  vi.resetModules();
  loaded.length = 0;
  for (const [specifier, label] of Object.entries(watched)) {
    vi.doMock(specifier, async (importOriginal) => {
      loaded.push(label);
      return importOriginal();
    });
  }
});

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('@cairn/tools-web loads its HTTP client on first use', () => {
  it('importing the pack loads no networking code, and the exported checks still work', async () => {
    const web = await import('./index.js');
    expect(web.webTools.map((tool) => tool.name)).toEqual(['web_fetch', 'web_search']);
    expect(web.webFetchTool.ruleSubject?.({ url: 'https://example.com/' })).toBe('https://example.com/');
    expect(web.blockedAddressReason('169.254.169.254')).toBe('link-local (cloud metadata)');
    expect(web.isHostAllowed(new URL('http://localhost:8080/'), ['localhost:8080'])).toBe(true);
    expect(loaded).toEqual([]);
  });

  it('the first fetch loads the client and fetches as before', async () => {
    const { webFetchTool } = await import('./index.js');
    const server = await startFixtureServer(() => ({ headers: { 'content-type': 'text/plain' }, body: 'hello from the fixture' }));
    servers.push(server);
    const result = await webFetchTool.execute({ url: `${server.url}/page` }, createToolContext({ settings: { webFetch: { allowPrivateHosts: ['127.0.0.1'] } } }));
    expect(JSON.stringify(result)).toContain('hello from the fixture');
    expect(loaded).toEqual(expect.arrayContaining(['fetch body', 'resolver', 'http']));
  });

  it('resolveTarget, exported by name, loads the resolver at its first call', async () => {
    const { resolveTarget } = await import('./index.js');
    const resolver = async () => [{ address: '93.184.215.14', family: 4 as const }];
    expect(await resolveTarget(new URL('https://example.com/'), [], resolver)).toEqual([{ address: '93.184.215.14', family: 4 }]);
    expect(loaded).toContain('resolver');
  });
});
