import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { ApprovalRecord } from '@cairn/core';
import Database from 'better-sqlite3';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, currentSchemaVersion } from '../src/index.js';

const run = promisify(execFile);
const packageRoot = resolve(import.meta.dirname, '..');
// Inside node_modules so the bundle resolves better-sqlite3 (kept external: it loads a native addon).
const bundleDir = join(packageRoot, 'node_modules', '.cache', `cairn-sqlite-child-${process.pid}`);
const childScript = join(bundleDir, 'store-child.js');
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-processes-'));
  await build({
    config: false,
    entry: { 'store-child': join(packageRoot, 'test/fixtures/store-child.ts') },
    outDir: bundleDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    noExternal: [/^@cairn\//],
    external: ['better-sqlite3'],
    esbuildOptions(options) {
      options.conditions = ['cairn-source'];
    },
  });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

function approvalRequest(runId: string, callId: string): ApprovalRecord {
  return { runId, agentId: 'agent-1', callId, kind: 'tool', toolName: 'shell', args: { command: 'git push' }, reason: 'matches an ask rule', status: 'pending', createdAt: 1 };
}

async function child(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [childScript, ...args], { timeout: 15_000 });
  return JSON.parse(stdout.trim());
}

describe('two processes on one SQLite file', () => {
  it('concurrent appends from four processes on a fresh file: none lost, no SQLITE_BUSY, offsets dense', async () => {
    const path = join(root, 'appends.db');
    const startAt = String(Date.now() + 700);
    const results = await Promise.all([
      child('append', path, startAt, 'run-agent-a', '200', '1'),
      child('append', path, startAt, 'run-agent-b', '200', '1'),
      child('append', path, startAt, 'run-shared', '150', '3'),
      child('append', path, startAt, 'run-shared', '150', '3'),
    ]);
    const store = createSqliteStore({ path });
    try {
      for (const runId of ['run-agent-a', 'run-agent-b']) {
        const { events } = await store.runEvents.list(runId);
        expect(events.map((stored) => stored.offset)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
      }
      expect(results[0].offsets).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
      const shared = (await store.runEvents.list('run-shared')).events;
      expect(shared.map((stored) => stored.offset)).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));
      // Both writers' events are all there, each batch contiguous and in its own order.
      const texts = shared.map((stored) => (stored.event.kind === 'update' && stored.event.update.type === 'text-delta' ? stored.event.update.text : ''));
      for (const writer of [results[2].pid, results[3].pid]) {
        const mine = texts.filter((text) => text.startsWith(`${writer}:`)).map((text) => Number(text.split(':')[1]));
        expect(mine).toEqual(Array.from({ length: 150 }, (_, index) => index));
      }
      for (let index = 0; index < 300; index += 3) {
        expect(new Set(texts.slice(index, index + 3).map((text) => text.split(':')[0])).size).toBe(1);
      }
      const allOffsets = [...results[2].offsets, ...results[3].offsets].sort((left: number, right: number) => left - right);
      expect(allOffsets).toEqual(Array.from({ length: 100 }, (_, index) => (index + 1) * 3));
    } finally {
      store.close();
    }
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(currentSchemaVersion);
    check.close();
  });

  it('four processes racing for one lease: exactly one wins, the others see the winner', async () => {
    const path = join(root, 'lease.db');
    const store = createSqliteStore({ path });
    await store.agents.put({
      agentId: 'agent-raced', cwd: '/workspace', model: { id: 'anthropic/claude-sonnet-4-5' }, mode: 'agent',
      createdAt: 1, updatedAt: 1, archived: false, checkpointRoot: null, lease: null,
    });
    const startAt = String(Date.now() + 700);
    const results = await Promise.all(['run-1', 'run-2', 'run-3', 'run-4'].map((runId) => child('lease', path, startAt, 'agent-raced', runId)));
    const winners = results.filter((entry) => entry.result.acquired);
    expect(winners).toHaveLength(1);
    const holder = (await store.agents.get('agent-raced'))?.lease;
    expect(holder?.runId).toBe(winners[0].runId);
    for (const entry of results) if (!entry.result.acquired) expect(entry.result.holder).toEqual(holder);
    store.close();
  });

  it('another process answers a pending approval while this one polls for it', async () => {
    const path = join(root, 'approval-answer.db');
    const store = createSqliteStore({ path });
    await store.approvals.request([approvalRequest('run-1', 'call-1')]);
    let childDone = false;
    const answering = child('decide', path, '0', 'run-1', 'call-1', 'false', 'other-process').finally(() => {
      childDone = true;
    });
    // Polls as a waiting run would, until the answer shows (or the child ended without giving one).
    let seen = await store.approvals.get('run-1', 'call-1');
    while (seen?.status === 'pending' && !childDone) {
      await sleep(20);
      seen = await store.approvals.get('run-1', 'call-1');
    }
    const answered = await answering;
    seen = await store.approvals.get('run-1', 'call-1');
    expect(seen).toEqual({ ...approvalRequest('run-1', 'call-1'), status: 'denied', decision: { approved: false, by: 'other-process' }, decidedAt: seen?.decidedAt });
    expect(answered.record).toEqual(seen);
    store.close();
  });

  it('four processes answering one approval differently: exactly one answer wins, all read it', async () => {
    const path = join(root, 'approval-race.db');
    const store = createSqliteStore({ path });
    await store.approvals.request([approvalRequest('run-1', 'call-1')]);
    const startAt = String(Date.now() + 700);
    const results = await Promise.all(
      ['yes-1', 'no-1', 'yes-2', 'no-2'].map((by) => child('decide', path, startAt, 'run-1', 'call-1', String(by.startsWith('yes')), by)),
    );
    const stored = await store.approvals.get('run-1', 'call-1');
    expect(['yes-1', 'no-1', 'yes-2', 'no-2']).toContain(stored?.decision?.by);
    expect(stored?.status).toBe(stored?.decision?.by?.startsWith('yes') ? 'approved' : 'denied');
    for (const result of results) expect(result.record).toEqual(stored);
    store.close();
  });

  it('kill -9 while appending: every acknowledged event survives and appends continue', async () => {
    const path = join(root, 'killed.db');
    const writer = spawn(process.execPath, [childScript, 'append-forever', path, '0', 'run-killed'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let acknowledged = 0;
    await new Promise<void>((resolvePromise) => {
      let buffered = '';
      writer.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) acknowledged = Number(line);
        if (acknowledged >= 300 && !writer.killed) writer.kill('SIGKILL');
      });
      writer.on('exit', () => resolvePromise());
    });
    const store = createSqliteStore({ path });
    const { events } = await store.runEvents.list('run-killed');
    expect(events.length).toBeGreaterThanOrEqual(acknowledged);
    expect(events.map((stored) => stored.offset)).toEqual(Array.from({ length: events.length }, (_, index) => index + 1));
    expect((await store.runEvents.append('run-killed', [{ kind: 'update', update: { type: 'text-delta', text: 'after' } }])).lastOffset).toBe(events.length + 1);
    store.close();
  });
});
