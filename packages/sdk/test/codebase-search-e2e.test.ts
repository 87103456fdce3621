import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultPlugins } from '../src/index.js';

beforeAll(async () => {
  process.env.CAIRN_HOME ??= await mkdtemp(join(tmpdir(), 'cairn-home-'));
});

describe('codebase_search through the agent', () => {
  it('finds code the agent just wrote without a full re-index', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-search-'));
    await writeFile(join(cwd, 'widgets.ts'), 'export function parseWidget(text: string) {\n  return text.split(",");\n}\n');
    const model = scriptedModel([
      { toolCalls: [{ name: 'codebase_search', args: { query: 'parse widget' } }] },
      { toolCalls: [{ name: 'write', args: { path: 'scoring.ts', contents: 'export function computeFrobnicationScore(level: number) {\n  return level * 42;\n}\n' } }] },
      { toolCalls: [{ name: 'codebase_search', args: { query: 'frobnication score' } }] },
      { text: 'Found it.' },
    ]);
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    const agent = await Agent.create({ model: 'scripted/m', local: { cwd, store: createMemoryStore() } });
    const result = await (await agent.send('Add a scoring function and find it')).wait();
    expect(result.status).toBe('finished');
    const resultOf = (call: number) => {
      const tool = model.calls[call]?.prompt.at(-1);
      return tool?.role === 'tool' ? String(tool.content[0]?.output.value) : '';
    };
    expect(resultOf(1)).toMatch(/widgets\.ts:1-3/);
    expect(resultOf(3)).toMatch(/scoring\.ts:1-3/);
    expect(resultOf(3)).toMatch(/computeFrobnicationScore/);
  });
});
