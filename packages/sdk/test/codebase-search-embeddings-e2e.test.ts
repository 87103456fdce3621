import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentOptions, createMemoryStore } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { type FakeEmbeddingServer, scriptedModel, scriptedProvider, startFakeEmbeddingServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlugins } from '../src/index.js';
import { carConcepts, makeWorkspace, smallTree } from './embedding-workspace.js';

let server: FakeEmbeddingServer;
beforeAll(async () => {
  process.env.CAIRN_HOME ??= await mkdtemp(join(tmpdir(), 'cairn-home-'));
  server = await startFakeEmbeddingServer({ concepts: carConcepts });
});
afterAll(() => server?.close());

/** One agent run whose model calls codebase_search("automobile"); returns the text the model read. */
async function searchByMeaning(options: Partial<AgentOptions>, cwd?: string): Promise<string> {
  const workspace = cwd ?? (await makeWorkspace(smallTree)).cwd;
  const model = scriptedModel([{ toolCalls: [{ name: 'codebase_search', args: { query: 'automobile' } }] }, { text: 'done' }]);
  const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
  const agent = await Agent.create({ model: 'scripted/m', ...options, local: { cwd: workspace, store: createMemoryStore(), ...options.local } });
  try {
    expect((await (await agent.send('Where do we start the vehicle?')).wait()).status).toBe('finished');
  } finally {
    await agent.close();
  }
  const tool = model.calls[1]?.prompt.at(-1);
  return tool?.role === 'tool' ? tool.content.map((part) => String(part.output.value)).join('\n') : '';
}

describe('codebase_search with an embedding model', () => {
  it('uses the model of toolSettings.semSearch.embeddings and finds code by meaning', async () => {
    server.resetCounts();
    const text = await searchByMeaning({ toolSettings: { semSearch: { embeddings: { model: 'openai/local-embed', baseURL: `${server.url}/v1` } } }, env: {} });
    expect(text).toMatch(/^src\/car\.ts:1-\d+ \(startCarEngine\)/);
    expect(server.inputs).toContain('automobile');
    expect(text).not.toContain('Search by meaning is off');
  });

  it('uses index.embeddings of the user settings file, and not when settingSources loads no layer', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cairn-user-'));
    await writeFile(join(home, 'settings.json'), JSON.stringify({ index: { embeddings: { model: 'openai/local-embed', baseURL: `${server.url}/v1` } } }));
    server.resetCounts();
    expect(await searchByMeaning({ env: { CAIRN_HOME: home } })).toMatch(/^src\/car\.ts:/);
    expect(server.inputs).toContain('automobile');
    server.resetCounts();
    expect(await searchByMeaning({ env: { CAIRN_HOME: home }, local: { settingSources: [] } })).toMatch(/^No matching code found/);
    expect(server.requests).toBe(0);
  });

  it('answers from keywords and says why when the configured model cannot be used', async () => {
    const { cwd } = await makeWorkspace(smallTree);
    await writeFile(join(cwd, 'src/vehicle.ts'), 'export const automobileWheels = 4;\n');
    const text = await searchByMeaning({ toolSettings: { semSearch: { embeddings: 'openai/text-embedding-3-small' } }, env: {} }, cwd);
    expect(text).toMatch(/^src\/vehicle\.ts:1-1/);
    expect(text).toContain('(Search by meaning is off, these are keyword results: OpenAI API key is missing: set OPENAI_API_KEY');
  });
});
