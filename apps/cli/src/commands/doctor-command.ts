import type { DoctorCheck } from '../doctor/doctor-check.js';
import { nodeCheck } from '../doctor/node-check.js';
import { providerChecks } from '../doctor/provider-checks.js';
import { sandboxCheck } from '../doctor/sandbox-check.js';
import { cairnHome, indexCheck, storeCheck } from '../doctor/store-checks.js';
import { packageInfo } from '../package-info.js';

export interface DoctorCommandOptions {
  cwd: string;
  json: boolean;
  color: boolean;
  timeoutMs?: number;
  stdout: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

/** `cairn doctor`: one ok / warn / fail line per thing cairn needs; exits 1 when something failed. */
export async function runDoctorCommand(options: DoctorCommandOptions): Promise<number> {
  const home = cairnHome(options.env);
  const info = packageInfo();
  const [sandbox, providers, store, index] = await Promise.all([
    sandboxCheck(options.env),
    providerChecks(options.env, options.timeoutMs),
    storeCheck(home),
    indexCheck(options.cwd, home),
  ]);
  const checks = [nodeCheck(process.version, info.engines.node), sandbox, ...providers, store, index];
  const failed = checks.some((check) => check.status === 'fail');
  if (options.json) options.stdout.write(`${JSON.stringify({ version: info.version, ok: !failed, checks }, null, 2)}\n`);
  else options.stdout.write(`${checks.map((check) => doctorLine(check, options.color)).join('\n')}\n`);
  return failed ? 1 : 0;
}

const colors = { ok: '\x1b[32m', warn: '\x1b[33m', fail: '\x1b[31m' } as const;

export function doctorLine(check: DoctorCheck, color: boolean): string {
  const label = check.status.padEnd(4);
  const status = color ? `${colors[check.status]}${label}\x1b[0m` : label;
  return `${status}  ${check.name.padEnd(18)} ${check.message}${check.fix ? ` — ${check.fix}` : ''}`;
}
