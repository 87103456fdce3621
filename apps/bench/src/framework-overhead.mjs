// Per-step framework overhead: a zero-latency scripted model that calls a trivial tool every step,
// so the time per step is the runtime's own (machine, event log, checkpoints, tool runner).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, defineTool } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { createSqliteStore } from '@cairn/store-sqlite';
import { z } from 'zod';
import { median, round } from './stats.mjs';

const steps = Number(process.env.BENCH_STEPS ?? 200);
const echo = defineTool({
  id: 'echo', name: 'echo', description: 'Echo.', inputSchema: z.object({ text: z.string() }), readOnly: true, category: 'custom',
  execute: ({ text }) => text,
});

async function measure(storeName) {
  const model = scriptedModel([{ text: 'step', toolCalls: [{ name: 'echo', args: { text: 'x' } }] }], { repeatLast: true });
  const { Agent } = createCairn({ plugins: [{ name: 'bench', providers: [scriptedProvider({ m: model })], tools: [echo] }] });
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-bench-'));
  const store = storeName === 'sqlite' ? createSqliteStore({ path: join(cwd, 'agents.db') }) : createMemoryStore();
  const agent = await Agent.create({ model: 'scripted/m', local: { cwd, store }, maxSteps: steps });
  const started = performance.now();
  const result = await (await agent.send('go')).wait();
  const elapsed = performance.now() - started;
  if (result.error?.code !== 'max_steps') throw new Error(`unexpected end: ${JSON.stringify(result.error)}`);
  await store.close?.();
  return elapsed / steps;
}

const results = {};
for (const storeName of ['memory', 'sqlite']) {
  await measure(storeName); // warm-up
  const samples = [];
  for (let index = 0; index < 5; index++) samples.push(await measure(storeName));
  results[storeName] = { msPerStep: round(median(samples), 3), samples: samples.map((value) => round(value, 3)) };
}
console.log(JSON.stringify({ benchmark: 'framework-overhead', steps, ...results }));
