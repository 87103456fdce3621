import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  pid: number;
  /** The program name (`comm`), e.g. `bwrap`. */
  name: string;
  /** `R`, `S`, `Z` (zombie), ... */
  state: string;
  parent: number;
  group: number;
}

/** This machine's processes as /proc shows them (Linux); empty when /proc cannot be read. */
export function processTable(): ProcessEntry[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // `pid (name) state ppid pgrp ...`; the name may hold spaces and parentheses.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state = '', parent = '0', group = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    entries.push({ pid: Number(pid), name, state, parent: Number(parent), group: Number(group) });
  }
  return entries;
}
