// Cairn through the OpenAI adapter vs. a bare openai-SDK loop, against a local zero-latency Chat
// Completions server: start-up to the first request, time per step, peak memory. Runs are
// interleaved (bare, cairn, bare, ...) and medians reported.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { median, round } from './stats.mjs';

const steps = Number(process.env.BENCH_STEPS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
let arrivals = [];
const server = await startChatCompletionsServer((body) => {
  arrivals.push(performance.now());
  const answered = body.messages.filter((message) => message.role === 'assistant').length;
  return answered < steps ? { toolCalls: [{ name: 'echo', args: { text: `step ${answered}` } }] } : { text: 'done' };
});

function runChild(script) {
  arrivals = [];
  const env = { ...process.env, BENCH_BASE_URL: server.url, BENCH_STEPS: String(steps) };
  delete env.NODE_EXTRA_CA_CERTS; // loading extra CA certificates would dominate start-up
  delete env.NODE_OPTIONS;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited ${code}`));
      const { maxRssKb } = JSON.parse(out);
      resolve({ startupMs: arrivals[0] - started, msPerStep: (arrivals.at(-1) - arrivals[0]) / (arrivals.length - 1), maxRssMb: maxRssKb / 1024, requests: arrivals.length });
    });
  });
}

const samples = { bare: [], cairn: [] };
await runChild('./bare-loop.mjs');
await runChild('./cairn-loop.mjs'); // warm the file system cache for both
for (let index = 0; index < rounds; index++) {
  samples.bare.push(await runChild('./bare-loop.mjs'));
  samples.cairn.push(await runChild('./cairn-loop.mjs'));
}
await server.close();
const summary = (list) => ({
  startupMs: round(median(list.map((sample) => sample.startupMs)), 1),
  msPerStep: round(median(list.map((sample) => sample.msPerStep)), 2),
  peakRssMb: round(median(list.map((sample) => sample.maxRssMb)), 1),
});
const bare = summary(samples.bare);
const cairn = summary(samples.cairn);
if (server.problems.length) throw new Error(`invalid requests: ${server.problems.join('; ')}`);
console.log(JSON.stringify({
  benchmark: 'openai-loop', steps, rounds, bare, cairn,
  ratios: { startup: round(cairn.startupMs / bare.startupMs, 2), stepDeltaMs: round(cairn.msPerStep - bare.msPerStep, 2), peakRss: round(cairn.peakRssMb / bare.peakRssMb, 2) },
}));
