import { type DoctorCheck, fail, ok, warn } from './doctor-check.js';

/** Compare the running Node with the package's `engines.node` (only the `>=x.y.z` form is used). */
export function nodeCheck(running: string, wanted: string | undefined): DoctorCheck {
  const minimum = wanted?.match(/^>=\s*(\d+)\.(\d+)\.(\d+)$/);
  if (!minimum) return warn('node', `Node ${running}; cannot compare with the range ${wanted ?? '(none)'}`, 'use a current Node 20 or later');
  const have = running.replace(/^v/, '').split('.').map(Number);
  const need = minimum.slice(1).map(Number);
  const older = compareVersions(have, need) < 0;
  if (older) return fail('node', `Node ${running} is older than cairn needs (${wanted})`, `install Node ${need.join('.')} or later`);
  return ok('node', `Node ${running} (cairn needs ${wanted})`);
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
