// The shipped SDK (`@cairn/sdk`, built, default SQLite store and plugins) vs. a hand-written loop
// over the `openai` SDK, against the same local zero-latency Chat Completions server, one fresh
// process per run. Two parts:
// - a 20-step tool loop, runs interleaved (raw, sdk, raw, ...), medians: start-up to the first
//   request (process start -> the server receives it), time per step, peak RSS;
// - a 1,000-step run (999 tool calls, then text): time per step at steps 1-100 vs 900-1000, and
//   memory growth per 100 steps: of the live heap after a full collection (what the run keeps) and
//   of resident memory (which also grows while V8 enlarges its heap, in the raw loop too).
// The figures are ratios and differences of the two loops measured side by side; the targets are
// reported as met or not, never asserted.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLoopServer } from './loop-server.mjs';
import { loopTargets } from './loop-targets.mjs';
import { median, round } from './stats.mjs';

const steps = Number(process.env.BENCH_STEPS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const longSteps = Number(process.env.BENCH_LONG_STEPS ?? 1000);
const longRounds = Number(process.env.BENCH_LONG_ROUNDS ?? 3);
const loops = { raw: './bare-loop.mjs', sdk: './sdk-loop.mjs' };

const server = await startLoopServer();
// One home and workspace for all runs: the SDK finds its database in place, as on a user's machine
// (the warm-up runs create it).
const home = mkdtempSync(join(tmpdir(), 'cairn-bench-home-'));
const cwd = mkdtempSync(join(tmpdir(), 'cairn-bench-cwd-'));

/**
 * One run of a loop in a fresh process: `toolCalls` echo calls, then a text answer. `gcSteps`: steps
 * after which the child collects garbage and notes its live heap (kept out of the timed windows).
 */
function runChild(name, toolCalls, gcSteps = [], extraNodeArgs = []) {
  const env = { ...process.env, BENCH_BASE_URL: server.url, BENCH_STEPS: String(toolCalls), BENCH_CWD: cwd, CAIRN_HOME: home, HOME: home, BENCH_GC_STEPS: gcSteps.join(',') };
  delete env.NODE_EXTRA_CA_CERTS; // loading extra CA certificates would dominate start-up
  delete env.NODE_OPTIONS;
  server.begin(toolCalls);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const nodeArgs = [...(gcSteps.length ? ['--expose-gc'] : []), ...extraNodeArgs];
    const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(new URL(loops[name], import.meta.url))], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const arrivals = server.end(`${name} loop`);
      if (code !== 0) return reject(new Error(`${loops[name]} exited ${code}`));
      if (arrivals.length !== toolCalls + 1) return reject(new Error(`${loops[name]} sent ${arrivals.length} requests, expected ${toolCalls + 1}`));
      const { maxRssKb, rssSamples, liveHeap, cpuMsAtFirstCall, cpuMsPerStep } = JSON.parse(out);
      resolve({ startupMs: arrivals[0] - started, arrivals, maxRssMb: maxRssKb / 1024, rssSamples, liveHeap, cpuMsAtFirstCall, cpuMsPerStep });
    });
  });
}

const msPerStep = (arrivals, from = 0, to = arrivals.length - 1) => (arrivals[to] - arrivals[from]) / (to - from);

/** Least-squares slope of `value` over `step`, per 100 steps. */
function slopePer100Steps(points) {
  if (points.length < 2) return undefined;
  const meanStep = points.reduce((sum, point) => sum + point.step, 0) / points.length;
  const meanValue = points.reduce((sum, point) => sum + point.value, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.step - meanStep) * (point.value - meanValue);
    variance += (point.step - meanStep) ** 2;
  }
  return (covariance / variance) * 100;
}

/** Resident memory after the first 100 steps (warm-up), in MB per 100 steps. */
const rssGrowth = (sample) => slopePer100Steps(sample.rssSamples.filter((point) => point.step > 100).map((point) => ({ step: point.step, value: point.rssKb / 1024 })));
/** The live heap after a full collection, in MB per 100 steps: what the loop keeps. */
const liveHeapGrowth = (sample) => slopePer100Steps(sample.liveHeap.map((point) => ({ step: point.step, value: point.heapKb / 1024 })));

async function shortLoop() {
  const samples = { raw: [], sdk: [] };
  await runChild('raw', steps);
  await runChild('sdk', steps); // warm the file-system cache and create the database
  for (let index = 0; index < rounds; index++) {
    for (const name of ['raw', 'sdk']) samples[name].push(await runChild(name, steps));
  }
  const summary = (list) => ({
    startupMs: round(median(list.map((sample) => sample.startupMs)), 1),
    cpuMsToFirstToolCall: round(median(list.map((sample) => sample.cpuMsAtFirstCall)), 1),
    msPerStep: round(median(list.map((sample) => msPerStep(sample.arrivals))), 2),
    cpuMsPerStep: round(median(list.map((sample) => sample.cpuMsPerStep)), 2),
    peakRssMb: round(median(list.map((sample) => sample.maxRssMb)), 1),
  });
  return { raw: summary(samples.raw), sdk: summary(samples.sdk) };
}

async function longRun() {
  const samples = { raw: [], sdk: [] };
  // Heap samples between the two timed windows (steps 1-100 and the last 100), so collecting
  // garbage for them costs neither window anything.
  const gcSteps = [];
  for (let step = 110; step < longSteps - 100; step += Math.max(10, Math.floor((longSteps - 210) / 8))) gcSteps.push(step);
  for (let index = 0; index < longRounds; index++) {
    // longSteps model steps: longSteps - 1 tool calls, then the text answer.
    for (const name of ['raw', 'sdk']) samples[name].push(await runChild(name, longSteps - 1, gcSteps));
  }
  const summary = (list) => ({
    msPerStepFirst100: round(median(list.map((sample) => msPerStep(sample.arrivals, 0, 100))), 2),
    msPerStepLast100: round(median(list.map((sample) => msPerStep(sample.arrivals, longSteps - 101, longSteps - 1))), 2),
    liveHeapGrowthMbPer100Steps: round(median(list.map(liveHeapGrowth)), 2),
    rssGrowthMbPer100Steps: round(median(list.map(rssGrowth)), 2),
    peakRssMb: round(median(list.map((sample) => sample.maxRssMb)), 1),
  });
  return { steps: longSteps, rounds: longRounds, raw: summary(samples.raw), sdk: summary(samples.sdk) };
}

try {
  const short = await shortLoop();
  const long = longSteps >= 200 ? await longRun() : undefined;
  if (server.problems.length) throw new Error(`invalid requests: ${server.problems.join('; ')}`);
  const ratios = {
    startup: round(short.sdk.startupMs / short.raw.startupMs, 2),
    stepDeltaMs: round(short.sdk.msPerStep - short.raw.msPerStep, 2),
    peakRss: round(short.sdk.peakRssMb / short.raw.peakRssMb, 2),
    ...(long
      ? {
          stepDeltaFirst100Ms: round(long.sdk.msPerStepFirst100 - long.raw.msPerStepFirst100, 2),
          stepDeltaLast100Ms: round(long.sdk.msPerStepLast100 - long.raw.msPerStepLast100, 2),
          liveHeapGrowthMbPer100Steps: long.sdk.liveHeapGrowthMbPer100Steps,
          rssGrowthMbPer100Steps: long.sdk.rssGrowthMbPer100Steps,
          rawRssGrowthMbPer100Steps: long.raw.rssGrowthMbPer100Steps,
        }
      : {}),
  };
  console.log(JSON.stringify({ benchmark: 'openai-loop', subject: '@cairn/sdk (built), default SQLite store and plugins', steps, rounds, raw: short.raw, sdk: short.sdk, ...(long ? { long } : {}), ratios, targets: loopTargets(ratios) }));
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
