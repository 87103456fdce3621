import { afterEach, describe, expect, it } from 'vitest';
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from './fake-embedding-server.js';

let server: FakeEmbeddingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};
const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe('fake embedding server', () => {
  it('answers the OpenAI wire with deterministic unit vectors, near for similar texts, and counts inputs', async () => {
    server = await startFakeEmbeddingServer({ dimensions: 32 });
    const answer = await post('/v1/embeddings', { model: 'local', input: ['parse the config file', 'parseConfigFile()', 'render a button'], encoding_format: 'float' });
    expect(answer.status).toBe(200);
    const [a, b, c] = answer.body.data.map((item: { embedding: number[] }) => item.embedding) as number[][];
    expect(a).toHaveLength(32);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 6);
    expect(cosine(b!, a!)).toBeGreaterThan(cosine(c!, a!));
    expect((await post('/v1/embeddings', { model: 'local', input: 'parse the config file' })).body.data[0].embedding).toEqual(a);
    expect([server.requests, server.inputs.length]).toEqual([2, 4]);
    expect((await post('/v1/embeddings', { model: 'text-embedding-3-small', input: 'x' })).body.data[0].embedding).toHaveLength(1536);
    expect((await post('/v1/embeddings', { model: 'local', input: [] })).status).toBe(400);
  });

  it('answers Gemini batchEmbedContents and maps concepts to one word', async () => {
    server = await startFakeEmbeddingServer({ concepts: { automobile: 'car' } });
    const answer = await post('/v1beta/models/gemini-embedding-001:batchEmbedContents', {
      requests: ['start the car', 'start the automobile'].map((text) => ({ model: 'models/gemini-embedding-001', content: { parts: [{ text }] }, outputDimensionality: 16 })),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.embeddings[0].values).toHaveLength(16);
    expect(answer.body.embeddings[0].values).toEqual(answer.body.embeddings[1].values);
  });

  it('fails the requests the rule picks (429 with retry-after) and counts them', async () => {
    server = await startFakeEmbeddingServer({ failures: (index) => (index === 0 ? { status: 429, headers: { 'retry-after': '0' } } : undefined) });
    const first = await post('/v1/embeddings', { model: 'm', input: ['a'] });
    expect([first.status, first.headers.get('retry-after'), first.body.error.type]).toEqual([429, '0', 'rate_limit_exceeded']);
    expect((await post('/v1/embeddings', { model: 'm', input: ['a'] })).status).toBe(200);
    server.setFailures(() => ({ status: 503 }));
    expect((await post('/v1/embeddings', { model: 'm', input: ['b'] })).status).toBe(503);
    expect([server.requests, server.inputs]).toEqual([3, ['a']]);
  });
});
