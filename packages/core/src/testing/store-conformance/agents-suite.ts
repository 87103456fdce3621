import { describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../spec/store/v1/store.js';
import { agentRecord, rejectionCode, type StoreUnderTest } from './records.js';

export function agentsSuite(subject: StoreUnderTest): void {
  const agents = () => subject.current().agents;

  const putMany = async (count: number, overrides: (index: number) => Partial<AgentRecord> = () => ({})) => {
    for (let index = 0; index < count; index++) {
      await agents().put(agentRecord(`agent-${String(index).padStart(3, '0')}`, { createdAt: 1000 + index, ...overrides(index) }));
    }
  };

  const listAll = async (options: { limit: number; cwd?: string; includeArchived?: boolean }) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await agents().list({ ...options, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.items.length).toBeLessThanOrEqual(options.limit);
      ids.push(...page.items.map((item) => item.agentId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 100);
    return { ids, pages };
  };

  describe('agents', () => {
    it('puts and gets a record, including nested model params and metadata', async () => {
      const record = agentRecord('agent-1', { name: 'refactor', metadata: { tags: ['a', 'b'], nested: { depth: 2, flag: false } } });
      await agents().put(record);
      expect(await agents().get('agent-1')).toEqual(record);
      expect(await agents().get('agent-missing')).toBeUndefined();
    });

    it('put replaces the whole record', async () => {
      await agents().put(agentRecord('agent-1', { name: 'first', metadata: { a: 1 } }));
      await agents().put(agentRecord('agent-1', { mode: 'plan' }));
      const stored = await agents().get('agent-1');
      expect(stored?.mode).toBe('plan');
      expect(stored?.name).toBeUndefined();
      expect(stored?.metadata).toBeUndefined();
    });

    it('copies records in and out, so callers cannot mutate stored state', async () => {
      const record = agentRecord('agent-1', { metadata: { list: [1, 2] } });
      await agents().put(record);
      record.cwd = '/elsewhere';
      (record.metadata?.list as number[]).push(3);
      const first = await agents().get('agent-1');
      expect(first?.cwd).toBe('/workspace/project');
      expect(first?.metadata).toEqual({ list: [1, 2] });
      if (first !== undefined) first.model.id = 'mutated';
      expect((await agents().get('agent-1'))?.model.id).toBe('anthropic/claude-sonnet-4-5');
    });

    it('update applies a patch, returns the updated record and keeps the rest', async () => {
      await agents().put(agentRecord('agent-1', { name: 'old' }));
      const updated = await agents().update('agent-1', { name: 'new', checkpointRoot: 'a'.repeat(64), updatedAt: 2_000_000_000_000 });
      expect(updated).toEqual(agentRecord('agent-1', { name: 'new', checkpointRoot: 'a'.repeat(64), updatedAt: 2_000_000_000_000 }));
      expect(await agents().get('agent-1')).toEqual(updated);
    });

    it('update with an undefined optional field removes it; archived toggles', async () => {
      await agents().put(agentRecord('agent-1', { name: 'named' }));
      await agents().update('agent-1', { name: undefined, archived: true });
      const stored = await agents().get('agent-1');
      expect(stored?.name).toBeUndefined();
      expect(stored?.archived).toBe(true);
    });

    it('update of an unknown agent rejects with code not_found', async () => {
      expect(await rejectionCode(agents().update('agent-missing', { name: 'x' }))).toBe('not_found');
    });

    it('lists newest first by createdAt, ties broken by agentId descending', async () => {
      await agents().put(agentRecord('agent-b', { createdAt: 5 }));
      await agents().put(agentRecord('agent-old', { createdAt: 1 }));
      await agents().put(agentRecord('agent-a', { createdAt: 5 }));
      await agents().put(agentRecord('agent-new', { createdAt: 9 }));
      const page = await agents().list();
      expect(page.items.map((item) => item.agentId)).toEqual(['agent-new', 'agent-b', 'agent-a', 'agent-old']);
      expect(page.nextCursor).toBeUndefined();
    });

    it('pages with a cursor without duplicates or gaps', async () => {
      await putMany(11, (index) => ({ createdAt: 1000 + Math.floor(index / 2) }));
      const everything = (await agents().list({ limit: 100 })).items.map((item) => item.agentId);
      expect(everything).toHaveLength(11);
      const { ids, pages } = await listAll({ limit: 3 });
      expect(pages).toBe(4);
      expect(ids).toEqual(everything);
      expect(new Set(ids).size).toBe(11);
    });

    it('a record created between two pages does not shift the next page', async () => {
      await putMany(6);
      const first = await agents().list({ limit: 3 });
      await agents().put(agentRecord('agent-newest', { createdAt: 9999 }));
      const second = await agents().list({ limit: 3, cursor: first.nextCursor as string });
      expect([...first.items, ...second.items].map((item) => item.agentId)).toEqual([
        'agent-005', 'agent-004', 'agent-003', 'agent-002', 'agent-001', 'agent-000',
      ]);
      expect(second.nextCursor).toBeUndefined();
    });

    it('filters by cwd and pages within the filter', async () => {
      await putMany(7, (index) => ({ cwd: index % 2 === 0 ? '/workspace/even' : '/workspace/odd' }));
      const { ids } = await listAll({ limit: 2, cwd: '/workspace/even' });
      expect(ids).toEqual(['agent-006', 'agent-004', 'agent-002', 'agent-000']);
      expect((await agents().list({ cwd: '/workspace/none' })).items).toEqual([]);
    });

    it('hides archived agents unless includeArchived', async () => {
      await putMany(5, (index) => ({ archived: index === 1 || index === 3 }));
      expect((await listAll({ limit: 2 })).ids).toEqual(['agent-004', 'agent-002', 'agent-000']);
      expect((await listAll({ limit: 2, includeArchived: true })).ids).toHaveLength(5);
    });

    it('rejects a malformed cursor and a non-positive limit with code invalid_argument', async () => {
      await putMany(2);
      expect(await rejectionCode(agents().list({ cursor: 'not a cursor' }))).toBe('invalid_argument');
      expect(await rejectionCode(agents().list({ limit: 0 }))).toBe('invalid_argument');
    });

    it('deletes a record; deleting an unknown agent is a no-op', async () => {
      await putMany(2);
      await agents().delete('agent-000');
      await agents().delete('agent-missing');
      expect(await agents().get('agent-000')).toBeUndefined();
      expect((await agents().list()).items.map((item) => item.agentId)).toEqual(['agent-001']);
    });
  });
}
