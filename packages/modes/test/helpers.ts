import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CairnPlugin, RunEvent, SDKMessage, InteractionUpdate, AgentStore } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { fsToolsPlugin } from '@cairn/tools-fs';
import { planningToolsPlugin } from '@cairn/tools-planning';
import { shellToolsPlugin } from '@cairn/tools-shell';
import { modesPlugin } from '../src/index.js';

export const modelId = 'scripted/scripted-model';

export async function tempDir(prefix = 'cairn-modes-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A Cairn with the real fs, shell and planning tools and the four modes, over a scripted model. */
export function setupCairn(turns: ScriptedTurn[], options: { plugins?: CairnPlugin[]; store?: AgentStore } = {}) {
  const model = scriptedModel(turns);
  const cairn = createCairn({
    plugins: [
      { name: 'test-provider', providers: [scriptedProvider({ 'scripted-model': model })] },
      fsToolsPlugin,
      shellToolsPlugin,
      planningToolsPlugin,
      modesPlugin,
      ...(options.plugins ?? []),
    ],
    ...(options.store ? { defaultStore: () => options.store as AgentStore } : {}),
  });
  return { model, ...cairn };
}

/** An environment whose user layer is an empty temp folder, so the machine's ~/.cairn never leaks in. */
export async function isolatedEnv(extra: Record<string, string> = {}): Promise<Record<string, string | undefined>> {
  return { ...process.env, CAIRN_HOME: await tempDir('cairn-home-'), ...extra };
}

/** Hash of every file under root (including .git), keyed by relative path. */
export async function hashTree(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const walk = async (relative: string) => {
    for (const entry of await readdir(join(root, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path);
      else result[path] = createHash('sha256').update(await readFile(join(root, path))).digest('hex');
    }
  };
  await walk('');
  return result;
}

export async function collect(run: { stream(): AsyncIterable<SDKMessage> }): Promise<SDKMessage[]> {
  const seen: SDKMessage[] = [];
  for await (const message of run.stream()) seen.push(message);
  return seen;
}

export function updatesOf(events: RunEvent[]): InteractionUpdate[] {
  return events.flatMap((event) => (event.kind === 'update' ? [event.update] : []));
}

export function toolNames(call: { tools?: Array<{ name: string }> }): string[] {
  return (call.tools ?? []).map((tool) => tool.name);
}
