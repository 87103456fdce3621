import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCairn } from '@cairn/core/node';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { fsToolsPlugin } from '@cairn/tools-fs';
import { describe, expect, it } from 'vitest';
import { type BackendName, freshStore } from './store-backends.js';

/** Every file and folder under `root` with its bytes (folders map to null). */
async function snapshot(root: string, relative = ''): Promise<Map<string, Buffer | null>> {
  const entries = new Map<string, Buffer | null>();
  for (const entry of await readdir(join(root, relative), { withFileTypes: true })) {
    const path = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      entries.set(`${path}/`, null);
      for (const [inner, bytes] of await snapshot(root, path)) entries.set(inner, bytes);
    } else entries.set(path, await readFile(join(root, path)));
  }
  return entries;
}

async function workspace(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-rewind-ws-'));
  await writeFile(join(cwd, 'a.txt'), 'alpha\nsecond line\n');
  await writeFile(join(cwd, 'b.txt'), 'beta line one\nbeta line two\n');
  await mkdir(join(cwd, 'sub'));
  await writeFile(join(cwd, 'sub', 'data.bin'), Buffer.from([0, 1, 2, 254, 255, 10, 13, 0]));
  await writeFile(join(cwd, 'doomed.txt'), 'delete me\n');
  return cwd;
}

function agentsWith(turns: ScriptedTurn[]) {
  const model = scriptedModel(turns);
  return createCairn({ plugins: [{ name: 'rewind', providers: [scriptedProvider({ 'scripted-model': model })] }, fsToolsPlugin] }).Agent;
}

const call = (name: string, args: Record<string, unknown>, id: string) => ({ name, args, id });

describe.each<BackendName>(['sqlite', 'jsonl'])('agent.rewind with the real file tools (%s)', (backend) => {
  it('restores the workspace byte for byte after a run that wrote, edited and deleted files, and the conversation too', async () => {
    const cwd = await workspace();
    const { store } = freshStore(backend);
    const Agent = agentsWith([
      { text: 'Hello, nothing to change yet.' },
      { toolCalls: [call('read_file', { path: 'a.txt' }, 'read-a'), call('read_file', { path: 'b.txt' }, 'read-b')] },
      {
        toolCalls: [
          call('write', { path: 'a.txt', contents: 'rewritten alpha\n' }, 'write-a'),
          call('search_replace', { path: 'b.txt', old_string: 'beta line two', new_string: 'BETA LINE TWO' }, 'edit-b'),
          call('delete_file', { path: 'doomed.txt' }, 'delete-doomed'),
          call('write', { path: 'new/deep/file.txt', contents: 'brand new\n' }, 'write-new'),
          call('write', { path: 'sub/data.bin', contents: 'text now' }, 'write-bin'),
        ],
      },
      { toolCalls: [call('search_replace', { path: 'new/deep/file.txt', old_string: 'brand new', new_string: 'edited twice' }, 'edit-new')] },
      { text: 'Done editing.' },
    ]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd, store } });
    expect((await (await agent.send('say hello')).wait()).status).toBe('finished');
    const before = await snapshot(cwd);
    const conversationBefore = await Agent.messages.listModelMessages(agent.agentId, { store });

    const run = await agent.send('edit the files');
    const result = await run.wait();
    expect(result.status).toBe('finished');
    const toolResults = (await Agent.messages.listModelMessages(agent.agentId, { store })).filter((message) => message.role === 'tool');
    expect(JSON.stringify(toolResults)).not.toMatch(/"error-text"|"error-json"/);
    expect(await readFile(join(cwd, 'b.txt'), 'utf8')).toBe('beta line one\nBETA LINE TWO\n');
    expect(await readFile(join(cwd, 'new/deep/file.txt'), 'utf8')).toBe('edited twice\n');
    expect((await snapshot(cwd)).has('doomed.txt')).toBe(false);
    const recorded = (await store.runs.get(run.id))?.fileChanges ?? [];
    expect(recorded.map((change) => change.path).sort()).toEqual(['a.txt', 'b.txt', 'doomed.txt', 'new/deep/file.txt', 'new/deep/file.txt', 'sub/data.bin']);

    const report = await agent.rewind(run.id);
    expect(report.conflicts).toEqual([]);
    expect(report.restored.sort()).toEqual(['a.txt', 'b.txt', 'doomed.txt', 'new/deep/file.txt', 'sub/data.bin']);
    expect(report.undoneRuns).toEqual([run.id]);
    expect(await snapshot(cwd)).toEqual(before);
    expect(await Agent.messages.listModelMessages(agent.agentId, { store })).toEqual(conversationBefore);
    await store.close?.();
  });

  it('reports a file changed outside the agent instead of overwriting it, and undoes the rest', async () => {
    const cwd = await workspace();
    const { store } = freshStore(backend);
    const Agent = agentsWith([
      {
        toolCalls: [
          call('write', { path: 'created.txt', contents: 'by the agent\n' }, 'write-created'),
          call('search_replace', { path: 'b.txt', old_string: 'beta line one', new_string: 'agent line one' }, 'edit-b'),
          call('delete_file', { path: 'doomed.txt' }, 'delete-doomed'),
        ],
      },
      { text: 'Edited.' },
    ]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd, store } });
    const run = await agent.send('edit');
    expect((await run.wait()).status).toBe('finished');
    // The user edits b.txt and recreates doomed.txt by hand.
    await writeFile(join(cwd, 'b.txt'), 'the user rewrote this\n');
    await writeFile(join(cwd, 'doomed.txt'), 'user content\n');

    const report = await agent.rewind(run.id);
    expect(report.restored).toEqual(['created.txt']);
    expect(report.conflicts.map((conflict) => conflict.path).sort()).toEqual(['b.txt', 'doomed.txt']);
    expect(report.conflicts.find((conflict) => conflict.path === 'b.txt')?.reason).toMatch(/changed outside the agent/);
    expect(await readFile(join(cwd, 'b.txt'), 'utf8')).toBe('the user rewrote this\n');
    expect(await readFile(join(cwd, 'doomed.txt'), 'utf8')).toBe('user content\n');
    expect((await snapshot(cwd)).has('created.txt')).toBe(false);
    expect(await Agent.messages.listModelMessages(agent.agentId, { store })).toEqual([]);
    await store.close?.();
  });

  it('rewinding to an earlier run after a rewind does not undo the undone run twice; the agent continues from there', async () => {
    const cwd = await workspace();
    const { store } = freshStore(backend);
    const Agent = agentsWith([
      { toolCalls: [call('write', { path: 'f.txt', contents: 'one\n' }, 'w1')] },
      { text: 'first' },
      { toolCalls: [call('write', { path: 'f.txt', contents: 'two\n' }, 'w2')] },
      { text: 'second' },
      { text: 'after the rewinds' },
    ]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd, store } });
    const first = await agent.send('one');
    await first.wait();
    const second = await agent.send('two');
    await second.wait();
    expect((await agent.rewind(second.id)).restored).toEqual(['f.txt']);
    expect(await readFile(join(cwd, 'f.txt'), 'utf8')).toBe('one\n');
    const again = await agent.rewind(first.id);
    expect(again).toMatchObject({ conflicts: [], restored: ['f.txt'], undoneRuns: [first.id] });
    expect(await snapshot(cwd)).toEqual(await snapshot(await workspace()));
    expect((await (await agent.send('go on')).wait()).result).toBe('after the rewinds');
    expect((await Agent.messages.listModelMessages(agent.agentId, { store })).map((message) => message.role)).toEqual(['user', 'assistant']);
    await store.close?.();
  });
});
