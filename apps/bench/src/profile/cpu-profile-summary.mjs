// Summarise a V8 .cpuprofile (from `node --cpu-prof`): self time by package and by function, so a
// profile answers "where does the time go" without opening DevTools.
import { readFileSync } from 'node:fs';

/** The package a script URL belongs to: a workspace package, an installed dependency, or Node itself. */
export function packageOf(url) {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node (built-in)';
  const installed = url.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
  if (installed) return installed[1];
  const workspace = url.match(/\/(packages\/(?:providers|stores|tools)\/[^/]+|packages\/[^/]+|apps\/[^/]+)\//);
  if (workspace) return workspace[1];
  return url.replace(/^file:\/\//, '');
}

/** Self time (ms) per node id of the profile. */
function selfTimes(profile) {
  const times = new Map();
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index];
    times.set(id, (times.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  }
  return times;
}

/** { totalMs, byPackage: Map<package, ms>, byFunction: Map<"fn (package)", ms> } of one profile file. */
export function summariseCpuProfile(path) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const times = selfTimes(profile);
  const byPackage = new Map();
  const byFunction = new Map();
  let totalMs = 0;
  for (const node of profile.nodes) {
    const ms = times.get(node.id) ?? 0;
    if (ms === 0) continue;
    totalMs += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    // (idle), (garbage collector) and (program) have no URL: keep them as their own rows.
    const owner = url ? packageOf(url) : functionName || '(anonymous)';
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + ms);
    const name = `${functionName || '(anonymous)'} ${url ? `${owner}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  return { totalMs, byPackage, byFunction };
}
