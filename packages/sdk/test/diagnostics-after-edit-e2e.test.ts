import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { languageServersWarm, languageServerStatus } from '@cairn/tools-lints';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createCairn, createMemoryStore, defaultPlugins } from '../src/index.js';
import { resultsSeen } from './security-helpers.js';

// Issue 19: after every edit the model reads the diagnostics the edit introduced, from a
// typescript-language-server kept warm for the workspace (started when the agent is created).

async function workspace(): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-diag-e2e-')));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'tsconfig.json'), '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n');
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src', 'main.ts'), "export const greeting = 'hi';\n");
  return root;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const broken = 'export function total(items: number[]): number {\n  const sum: number = items.join(",");\n  return sum;\n}\n';

describe('diagnostics after edits, end to end', () => {
  it('the model reads the error and line its write introduced, fixes it, and reads that the file is clean', async () => {
    const cwd = await workspace();
    const model = scriptedModel([
      { toolCalls: [{ id: 'w', name: 'write', args: { path: 'src/total.ts', contents: broken } }] },
      { toolCalls: [{ id: 'f', name: 'search_replace', args: { path: 'src/total.ts', old_string: 'items.join(",")', new_string: 'items.reduce((a, b) => a + b, 0)' } }] },
      { text: 'Fixed.' },
    ]);
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    // A generous bound: a cold server on a loaded test machine can take seconds (pnpm bench measures it).
    const agent = await Agent.create({ model: 'scripted/m', local: { cwd, store: createMemoryStore() }, toolSettings: { diagnostics: { timeoutMs: 60_000 } } });
    const [server] = await languageServerStatus(cwd);
    expect(server).toMatchObject({ id: 'typescript' });
    const result = await (await agent.send('add a total function')).wait();
    expect(result.status).toBe('finished');

    const afterWrite = resultsSeen(model.calls[1]).w;
    expect(afterWrite?.isError).toBe(false);
    expect(afterWrite?.text).toContain('src/total.ts: 1 error introduced by this edit:');
    expect(afterWrite?.text).toMatch(/src\/total\.ts:2:9: error TS2322: Type 'string' is not assignable to type 'number'\./);

    const afterFix = resultsSeen(model.calls[2]).f;
    expect(afterFix?.isError).toBe(false);
    expect(afterFix?.text).toContain('src/total.ts: clean, no errors or warnings.');

    const [warm] = await languageServersWarm(cwd);
    const pid = warm?.pid as number;
    expect(processAlive(pid)).toBe(true);
    await agent.close();
    expect(processAlive(pid)).toBe(false);
    expect(await languageServerStatus(cwd)).toEqual([]);
  });

  it('is off with toolSettings.diagnostics: false: no server starts and results carry no diagnostics', async () => {
    const cwd = await workspace();
    const model = scriptedModel([{ toolCalls: [{ id: 'w', name: 'write', args: { path: 'src/total.ts', contents: broken } }] }, { text: 'done' }]);
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    const agent = await Agent.create({ model: 'scripted/m', local: { cwd, store: createMemoryStore() }, toolSettings: { diagnostics: false } });
    onTestFinished(() => agent.close());
    expect(await languageServerStatus(cwd)).toEqual([]);
    await (await agent.send('write it')).wait();
    const seen = resultsSeen(model.calls[1]).w;
    expect(seen?.isError).toBe(false);
    expect(seen?.text).not.toContain('<diagnostics');
    expect(await languageServerStatus(cwd)).toEqual([]);
  });

  it('read_lints answers from the warm server (no tsc in the workspace) for the files it checks', async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, 'src', 'bad.ts'), 'export const n: number = "x";\n');
    const model = scriptedModel([{ toolCalls: [{ id: 'l', name: 'read_lints', args: { paths: ['src/bad.ts'] } }] }, { text: 'done' }]);
    const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
    const agent = await Agent.create({ model: 'scripted/m', local: { cwd, store: createMemoryStore() }, toolSettings: { diagnostics: { timeoutMs: 60_000 } } });
    onTestFinished(() => agent.close());
    await languageServersWarm(cwd);
    await (await agent.send('lint')).wait();
    const seen = resultsSeen(model.calls[1]).l;
    expect(seen?.text).toContain('TypeScript: the warm language server of the diagnostics after edits');
    expect(seen?.text).toMatch(/src\/bad\.ts:1:14: error Type 'string' is not assignable to type 'number'\. \(typescript TS2322\)/);
  });
});
