// The built `cairn` command (apps/cli/dist/bin.js) as whole processes, side by side with what it is
// compared with (issue 16), runs interleaved, medians of wall time (spawn to exit) and peak RSS:
// - `cairn --help` vs `node -e 0`: what loading the command line costs before it does anything;
// - a one-step headless run (`cairn --model openai/gpt-4.1-mini "say done"`, default SQLite store
//   under a temporary CAIRN_HOME) vs a plain script doing the same request with the `openai` SDK
//   (openai-one-shot.mjs), both against the same local zero-latency Chat Completions server.
// The aims are reported as met or not, never asserted.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLoopServer } from './loop-server.mjs';
import { median, round } from './stats.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const cliBin = fileURLToPath(new URL('../../cli/dist/bin.js', import.meta.url));
const peakRss = fileURLToPath(new URL('./peak-rss.cjs', import.meta.url));
const oneShot = fileURLToPath(new URL('./openai-one-shot.mjs', import.meta.url));
if (!existsSync(cliBin)) throw new Error(`${cliBin} is missing: build the CLI first (pnpm build, or cd apps/cli && pnpm exec tsup)`);

const server = await startLoopServer();
const home = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-home-'));
const cwd = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-cwd-'));
const providerEnv = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat', CAIRN_HOME: home, HOME: home, NO_COLOR: '1' };

const subjects = {
  nodeNoop: { args: ['-e', '0'] },
  cliHelp: { args: [cliBin, '--help'] },
  openaiOneShot: { args: [oneShot, 'say done'], requests: 1 },
  cliRun: { args: [cliBin, '--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'say done'], requests: 1 },
};

const census = fileURLToPath(new URL('./module-census.mjs', import.meta.url));

/** The packages a subject loads (one untimed run with module-census.mjs), e.g. { commander: 2, cairn: 3 }. */
function loadedPackages(name) {
  const env = { ...process.env, ...providerEnv };
  delete env.NODE_OPTIONS;
  server.begin(0);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', census, ...subjects[name].args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdio[3].on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      server.end(`${name} census`);
      if (code !== 0) return reject(new Error(`${name} (census) exited ${code}: ${err.trim()}`));
      resolve(JSON.parse(out));
    });
  });
}

/** One fresh process: wall time from spawn to exit, and its peak RSS (reported by peak-rss.cjs on fd 3). */
function measure(name) {
  const subject = subjects[name];
  const env = { ...process.env, ...providerEnv };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS; // loading extra CA certificates would dominate start-up
  server.begin(0);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', peakRss, ...subject.args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let rss = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdio[3].on('data', (chunk) => (rss += chunk));
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const requests = server.end(name).length;
      if (code !== 0) return reject(new Error(`${name} exited ${code}: ${err.trim().split('\n').slice(-3).join(' / ')}`));
      if ((subject.requests ?? 0) !== requests) return reject(new Error(`${name} sent ${requests} requests, expected ${subject.requests ?? 0}`));
      if (subject.requests && out.trim() !== 'done') return reject(new Error(`${name} printed ${JSON.stringify(out)}, expected "done"`));
      resolve({ wallMs, peakRssMb: Number(rss.trim()) / 1024 });
    });
  });
}

try {
  const names = Object.keys(subjects);
  // Warm-up: the file-system cache, and the CLI's database, which later runs find in place.
  for (const name of names) await measure(name);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let index = 0; index < rounds; index++) for (const name of names) samples[name].push(await measure(name));
  if (server.problems.length) throw new Error(`invalid requests: ${server.problems.join('; ')}`);
  const summary = Object.fromEntries(
    names.map((name) => [name, { wallMs: round(median(samples[name].map((sample) => sample.wallMs)), 1), peakRssMb: round(median(samples[name].map((sample) => sample.peakRssMb)), 1) }]),
  );
  const modules = { cliHelp: await loadedPackages('cliHelp'), cliRun: await loadedPackages('cliRun') };
  const ratios = {
    help: round(summary.cliHelp.wallMs / summary.nodeNoop.wallMs, 2),
    run: round(summary.cliRun.wallMs / summary.openaiOneShot.wallMs, 2),
    runRss: round(summary.cliRun.peakRssMb / summary.openaiOneShot.peakRssMb, 2),
  };
  const targets = [
    { measure: '`cairn --help` wall time vs `node -e 0`', aim: '<= 2x', measured: `${ratios.help}x (${summary.cliHelp.wallMs} vs ${summary.nodeNoop.wallMs} ms)`, met: ratios.help <= 2 },
    { measure: 'one-step headless `cairn` run wall time vs a plain `openai` SDK script', aim: '<= 1.3x', measured: `${ratios.run}x (${summary.cliRun.wallMs} vs ${summary.openaiOneShot.wallMs} ms)`, met: ratios.run <= 1.3 },
    { measure: 'one-step headless `cairn` run peak RSS vs the plain script', aim: '', measured: `${ratios.runRss}x (${summary.cliRun.peakRssMb} vs ${summary.openaiOneShot.peakRssMb} MB)`, met: true },
  ];
  console.log(JSON.stringify({ benchmark: 'cli-startup', subject: 'apps/cli/dist/bin.js (built), default SQLite store', rounds, ...summary, ratios, targets, modules }));
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
