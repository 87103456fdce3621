// One agent run through the shipped SDK — the built `@cairn/sdk` with its default store (SQLite
// under $CAIRN_HOME) and every default plugin — against BENCH_BASE_URL. The echo tool is a custom
// tool, as an SDK user would add it.
import { echoParameters, memorySampler, modelId, systemPrompt } from './loop-tool.mjs';

// The package's built entry (dist/index.js), as a user's `import { Agent } from '@cairn/sdk'` loads it.
const { Agent } = await import(new URL('../../../packages/sdk/dist/index.js', import.meta.url).href);
const memory = memorySampler();
const agent = await Agent.create({
  model: `openai/${modelId}`,
  local: {
    cwd: process.env.BENCH_CWD,
    customTools: { echo: { description: 'Echo the text.', inputSchema: echoParameters, execute: ({ text }) => memory.echo(text) } },
  },
  env: { OPENAI_BASE_URL: process.env.BENCH_BASE_URL, OPENAI_API_KEY: 'sk-bench' },
  systemPrompt: { append: systemPrompt },
  maxSteps: Number(process.env.BENCH_STEPS) + 1,
});
const result = await (await agent.send('go')).wait();
if (result.status !== 'finished') throw new Error(`run ended ${result.status}: ${result.error?.message}`);
await agent.close();
process.stdout.write(JSON.stringify(memory.report()));
