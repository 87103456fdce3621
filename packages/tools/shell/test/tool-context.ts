import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InteractionUpdate, SandboxRequirement, ToolExecutionContext } from '@cairn/core';

export async function temporaryWorkspace(prefix = 'cairn-shell-'): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

export interface TestContext {
  context: ToolExecutionContext;
  updates: InteractionUpdate[];
  controller: AbortController;
}

let calls = 0;

/** A ToolExecutionContext as the runtime would build it, for one call. */
export function toolContext(cwd: string, overrides: Partial<ToolExecutionContext> & { sandbox?: SandboxRequirement } = {}): TestContext {
  const updates: InteractionUpdate[] = [];
  const controller = new AbortController();
  const state = new Map<string, unknown>();
  const context: ToolExecutionContext = {
    toolCallId: `call-${++calls}`,
    agentId: 'agent-test',
    runId: 'run-test',
    cwd,
    mode: 'agent',
    signal: controller.signal,
    emit: (update) => updates.push(update),
    state: { get: <T>(key: string) => state.get(key) as T | undefined, set: (key, value) => state.set(key, value) },
    recordFileChange: async () => {},
    sandbox: { profile: 'none', networkAllow: [], required: false },
    isPathDenied: () => false,
    settings: {},
    env: { ...process.env },
    ...overrides,
  };
  return { context, updates, controller };
}

/** Pids whose command line contains `marker` (host view of /proc). */
export async function processesMatching(marker: string): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replace(/\0/g, ' ');
      if (commandLine.includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

export async function waitFor(predicate: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return predicate();
}

export function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((part) => part.text ?? '').join('');
}

export function structured<T = Record<string, unknown>>(result: unknown): T {
  return (result as { structuredContent: T }).structuredContent;
}
