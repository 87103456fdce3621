// One agent run through @cairn/core and the OpenAI adapter against BENCH_BASE_URL.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, defineTool } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { openai } from '@cairn/provider-openai';
import { echoParameters, modelId, systemPrompt } from './loop-tool.mjs';

const echo = defineTool({
  id: 'echo', name: 'echo', description: 'Echo the text.', inputSchema: { jsonSchema: echoParameters }, readOnly: true, category: 'custom',
  execute: ({ text }) => text,
});
const { Agent } = createCairn({ plugins: [{ name: 'bench', providers: [openai], tools: [echo] }] });
const cwd = await mkdtemp(join(tmpdir(), 'cairn-loop-'));
const agent = await Agent.create({
  model: `openai/${modelId}`,
  local: { cwd, store: createMemoryStore() },
  env: { OPENAI_BASE_URL: process.env.BENCH_BASE_URL, OPENAI_API_KEY: 'sk-bench' },
  systemPrompt: { append: systemPrompt },
  maxSteps: Number(process.env.BENCH_STEPS) + 1,
});
const result = await (await agent.send('go')).wait();
if (result.status !== 'finished') throw new Error(`run ended ${result.status}: ${result.error?.message}`);
process.stdout.write(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS }));
