import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from '@cairn/core/testing';
import { createIndex } from '@cairn/indexer';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, resolveEmbeddingModel } from '../src/index.js';
import { bigFunction, carConcepts, makeWorkspace, manyFunctions, smallTree, wordOf } from './embedding-workspace.js';

// Every test goes through the real provider SDKs (openai, @google/genai) over HTTP to a local,
// deterministic embedding server; nothing is mocked.
let server: FakeEmbeddingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fastRetry = { maxRetries: 1, initialDelayMs: 1 };
const openAICompatible = (model = 'local-embed') => resolveEmbeddingModel(`openai/${model}`, { baseURL: `${server!.url}/v1`, env: {} });

describe('embeddings end to end', () => {
  it('stores a vector per chunk, answers a query only the vectors can, and re-embeds only what changed', async () => {
    server = await startFakeEmbeddingServer({ concepts: carConcepts });
    const { cwd, home } = await makeWorkspace(smallTree);
    const index = await createIndex({ cwd, home, embeddingModel: openAICompatible() });
    try {
      const first = await index.sync();
      const stats = await index.stats();
      expect(stats.chunks).toBe(4);
      expect([first.embedded, stats.vectors, server.inputs.length, first.embeddingError]).toEqual([4, 4, 4, undefined]);
      expect(server.received.every((request) => request.path === '/v1/embeddings' && request.model === 'local-embed')).toBe(true);

      // No file holds the word "automobile": BM25 finds nothing, the vectors find the car code.
      expect((await index.search('automobile', { limit: 3 }))[0]?.path).toBe('src/car.ts');
      const keywordOnly = await createIndex({ cwd, home: join(home, 'bm25') });
      await keywordOnly.sync();
      expect(await keywordOnly.search('automobile')).toEqual([]);
      keywordOnly.close();

      server.resetCounts();
      await writeFile(join(cwd, 'src/parser.ts'), `${bigFunction('parseConfigFile', 'read the json config text')}\n${bigFunction('validateConfig', 'check config fields and ranges')}`);
      const edited = await index.sync();
      expect([edited.indexedFiles, server.inputs.length]).toEqual([1, 1]);
      expect(server.inputs[0]).toContain('check config fields and ranges');
      expect((await index.stats()).vectors).toBe(4);

      server.resetCounts();
      await rename(join(cwd, 'src/render.ts'), join(cwd, 'src/button.ts'));
      await index.sync();
      expect([server.requests, (await index.stats()).vectors]).toEqual([0, 4]);
      expect((await index.search('draw button label'))[0]?.path).toBe('src/button.ts');
    } finally {
      index.close();
    }
  });

  it('re-embeds everything for another model, and serves the first model again from its cache', async () => {
    server = await startFakeEmbeddingServer();
    const { cwd, home } = await makeWorkspace(smallTree);
    const withModel = async (model: string) => {
      const index = await createIndex({ cwd, home, embeddingModel: openAICompatible(model) });
      try {
        server!.resetCounts();
        const result = await index.sync();
        return { inputs: server!.inputs.length, embedded: result.embedded, stats: await index.stats() };
      } finally {
        index.close();
      }
    };
    expect((await withModel('model-a')).inputs).toBe(4);
    const other = await withModel('model-b');
    expect([other.inputs, other.embedded, other.stats.vectors, other.stats.embeddingModel]).toEqual([4, 4, 4, 'openai:model-b']);
    const back = await withModel('model-a');
    expect([back.inputs, back.embedded, back.stats.vectors, back.stats.embeddingModel]).toEqual([0, 4, 4, 'openai:model-a']);
  });

  it('keeps the vectors made before a server fails midway, stays searchable, and the next sync embeds only the rest', async () => {
    // The batches after the first fail; one-input requests (the search query) are answered.
    server = await startFakeEmbeddingServer({ failures: (request, inputs) => (request >= 1 && inputs.length > 1 ? { status: 503 } : undefined) });
    const { cwd, home } = await makeWorkspace(manyFunctions(30, 10));
    const index = await createIndex({ cwd, home, embeddingModel: openAICompatible(), embeddingRetry: fastRetry });
    try {
      const failed = await index.sync();
      const chunks = (await index.stats()).chunks;
      expect(chunks).toBe(300);
      expect(failed.embeddingError).toMatch(/503/);
      // One batch of 256 was answered and committed; the retry of the second failed too.
      expect([failed.embedded, failed.embeddingPending, (await index.stats()).vectors, server.requests]).toEqual([256, 44, 256, 3]);
      expect((await index.search(wordOf(73), { limit: 3 }))[0]?.symbol).toBe(wordOf(73));
      // With the server down for every request, search still answers from keywords and says why.
      server.setFailures(() => ({ status: 503 }));
      const errors: string[] = [];
      const outage = await index.search(wordOf(74), { limit: 3, onEmbeddingError: (message) => errors.push(message) });
      expect([outage[0]?.symbol, outage[0]?.scoreParts?.vector]).toEqual([wordOf(74), undefined]);
      expect(errors).toEqual([expect.stringMatching(/503/)]);

      server.setFailures(undefined);
      server.resetCounts();
      const resumed = await index.sync();
      expect([resumed.embeddingError, resumed.embedded, server.inputs.length, (await index.stats()).vectors]).toEqual([undefined, 44, 44, 300]);
    } finally {
      index.close();
    }
  });

  it('retries a 429 after its retry-after and finishes without an error', async () => {
    server = await startFakeEmbeddingServer({ failures: (request) => (request === 0 ? { status: 429, headers: { 'retry-after': '0' } } : undefined) });
    const { cwd, home } = await makeWorkspace(smallTree);
    const index = await createIndex({ cwd, home, embeddingModel: openAICompatible(), embeddingRetry: { maxRetries: 2, initialDelayMs: 60_000 } });
    try {
      const result = await index.sync();
      expect([result.embeddingError, result.embedded]).toEqual([undefined, 4]);
      expect(server.received.map((request) => request.status)).toEqual([429, 200]);
    } finally {
      index.close();
    }
  });

  it('embeds with Gemini (batchEmbedContents) and with Ollama found through OLLAMA_HOST', async () => {
    server = await startFakeEmbeddingServer({ concepts: carConcepts });
    const { cwd, home } = await makeWorkspace(smallTree);
    const gemini = resolveEmbeddingModel('google/gemini-embedding-001', { baseURL: server.url, apiKey: 'test-key', env: {} });
    const ollama = resolveEmbeddingModel('ollama/nomic-embed-text', { env: { OLLAMA_HOST: server.url.replace('http://', '') } });
    for (const [model, path, home2] of [
      [gemini, '/v1beta/models/gemini-embedding-001:batchEmbedContents', join(home, 'gemini')],
      [ollama, '/v1/embeddings', join(home, 'ollama')],
    ] as const) {
      server.resetCounts();
      const index = await createIndex({ cwd, home: home2, embeddingModel: model });
      try {
        expect((await index.sync()).embeddingError).toBeUndefined();
        expect(server.received[0]?.path).toBe(path);
        expect((await index.search('automobile', { limit: 1 }))[0]?.path).toBe('src/car.ts');
      } finally {
        index.close();
      }
    }
  });

  it('refuses a malformed spec, an unknown provider, a provider without embeddings and a missing key, saying what to do', () => {
    const failure = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(ConfigurationError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error('expected a ConfigurationError');
    };
    expect(failure(() => resolveEmbeddingModel('text-embedding-3-small'))).toMatch(/must be "provider\/model", e\.g\. "openai\/text-embedding-3-small"/);
    expect(failure(() => resolveEmbeddingModel('acme/embedder', { env: {} }))).toMatch(/Unknown model provider "acme".*Known providers: openai, ollama/);
    expect(failure(() => resolveEmbeddingModel('anthropic/claude', { env: {} }))).toMatch(/"anthropic" has no embedding models; use one of openai, ollama, google/);
    expect(failure(() => resolveEmbeddingModel('openai/text-embedding-3-small', { env: {} }))).toMatch(/OPENAI_API_KEY/);
    expect(failure(() => resolveEmbeddingModel('google/gemini-embedding-001', { env: {} }))).toMatch(/GEMINI_API_KEY/);
    expect(resolveEmbeddingModel('openai/text-embedding-3-small', { env: { OPENAI_API_KEY: 'sk-test' } }).dimensions).toBe(1536);
  });
});
