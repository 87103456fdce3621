import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LanguageModelV1StreamPart, ProviderError } from '@cairn/core';
import { startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createTinyChatProvider, runCustomProvider } from './custom-provider.js';

async function collect(stream: AsyncIterable<LanguageModelV1StreamPart>): Promise<LanguageModelV1StreamPart[]> {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const sse = (chunks: object[]) => `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];

describe('custom provider example', () => {
  it('runs an agent with a tool call through its own provider against a local Chat Completions server', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-example-'));
    await writeFile(join(cwd, 'README.md'), '# Demo\nThis workspace was made by the example.\n');
    const lines: string[] = [];
    const { result, requests, problems } = await runCustomProvider({ cwd, log: (line) => lines.push(line) });
    expect(result.status).toBe('finished');
    expect(result.model).toEqual({ id: 'tiny/local-model' });
    expect(lines).toEqual(['Reading the README.', '  [read_file completed]', 'The README says the workspace was made by the example.']);
    expect(problems).toEqual([]);
    expect(requests).toHaveLength(2);
    const second = requests[1]!.messages as Array<{ role: string; content: string }>;
    expect(second.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second[3]!.content).toContain('This workspace was made by the example.');
  });

  it('never emits a tool call whose stream was cut, and reports the cut as a retryable error', async () => {
    const body = sse([
      { choices: [{ index: 0, delta: { content: 'Writing.' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'write', arguments: '{"path":"a' } }] }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ]);
    const server = await startFixtureServer([{ headers: { 'content-type': 'text/event-stream' }, body, dropAfterBytes: body.indexOf('finish_reason":"tool_calls'), chunkSize: 64, chunkDelayMs: 2 }]);
    try {
      const model = createTinyChatProvider().languageModel('m', { settings: { baseURL: `${server.url}/v1` }, env: {} });
      const parts = await collect((await model.doStream({ prompt })).stream);
      expect(parts.map((part) => part.type)).not.toContain('tool-call');
      expect(parts.find((part) => part.type === 'text-delta')).toMatchObject({ delta: 'Writing.' });
      const last = parts.at(-1);
      expect(last?.type).toBe('error');
      expect(ProviderError.isInstance((last as { error: unknown }).error) && (last as { error: ProviderError }).error.isRetryable).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('rejects with a ProviderError carrying status and retry-after, and needs a base URL', async () => {
    const server = await startFixtureServer([{ status: 429, headers: { 'content-type': 'application/json', 'retry-after': '2' }, body: '{"error":{"message":"slow down"}}' }]);
    try {
      const model = createTinyChatProvider().languageModel('m', { settings: {}, env: { TINY_CHAT_BASE_URL: `${server.url}/v1` } });
      const failure = await model.doStream({ prompt }).catch((error: unknown) => error);
      expect(ProviderError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ status: 429, retryAfterMs: 2000, isRetryable: true });
      expect((failure as Error).message).toContain('slow down');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
    expect(() => createTinyChatProvider().languageModel('m', { settings: {}, env: {} })).toThrow(/TINY_CHAT_BASE_URL/);
  });
});
