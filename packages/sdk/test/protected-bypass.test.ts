import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { defaultPlugins } from '../src/index.js';

const writeRule = { toolCalls: [{ name: 'write', args: { path: '.cairn/rules/style.md', contents: 'Use tabs.\n' } }] };

async function attempt(allowProtectedPathWrites: boolean) {
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-bypass-'));
  const model = scriptedModel([writeRule, { text: 'done' }]);
  const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
  const agent = await Agent.create({ model: 'scripted/m', local: { cwd, store: createMemoryStore() }, allowProtectedPathWrites });
  await (await agent.send('write the rule')).wait();
  const tool = model.calls[1]!.prompt.at(-1);
  return { cwd, result: tool?.role === 'tool' ? String(tool.content[0]?.output.value) : '' };
}

describe('protected paths', () => {
  it('are refused by default and written only with the explicit bypass', async () => {
    const refused = await attempt(false);
    expect(refused.result).toMatch(/configuration|protected/i);
    await expect(readFile(join(refused.cwd, '.cairn/rules/style.md'))).rejects.toThrow();
    const allowed = await attempt(true);
    expect(await readFile(join(allowed.cwd, '.cairn/rules/style.md'), 'utf8')).toBe('Use tabs.\n');
  });
});
