// What importing a module adds to a process's start-up, measured in fresh processes (median of
// --runs) after a baseline import, so shared costs (the ES module loader's own warm-up, `openai`,
// which the raw loop loads too) are not counted twice:
//   node apps/bench/src/profile/import-cost.mjs [--baseline openai] [--runs 9] <module> ...
// A <module> is a bare name resolved from the repository (`zod`, `@cairn/sdk`, `turndown`) or a
// path to a file. Workspace packages resolve to their built dist.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, round } from '../stats.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { baseline: { type: 'string', default: 'openai' }, runs: { type: 'string', default: '9' } } });
if (positionals.length === 0) throw new Error('Name at least one module to measure, e.g. `import-cost.mjs zod turndown @cairn/sdk`.');
const root = new URL('../../../../', import.meta.url).pathname;
// Resolved from each workspace package in turn, so every dependency of the shipped packages is reachable.
const packageDirs = ['packages/sdk', 'apps/bench', ...['', 'providers/', 'stores/', 'tools/'].flatMap((group) =>
  readdirSync(resolve(root, 'packages', group), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `packages/${group}${entry.name}`))];
const requires = packageDirs.filter((dir) => existsSync(resolve(root, dir, 'package.json'))).map((dir) => createRequire(resolve(root, dir, 'package.json')));
const workspace = { '@cairn/sdk': 'packages/sdk/dist/index.js', '@cairn/core': 'packages/core/dist/index.js' };

function urlOf(specifier) {
  if (existsSync(specifier)) return pathToFileURL(resolve(specifier)).href;
  if (workspace[specifier]) return pathToFileURL(resolve(root, workspace[specifier])).href;
  for (const require of requires) {
    try {
      return pathToFileURL(require.resolve(specifier)).href;
    } catch {}
  }
  // ESM-only packages: let the child resolve it from the SDK's folder.
  return specifier;
}

// Wall-clock and CPU time of the import: CPU time barely moves when other processes load the machine.
const probe = (baseline, target) => `
  ${baseline ? `await import(${JSON.stringify(baseline)});` : ''}
  const started = performance.now();
  const cpu = process.cpuUsage();
  await import(${JSON.stringify(target)});
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }));`;

const baseline = values.baseline === 'none' ? undefined : urlOf(values.baseline);
for (const specifier of positionals) {
  const target = urlOf(specifier);
  const samples = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', probe(baseline, target)], { cwd: resolve(root, 'packages/sdk'), encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`importing ${specifier} failed: ${child.stderr.trim().split('\n').slice(0, 6).join(' | ')}`);
    samples.push(JSON.parse(child.stdout));
  }
  const wall = round(median(samples.map((sample) => sample.wallMs)), 1);
  const cpu = round(median(samples.map((sample) => sample.cpuMs)), 1);
  console.log(`${String(wall).padStart(8)} ms wall ${String(cpu).padStart(8)} ms CPU  ${specifier}${baseline ? ` (after ${values.baseline})` : ''}`);
}
