import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EditFeedbackSession, FileChange } from '@cairn/core';
import { onTestFinished } from 'vitest';
import { editDiagnosticsProvider } from '../src/index.js';

/** A temp TypeScript workspace (strict tsconfig over src/) with the given files; removed after the test. */
export async function tsWorkspace(files: Record<string, string>): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-diagnostics-')));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  const all = { 'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" }, "include": ["src"] }\n', ...files };
  for (const [path, text] of Object.entries(all)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

/** A diagnostics session as an agent gets it (the generous timeout keeps a cold server on a busy machine from failing the test). */
export function openSession(root: string, diagnostics: unknown = { timeoutMs: 60_000 }): EditFeedbackSession {
  const session = editDiagnosticsProvider.open({ cwd: root, agentId: 'agent-test', settings: { diagnostics }, env: process.env });
  if (!session) throw new Error('the diagnostics session did not open');
  onTestFinished(() => session.close());
  return session;
}

/** Write `after` over the file (as an edit tool would) and ask the session about it. */
export async function edit(session: EditFeedbackSession, root: string, path: string, after: string | null, before: string | null): Promise<string | undefined> {
  const absolute = join(root, path);
  if (after === null) await rm(absolute, { force: true });
  else {
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, after);
  }
  const bytes = (text: string | null) => (text === null ? null : new TextEncoder().encode(text));
  const changes: FileChange[] = [{ path: absolute, before: bytes(before), after: bytes(after) }];
  return session.afterEdit({ toolCallId: `call-${Math.random()}`, toolName: 'write', runId: 'run-test', changes, signal: new AbortController().signal });
}

/** Every live process whose process group is `pgid` (a server and the tsserver it started). */
export function processesInGroup(pgid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields: state, ppid, pgrp, ...; a zombie is already dead.
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}
