import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { processTable } from './proc-table.js';

// The tag of each running bubblewrap launch, by the process group its outer bwrap leads.
const tags = new Map<number, string>();
const tagVariable = 'CAIRN_COMMAND_ID';

/**
 * Gives a bubblewrap launch a tag its namespace's init carries too (the init is a fork of bwrap, so
 * its command line is bwrap's): `--setenv CAIRN_COMMAND_ID <tag>`. Other launches are unchanged.
 */
export function tagLaunch(file: string, args: string[]): { args: string[]; tag?: string } {
  if (basename(file) !== 'bwrap') return { args };
  const tag = `${process.pid}-${randomBytes(6).toString('hex')}`;
  return { args: ['--setenv', tagVariable, tag, ...args], tag };
}

export function rememberTag(pgid: number, tag: string | undefined): void {
  if (tag) tags.set(pgid, tag);
}

export function forgetTag(pgid: number): void {
  tags.delete(pgid);
}

/**
 * SIGKILL to the PID namespace init of the launch leading group `pgid`: that ends every process
 * in the namespace. `--die-with-parent` does the same once the init has armed it, but bwrap killed
 * during start-up (a run that ends right after starting a background command) can die before
 * that, and the namespace would live on, reparented and in a session of its own. Found by its tag,
 * since it is no longer the child of anything we know.
 */
export function killTaggedNamespace(pgid: number): void {
  const tag = tags.get(pgid);
  if (!tag || process.platform !== 'linux') return;
  const needle = `\0${tagVariable}\0${tag}\0`;
  for (const entry of processTable()) {
    if (entry.name !== 'bwrap') continue;
    let commandLine: string;
    try {
      commandLine = `\0${readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8')}`;
    } catch {
      continue;
    }
    if (!commandLine.includes(needle)) continue;
    try {
      process.kill(entry.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
