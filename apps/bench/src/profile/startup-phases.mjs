// Where start-up goes, phase by phase, for the SDK loop and the raw openai loop side by side:
//   node apps/bench/src/profile/startup-phases.mjs [--runs 9]
// Each run is a fresh process (startup-phase-child.mjs) against the benchmark's fake server, one
// warm-up of each first, then the loops interleaved. Prints, per phase, the median wall-clock time
// since the process started and the median CPU time used by then (all threads), and the CPU each
// phase added: the SDK's import, Agent.create and run preparation against the raw loop's import and
// client. CPU moves little when other processes load the machine, wall-clock time does.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startLoopServer } from '../loop-server.mjs';
import { median, round } from '../stats.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const child = fileURLToPath(new URL('./startup-phase-child.mjs', import.meta.url));
const server = await startLoopServer();
const home = mkdtempSync(join(tmpdir(), 'cairn-phases-home-'));
const cwd = mkdtempSync(join(tmpdir(), 'cairn-phases-cwd-'));

function once(loop) {
  const env = { ...process.env, BENCH_LOOP: loop, BENCH_BASE_URL: server.url, BENCH_CWD: cwd, CAIRN_HOME: home, HOME: home };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  server.begin(0);
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, [child], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    process_.stdout.on('data', (chunk) => (out += chunk));
    process_.on('exit', (code) => {
      server.end(`${loop} start-up`);
      if (code !== 0) return reject(new Error(`${loop} start-up exited ${code}`));
      resolve(JSON.parse(out));
    });
  });
}

try {
  const loops = ['raw', 'sdk'];
  for (const loop of loops) await once(loop);
  const samples = { raw: [], sdk: [] };
  for (let run = 0; run < Number(values.runs); run++) for (const loop of loops) samples[loop].push(await once(loop));
  for (const loop of loops) {
    console.log(`\n${loop} loop (medians of ${values.runs} runs; peak RSS ${round(median(samples[loop].map((sample) => sample.peakRssMb)), 1)} MB)`);
    console.log('  phase             wall ms   CPU ms   CPU added   RSS MB');
    let previousCpu = 0;
    for (const name of samples[loop][0].marks.map((entry) => entry.name)) {
      const at = (field) => median(samples[loop].map((sample) => sample.marks.find((entry) => entry.name === name)[field]));
      const cpu = at('cpuMs');
      console.log(`  ${name.padEnd(15)} ${String(round(at('wallMs'), 1)).padStart(9)} ${String(round(cpu, 1)).padStart(8)} ${String(round(cpu - previousCpu, 1)).padStart(11)} ${String(round(at('rssMb'), 1)).padStart(8)}`);
      previousCpu = cpu;
    }
  }
  if (server.problems.length) throw new Error(`invalid requests: ${server.problems.join('; ')}`);
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
