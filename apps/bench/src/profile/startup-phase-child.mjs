// One start-up of the SDK loop (`sdk`) or the raw openai loop (`raw`), in a fresh process, noting
// the wall-clock and CPU time (process.cpuUsage: all threads) and resident memory at each phase:
// script start, imports done, agent created (raw: client created), send returned, first request
// (the first fetch call), run done, agent closed. Prints the marks as JSON; startup-phases.mjs runs it.
import { echoParameters, modelId, systemPrompt } from '../loop-tool.mjs';

const marks = [];
const mark = (name) => {
  const { user, system } = process.cpuUsage();
  marks.push({ name, wallMs: performance.now(), cpuMs: (user + system) / 1000, rssMb: process.memoryUsage.rss() / 1048576 });
};
mark('script');
const fetchOfNode = globalThis.fetch;
let fetched = false;
globalThis.fetch = (...args) => {
  if (!fetched) {
    fetched = true;
    mark('first request');
  }
  return fetchOfNode(...args);
};
const messages = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'go' }];

if (process.env.BENCH_LOOP === 'raw') {
  const { default: OpenAI } = await import('openai');
  mark('imported');
  const client = new OpenAI({ baseURL: process.env.BENCH_BASE_URL, apiKey: 'sk-bench', maxRetries: 0 });
  mark('created');
  mark('sent');
  const tools = [{ type: 'function', function: { name: 'echo', description: 'Echo the text.', parameters: echoParameters } }];
  for await (const _chunk of await client.chat.completions.create({ model: modelId, messages, tools, stream: true })) {
    // drain the stream, as the loop does
  }
  mark('run done');
  mark('closed');
} else {
  const { Agent } = await import(new URL('../../../../packages/sdk/dist/index.js', import.meta.url).href);
  mark('imported');
  const agent = await Agent.create({
    model: `openai/${modelId}`,
    local: { cwd: process.env.BENCH_CWD, customTools: { echo: { description: 'Echo the text.', inputSchema: echoParameters, execute: ({ text }) => text } } },
    env: { OPENAI_BASE_URL: process.env.BENCH_BASE_URL, OPENAI_API_KEY: 'sk-bench' },
    systemPrompt: { append: systemPrompt },
    maxSteps: 1,
  });
  mark('created');
  const run = await agent.send('go');
  mark('sent');
  const result = await run.wait();
  if (result.status !== 'finished') throw new Error(`run ended ${result.status}: ${result.error?.message}`);
  mark('run done');
  await agent.close();
  mark('closed');
}
process.stdout.write(JSON.stringify({ marks, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
