import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonlStore, type JsonlWarning } from '../src/index.js';

const delta = (text: string): RunEvent => ({ kind: 'update', update: { type: 'text-delta', text } });
const textOf = (event: RunEvent) => (event.kind === 'update' && event.update.type === 'text-delta' ? event.update.text : '');
const agent = (name: string) => ({
  agentId: 'agent-1', cwd: '/workspace', model: { id: 'openai/gpt-5.2' }, mode: 'agent', name,
  createdAt: 1, updatedAt: 1, archived: false, checkpointRoot: null, lease: null,
});

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'cairn-jsonl-')), 'store');
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

describe('JSONL files', () => {
  it('loads lazily: creating the store touches nothing until the first operation', async () => {
    const store = createJsonlStore({ dir });
    expect(existsSync(dir)).toBe(false);
    await store.agents.list();
    expect(existsSync(dir)).toBe(true);
    await store.close();
  });

  it('writes one line per change and the last record per id wins on load', async () => {
    const store = createJsonlStore({ dir });
    await store.agents.put(agent('first'));
    await store.agents.update('agent-1', { name: 'second' });
    await store.close();
    const lines = readFileSync(join(dir, 'agents.ndjson'), 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[1] as string)).toMatchObject({ type: 'agent', record: { name: 'second' } });
    const reopened = createJsonlStore({ dir });
    expect((await reopened.agents.get('agent-1'))?.name).toBe('second');
    expect(reopened.warnings).toEqual([]);
    await reopened.close();
  });

  it('skips a torn last event line, reports it, and repairs the file on the next append without truncating', async () => {
    const first = createJsonlStore({ dir });
    await first.runEvents.append('run-1', [delta('one'), delta('two')]);
    await first.close();
    const eventsFile = join(dir, 'run_events.ndjson');
    const completeLine = `{"runId":"run-1","offset":3,"event":${JSON.stringify(delta('three'))}}`;
    appendFileSync(eventsFile, completeLine.slice(0, Math.floor(completeLine.length / 2)));
    const before = readFileSync(eventsFile);

    const seen: JsonlWarning[] = [];
    const second = createJsonlStore({ dir, onWarning: (warning) => seen.push(warning) });
    const { events } = await second.runEvents.list('run-1');
    expect(events.map((stored) => textOf(stored.event))).toEqual(['one', 'two']);
    expect(second.warnings).toHaveLength(1);
    expect(second.warnings[0]).toMatchObject({ file: 'run_events.ndjson', line: 3 });
    expect(second.warnings[0]?.message).toContain('torn');
    expect(seen).toEqual(second.warnings);

    expect(await second.runEvents.append('run-1', [delta('three again')])).toEqual({ lastOffset: 3 });
    await second.close();
    const after = readFileSync(eventsFile);
    expect(after.subarray(0, before.byteLength).equals(before)).toBe(true);
    expect(after.toString('utf8', before.byteLength, before.byteLength + 1)).toBe('\n');

    const third = createJsonlStore({ dir });
    const reloaded = await third.runEvents.list('run-1');
    expect(reloaded.events.map((stored) => [stored.offset, textOf(stored.event)])).toEqual([[1, 'one'], [2, 'two'], [3, 'three again']]);
    // The old fragment is now a complete but unreadable line: still skipped and reported.
    expect(third.warnings).toEqual([expect.objectContaining({ file: 'run_events.ndjson', line: 3 })]);
    await third.close();
  });

  it('a torn agent upsert leaves the previous version of the agent', async () => {
    const first = createJsonlStore({ dir });
    await first.agents.put(agent('kept'));
    await first.close();
    appendFileSync(join(dir, 'agents.ndjson'), `{"type":"agent","record":{"agentId":"agent-1","cwd":"/workspace","name":"lo`);
    const second = createJsonlStore({ dir });
    expect((await second.agents.get('agent-1'))?.name).toBe('kept');
    expect(second.warnings).toHaveLength(1);
    await second.agents.update('agent-1', { name: 'updated' });
    await second.close();
    const third = createJsonlStore({ dir });
    expect((await third.agents.get('agent-1'))?.name).toBe('updated');
    await third.close();
  });

  it('keeps a complete last record whose newline was not written', async () => {
    const first = createJsonlStore({ dir });
    await first.runEvents.append('run-1', [delta('one')]);
    await first.close();
    appendFileSync(join(dir, 'run_events.ndjson'), `{"runId":"run-1","offset":2,"event":${JSON.stringify(delta('two'))}}`);
    const second = createJsonlStore({ dir });
    expect((await second.runEvents.list('run-1')).events).toHaveLength(2);
    expect(second.warnings).toEqual([]);
    await second.runEvents.append('run-1', [delta('three')]);
    await second.close();
    const third = createJsonlStore({ dir });
    expect((await third.runEvents.list('run-1')).events.map((stored) => textOf(stored.event))).toEqual(['one', 'two', 'three']);
    await third.close();
  });

  it('skips an event whose offset does not follow, reporting it', async () => {
    const first = createJsonlStore({ dir });
    await first.runEvents.append('run-1', [delta('one')]);
    await first.close();
    appendFileSync(join(dir, 'run_events.ndjson'), `{"runId":"run-1","offset":5,"event":${JSON.stringify(delta('stray'))}}\n`);
    const second = createJsonlStore({ dir });
    expect((await second.runEvents.append('run-1', [delta('two')])).lastOffset).toBe(2);
    expect(second.warnings[0]?.message).toContain('offset 5');
    await second.close();
  });

  it('stores blobs as base64 lines and reads them back after a reopen', async () => {
    const first = createJsonlStore({ dir });
    const hash = 'f'.repeat(64);
    await first.checkpoints.putBlob(hash, Uint8Array.from([0, 255, 128, 10, 13]));
    await first.close();
    expect(JSON.parse(readFileSync(join(dir, 'checkpoints.ndjson'), 'utf8'))).toEqual({ hash, data: Buffer.from([0, 255, 128, 10, 13]).toString('base64') });
    const second = createJsonlStore({ dir });
    expect(Array.from((await second.checkpoints.getBlob(hash)) as Uint8Array)).toEqual([0, 255, 128, 10, 13]);
    await second.close();
  });
});

describe('one writer per folder', () => {
  it('refuses a second open store on the same folder until the first closes', async () => {
    const first = createJsonlStore({ dir });
    await first.agents.list();
    const second = createJsonlStore({ dir });
    await expect(second.agents.list()).rejects.toMatchObject({ code: 'store_locked' });
    await first.close();
    const third = createJsonlStore({ dir });
    expect((await third.agents.list()).items).toEqual([]);
    await third.close();
  });

  it('takes over the lock of a process that is gone', async () => {
    const ended = spawnSync(process.execPath, ['-e', '']);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.lock'), `${ended.pid}\n`);
    const reopened = createJsonlStore({ dir });
    expect((await reopened.agents.list()).items).toEqual([]);
    expect(readFileSync(join(dir, '.lock'), 'utf8')).toBe(`${process.pid}\n`);
    await reopened.close();
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });

  it('refuses operations after close', async () => {
    const store = createJsonlStore({ dir });
    await store.agents.list();
    await store.close();
    await expect(store.agents.list()).rejects.toMatchObject({ code: 'store_closed' });
  });
});
