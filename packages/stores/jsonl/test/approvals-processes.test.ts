import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { ApprovalRecord } from '@cairn/core';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonlStore, JsonlLocalAgentStore } from '../src/index.js';

const run = promisify(execFile);
const packageRoot = resolve(import.meta.dirname, '..');
const bundleDir = join(packageRoot, 'node_modules', '.cache', `cairn-jsonl-approvals-child-${process.pid}`);
const childScript = join(bundleDir, 'approvals-child.js');
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-jsonl-approvals-'));
  await build({
    config: false,
    entry: { 'approvals-child': join(packageRoot, 'test/fixtures/approvals-child.ts') },
    outDir: bundleDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    noExternal: [/^@cairn\//],
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

async function decideInChild(dir: string, startAt: string, approved: boolean, by: string): Promise<{ by: string; record: ApprovalRecord }> {
  const { stdout } = await run(process.execPath, [childScript, dir, startAt, 'run-1', 'call-1', String(approved), by], { timeout: 15_000 });
  return JSON.parse(stdout.trim());
}

/** A store that holds the folder's lock (it has loaded the other files), as a running agent's would. */
async function openHolding(dir: string) {
  const store = createJsonlStore({ dir });
  await store.agents.list();
  return store;
}

describe('JSONL approvals across processes', () => {
  it('another process answers while this one holds the folder and polls', async () => {
    const dir = join(root, 'answer');
    const store = await openHolding(dir);
    await store.approvals.request([approvalRequest('run-1', 'call-1')]);
    let childDone = false;
    const answering = decideInChild(dir, '0', true, 'other-process').finally(() => {
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
    expect(seen).toEqual({ ...approvalRequest('run-1', 'call-1'), status: 'approved', decision: { approved: true, by: 'other-process' }, decidedAt: answered.record.decidedAt });
    expect(answered.record).toEqual(seen);
    // The folder's lock stayed with this process the whole time.
    expect(readFileSync(join(dir, '.lock'), 'utf8').trim()).toBe(String(process.pid));
    await store.close();
  });

  it('four processes answering one request differently: exactly one answer wins, all read it', async () => {
    const dir = join(root, 'race');
    const store = await openHolding(dir);
    await store.approvals.request([approvalRequest('run-1', 'call-1')]);
    const startAt = String(Date.now() + 700);
    const answers = ['yes-1', 'no-1', 'yes-2', 'no-2'];
    const results = await Promise.all(answers.map((by) => decideInChild(dir, startAt, by.startsWith('yes'), by)));
    const stored = await store.approvals.get('run-1', 'call-1');
    expect(answers).toContain(stored?.decision?.by);
    expect(stored?.status).toBe(stored?.decision?.by?.startsWith('yes') ? 'approved' : 'denied');
    for (const result of results) expect(result.record).toEqual(stored);
    // Every child wrote its answer line; the file order picked the winner for everyone.
    const answerLines = readFileSync(join(dir, 'approvals.ndjson'), 'utf8').split('\n').filter((line) => line.includes('approval-decided'));
    expect(answerLines.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(answerLines[0] as string).decision.by).toBe(stored?.decision?.by);
    await store.close();
  });
});

describe('JSONL approvals file', () => {
  const answerLine = (approved: boolean, by: string, decidedAt: number) =>
    `\n${JSON.stringify({ type: 'approval-decided', runId: 'run-1', callId: 'call-1', decision: { approved, by }, decidedAt })}\n`;

  it('the first answer line in the file wins, for every reader, and a later decide adds nothing', async () => {
    const dir = join(root, 'first-line');
    const store = await openHolding(dir);
    await store.approvals.request([approvalRequest('run-1', 'call-1')]);
    expect((await store.approvals.get('run-1', 'call-1'))?.status).toBe('pending');
    // Two other processes answered after this store last read the file.
    const file = join(dir, 'approvals.ndjson');
    appendFileSync(file, answerLine(false, 'first', 10) + answerLine(true, 'second', 20));
    const winner = { ...approvalRequest('run-1', 'call-1'), status: 'denied', decision: { approved: false, by: 'first' }, decidedAt: 10 };
    const before = readFileSync(file, 'utf8');
    expect(await store.approvals.decide('run-1', 'call-1', { approved: true, by: 'late' }, 30)).toEqual(winner);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const other = createJsonlStore({ dir });
    expect(await other.approvals.get('run-1', 'call-1')).toEqual(winner);
    await other.close();
    await store.close();
  });

  it('two store objects answering at once both return the answer written first', async () => {
    const dir = join(root, 'two-objects');
    const first = createJsonlStore({ dir });
    const second = createJsonlStore({ dir });
    await first.approvals.request([approvalRequest('run-1', 'call-1')]);
    expect((await second.approvals.get('run-1', 'call-1'))?.status).toBe('pending');
    const [yes, no] = await Promise.all([
      first.approvals.decide('run-1', 'call-1', { approved: true, by: 'first' }, 10),
      second.approvals.decide('run-1', 'call-1', { approved: false, by: 'second' }, 20),
    ]);
    expect(yes).toEqual(no);
    const answers = readFileSync(join(dir, 'approvals.ndjson'), 'utf8').split('\n').filter((line) => line.includes('approval-decided'));
    expect(yes?.decision?.by).toBe(JSON.parse(answers[0] as string).decision.by);
    await first.close();
    await second.close();
  });

  it('a fragment torn by a crash is skipped and reported; records around it are kept', async () => {
    const dir = join(root, 'torn');
    const first = createJsonlStore({ dir });
    await first.approvals.request([approvalRequest('run-1', 'call-1')]);
    await first.close();
    appendFileSync(join(dir, 'approvals.ndjson'), '\n{"type":"approval-decided","runId":"run-1","cal');
    const second = createJsonlStore({ dir });
    await second.approvals.request([approvalRequest('run-1', 'call-2')]);
    expect((await second.approvals.decide('run-1', 'call-1', { approved: false }, 50))?.status).toBe('denied');
    await second.close();
    const warnings: string[] = [];
    const third = createJsonlStore({ dir, onWarning: (warning) => warnings.push(`${warning.file}:${warning.line} ${warning.message}`) });
    expect((await third.approvals.list()).map((record) => `${record.callId} ${record.status}`)).toEqual(['call-1 denied', 'call-2 pending']);
    expect(warnings).toEqual(['approvals.ndjson:4 unreadable record skipped (torn by a crash)']);
    await third.close();
  });

  it('is closed with the store', async () => {
    const store = createJsonlStore({ dir: join(root, 'closed') });
    await store.approvals.request([approvalRequest('run-1', 'call-1')]);
    await store.close();
    await expect(store.approvals.get('run-1', 'call-1')).rejects.toMatchObject({ code: 'store_closed' });
  });

  it('JsonlLocalAgentStore exposes the same approvals', async () => {
    const dir = join(root, 'class');
    const store = new JsonlLocalAgentStore(dir);
    await store.approvals.request([approvalRequest('run-1', 'call-1')]);
    await store.close();
    const reopened = createJsonlStore({ dir });
    expect((await reopened.approvals.get('run-1', 'call-1'))?.status).toBe('pending');
    await reopened.close();
  });
});
