import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../spec/store/v1/store.js';
import { rejectionCode, runRecord, type StoreUnderTest } from './records.js';

export function runsSuite(subject: StoreUnderTest): void {
  const runs = () => subject.current().runs;

  const createMany = async (agentId: string, count: number, overrides: (index: number) => Partial<RunRecord> = () => ({})) => {
    for (let index = 0; index < count; index++) {
      await runs().create(runRecord(`run-${agentId}-${String(index).padStart(3, '0')}`, agentId, { createdAt: 5000 + index, ...overrides(index) }));
    }
  };

  const listAll = async (agentId: string, options: { limit: number; status?: RunRecord['status'] }) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await runs().list(agentId, { ...options, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.items.length).toBeLessThanOrEqual(options.limit);
      ids.push(...page.items.map((item) => item.runId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 100);
    return ids;
  };

  describe('runs', () => {
    it('creates and gets a complete record', async () => {
      const record = runRecord('run-1', 'agent-1', {
        status: 'finished',
        finishedAt: 1_700_000_005_000,
        durationMs: 5000,
        result: 'Done.',
        usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 1, cacheWriteTokens: 2, totalTokens: 30, reasoningTokens: 5 },
        checkpointBefore: 'b'.repeat(64),
        checkpointAfter: 'c'.repeat(64),
        fileChanges: [{ path: 'src/a.ts', beforeHash: null, afterHash: 'd'.repeat(64), toolCallId: 'call-1', at: 1_700_000_001_000 }],
        owner: 'host:1234',
        metadata: { source: 'cli' },
      });
      await runs().create(record);
      expect(await runs().get('run-1')).toEqual(record);
      expect(await runs().get('run-missing')).toBeUndefined();
    });

    it('create of an existing runId rejects with code already_exists and keeps the first', async () => {
      await runs().create(runRecord('run-1', 'agent-1', { prompt: 'first' }));
      expect(await rejectionCode(runs().create(runRecord('run-1', 'agent-1', { prompt: 'second' })))).toBe('already_exists');
      expect((await runs().get('run-1'))?.prompt).toBe('first');
    });

    it('update applies a patch and returns the record; identity fields stay', async () => {
      await runs().create(runRecord('run-1', 'agent-1'));
      const patch = { status: 'error', error: { message: 'Interrupted', code: 'interrupted' }, updatedAt: 1_700_000_009_000, agentId: 'agent-other' };
      const updated = await runs().update('run-1', patch as Partial<RunRecord>);
      expect(updated).toEqual(runRecord('run-1', 'agent-1', { status: 'error', error: { message: 'Interrupted', code: 'interrupted' }, updatedAt: 1_700_000_009_000 }));
      expect(await runs().get('run-1')).toEqual(updated);
      expect((await runs().list('agent-other')).items).toEqual([]);
    });

    it('update of an unknown run rejects with code not_found', async () => {
      expect(await rejectionCode(runs().update('run-missing', { status: 'finished' }))).toBe('not_found');
    });

    it('copies records in and out', async () => {
      const record = runRecord('run-1', 'agent-1', { fileChanges: [] });
      await runs().create(record);
      record.fileChanges?.push({ path: 'x', beforeHash: null, afterHash: null, toolCallId: 'c', at: 1 });
      const stored = await runs().get('run-1');
      expect(stored?.fileChanges).toEqual([]);
      stored?.fileChanges?.push({ path: 'y', beforeHash: null, afterHash: null, toolCallId: 'c', at: 1 });
      expect((await runs().get('run-1'))?.fileChanges).toEqual([]);
    });

    it('lists one agent newest first and pages without duplicates or gaps', async () => {
      await createMany('agent-1', 9, (index) => ({ createdAt: 5000 + Math.floor(index / 3) }));
      await createMany('agent-2', 3);
      const everything = (await runs().list('agent-1', { limit: 100 })).items.map((item) => item.runId);
      expect(everything).toEqual([
        'run-agent-1-008', 'run-agent-1-007', 'run-agent-1-006', 'run-agent-1-005', 'run-agent-1-004',
        'run-agent-1-003', 'run-agent-1-002', 'run-agent-1-001', 'run-agent-1-000',
      ]);
      expect(await listAll('agent-1', { limit: 4 })).toEqual(everything);
      expect((await runs().list('agent-none')).items).toEqual([]);
    });

    it('filters by status, also across pages', async () => {
      await createMany('agent-1', 8, (index) => ({ status: index % 2 === 0 ? 'finished' : 'error' }));
      expect(await listAll('agent-1', { limit: 3, status: 'error' })).toEqual([
        'run-agent-1-007', 'run-agent-1-005', 'run-agent-1-003', 'run-agent-1-001',
      ]);
      await runs().update('run-agent-1-007', { status: 'finished' });
      expect(await listAll('agent-1', { limit: 10, status: 'error' })).toHaveLength(3);
      expect(await listAll('agent-1', { limit: 10, status: 'cancelled' })).toEqual([]);
    });
  });
}
