import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolExecutionContext, ToolResultContent } from '@cairn/core';
import { canonicalWorkspaceRoot } from '@cairn/core/node';

/** A temp folder with the workspace `proj` and a sibling `proj-evil` sharing its name prefix. */
export async function createWorkspace(files: Record<string, string | Buffer>): Promise<{ base: string; root: string; outside: string; cleanup(): Promise<void> }> {
  const base = await canonicalWorkspaceRoot(await mkdtemp(join(tmpdir(), 'cairn-search-')));
  const root = join(base, 'proj');
  const outside = join(base, 'proj-evil');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'needle outside\n');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return { base, root, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export function testContext(cwd: string, options: { settings?: Record<string, unknown>; deny?: (absolutePath: string, toolId: string) => boolean; signal?: AbortSignal } = {}): ToolExecutionContext {
  const state = new Map<string, unknown>();
  return {
    toolCallId: 'call-1',
    agentId: 'agent-1',
    runId: 'run-1',
    cwd,
    mode: 'agent',
    signal: options.signal ?? new AbortController().signal,
    emit: () => undefined,
    state: { get: <T>(key: string) => state.get(key) as T | undefined, set: (key, value) => void state.set(key, value) },
    recordFileChange: async () => undefined,
    sandbox: { profile: 'none', networkAllow: [], required: false },
    isPathDenied: (absolutePath, toolId) => options.deny?.(absolutePath, toolId) ?? false,
    settings: options.settings ?? {},
    env: {},
  };
}

export function textOf(result: unknown): string {
  return (result as ToolResultContent).content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Run the real rg with plain (non --null) output: the reference the tool's output must equal. */
export function referenceRipgrep(rgPath: string, cwd: string, args: string[]): string {
  const result = spawnSync(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status === 2) throw new Error(`rg failed: ${result.stderr}`);
  return result.stdout.replace(/\n$/, '');
}
