// Profile one of the openai-loop benchmark's loops (`sdk`: the shipped SDK, `raw`: the openai SDK
// alone) against the benchmark's fake server, and print where the time goes:
//   node apps/bench/src/profile/profile-loop.mjs [--loop sdk|raw | --script file.mjs] [--steps 200] [--top 25]
// (`--script` runs another loop script that speaks the same protocol, e.g. a build of the SDK loop
// bundled from the sources of another checkout, to compare two versions function by function.)
// It runs the loop three times in fresh processes: with the module census (modules loaded by the
// first request), with --cpu-prof and no tool call (start-up), and with --cpu-prof and `--steps`
// tool calls. Per-step figures are (long profile - start-up profile) / steps, per package and per
// function. Profiles are kept in a temp folder whose path is printed, for DevTools.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startLoopServer } from '../loop-server.mjs';
import { round } from '../stats.mjs';
import { causeTimes } from './cause-groups.mjs';
import { packageOf, summariseCpuProfile } from './cpu-profile-summary.mjs';

const { values } = parseArgs({ options: { loop: { type: 'string', default: 'sdk' }, script: { type: 'string' }, steps: { type: 'string', default: '200' }, top: { type: 'string', default: '25' } } });
const scripts = { sdk: '../sdk-loop.mjs', raw: '../bare-loop.mjs' };
if (!values.script && !scripts[values.loop]) throw new Error(`--loop must be one of ${Object.keys(scripts).join(', ')}, got "${values.loop}".`);
const script = values.script ? resolve(values.script) : fileURLToPath(new URL(scripts[values.loop], import.meta.url));
const steps = Number(values.steps);
const top = Number(values.top);
const work = mkdtempSync(join(tmpdir(), 'cairn-profile-'));
const server = await startLoopServer();

function run(toolCalls, nodeArgs, extraEnv = {}) {
  const env = { ...process.env, ...extraEnv, BENCH_BASE_URL: server.url, BENCH_STEPS: String(toolCalls), BENCH_CWD: work, CAIRN_HOME: work, HOME: work };
  delete env.NODE_OPTIONS;
  server.begin(toolCalls);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => {
      server.end(script);
      if (code === 0) resolve();
      else reject(new Error(`${script} exited ${code}`));
    });
  });
}

async function cpuProfile(name, toolCalls) {
  const dir = join(work, name);
  await run(toolCalls, ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir]);
  const file = join(dir, readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile')));
  return { ...summariseCpuProfile(file), byCause: causeTimes(file) };
}

function census(file) {
  const seen = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line);
    if (!seen.has(entry.url)) seen.set(entry.url, entry);
  }
  const byPackage = new Map();
  for (const entry of seen.values()) {
    if (entry.url.startsWith('node:')) continue;
    byPackage.set(packageOf(entry.url), (byPackage.get(packageOf(entry.url)) ?? 0) + 1);
  }
  return { modules: [...seen.values()].filter((entry) => !entry.url.startsWith('node:')).length, byPackage };
}

const sorted = (map, limit) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
const table = (title, rows, unit) => {
  console.log(`\n${title}`);
  for (const [name, value] of rows) console.log(`  ${String(round(value, unit === 'ms' ? 1 : 3)).padStart(9)} ${unit}  ${name}`);
};

try {
  // Warm the file-system cache and create the database, as the benchmark's warm-up does.
  await run(0, []);
  const censusFile = join(work, 'census.jsonl');
  await run(0, ['--import', fileURLToPath(new URL('./module-census.mjs', import.meta.url))], { CAIRN_MODULE_CENSUS: censusFile });
  const modules = census(censusFile);
  console.log(`${values.script ?? `${values.loop} loop`}: ${modules.modules} modules loaded (ES and CommonJS, Node built-ins excluded)`);
  table('modules by package', sorted(modules.byPackage, top), 'modules');

  const startup = await cpuProfile('startup', 0);
  table(`start-up (no tool call): ${round(startup.totalMs, 1)} ms of samples, by package`, sorted(startup.byPackage, top), 'ms');
  table('start-up, by function (self time)', sorted(startup.byFunction, top), 'ms');

  const long = await cpuProfile('steps', steps);
  const perStep = (whole, base) => new Map([...whole.entries()].map(([name, ms]) => [name, (ms - (base.get(name) ?? 0)) / steps]));
  table(`per step (${steps} steps): ${round((long.totalMs - startup.totalMs) / steps, 3)} ms of samples per step, by package`, sorted(perStep(long.byPackage, startup.byPackage), top), 'ms');
  table('per step, by function (self time)', sorted(perStep(long.byFunction, startup.byFunction), top), 'ms');
  const causes = perStep(long.byCause, startup.byCause);
  const busy = [...causes.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(`\nper step, by cause (share of ${round(busy, 3)} ms of busy samples per step)`);
  for (const [cause, ms] of sorted(causes, causes.size)) console.log(`  ${String(round((ms / busy) * 100, 1)).padStart(5)} %  ${String(round(ms, 3)).padStart(7)} ms  ${cause}`);
  console.log(`\nprofiles: ${work}/startup and ${work}/steps (open in Chrome DevTools > Performance)`);
} finally {
  await server.close();
}
