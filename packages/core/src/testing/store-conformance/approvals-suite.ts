import { describe, expect, it, type TestContext } from 'vitest';
import type { ApprovalsStore } from '../../spec/store/v1/approvals.js';
import type { AgentStore } from '../../spec/store/v1/store.js';
import { approvalRecord, rejectionCode, type StoreUnderTest } from './records.js';

/**
 * The approvals substore is optional in the spec. Without it these tests are skipped, unless
 * `required` (the suite option `requireApprovals`) makes them fail instead.
 */
export function approvalsSuite(subject: StoreUnderTest, required: boolean): void {
  const approvalsOf = (context: TestContext): ApprovalsStore => {
    const approvals = subject.current().approvals;
    if (approvals === undefined) {
      if (required) throw new Error('The store has no approvals substore, and the suite was told it must have one (requireApprovals).');
      context.skip('the store has no approvals substore');
    }
    return approvals as ApprovalsStore;
  };
  const modeSwitch = { from: 'plan', to: 'agent', explanation: 'The plan is ready.', addedRights: ['write files', 'run shell'], plan: { steps: ['a', 'b'] } };

  describe('approvals', () => {
    it('is absent or has every method', () => {
      const approvals = subject.current().approvals as unknown as Record<string, unknown> | undefined;
      if (required) expect(approvals).toBeDefined();
      if (approvals === undefined) return;
      for (const method of ['request', 'get', 'list', 'decide']) expect(typeof approvals[method]).toBe('function');
    });

    it('request stores pending records of every kind; get returns them', async (context) => {
      const approvals = approvalsOf(context);
      const tool = approvalRecord('run-1', 'call-1');
      const plan = approvalRecord('run-1', 'mode-switch-1', { kind: 'plan', modeSwitch, toolName: undefined, args: undefined, rule: undefined, reason: 'leaving plan mode needs approval' });
      await approvals.request([tool, plan]);
      expect(await approvals.get('run-1', 'call-1')).toEqual(tool);
      const storedPlan = await approvals.get('run-1', 'mode-switch-1');
      expect(storedPlan).toEqual(plan);
      expect(Object.keys(storedPlan ?? {})).not.toContain('toolName');
      expect(await approvals.get('run-1', 'call-missing')).toBeUndefined();
      expect(await approvals.get('run-missing', 'call-1')).toBeUndefined();
      await approvals.request([]);
    });

    it('request is idempotent per (runId, callId): a pending or decided record is kept as is', async (context) => {
      const approvals = approvalsOf(context);
      await approvals.request([approvalRecord('run-1', 'call-1', { reason: 'first' }), approvalRecord('run-1', 'call-1', { reason: 'same batch' })]);
      await approvals.request([approvalRecord('run-1', 'call-1', { reason: 'again' }), approvalRecord('run-2', 'call-1', { reason: 'other run' })]);
      expect((await approvals.get('run-1', 'call-1'))?.reason).toBe('first');
      expect((await approvals.get('run-2', 'call-1'))?.reason).toBe('other run');
      const decided = await approvals.decide('run-1', 'call-1', { approved: true, by: 'sdk' }, 1_700_000_001_000);
      await approvals.request([approvalRecord('run-1', 'call-1', { reason: 'after the answer' })]);
      expect(await approvals.get('run-1', 'call-1')).toEqual(decided);
      expect(await approvals.list({ runId: 'run-1' })).toHaveLength(1);
    });

    it('lists oldest first (createdAt, then callId) and applies every given filter', async (context) => {
      const approvals = approvalsOf(context);
      await approvals.request([
        approvalRecord('run-1', 'call-b', { createdAt: 2000 }),
        approvalRecord('run-1', 'call-a', { createdAt: 2000 }),
        approvalRecord('run-1', 'call-c', { createdAt: 1000 }),
        approvalRecord('run-2', 'call-a', { createdAt: 1500, agentId: 'agent-other' }),
        approvalRecord('run-3', 'call-z', { createdAt: 3000 }),
      ]);
      await approvals.decide('run-1', 'call-a', { approved: false, reason: 'not now' }, 2500);
      await approvals.decide('run-3', 'call-z', { approved: true }, 3500);
      const keys = (records: Array<{ runId: string; callId: string }>) => records.map((record) => `${record.runId}/${record.callId}`);
      expect(keys(await approvals.list())).toEqual(['run-1/call-c', 'run-2/call-a', 'run-1/call-a', 'run-1/call-b', 'run-3/call-z']);
      expect(keys(await approvals.list({}))).toEqual(keys(await approvals.list()));
      expect(keys(await approvals.list({ runId: 'run-1' }))).toEqual(['run-1/call-c', 'run-1/call-a', 'run-1/call-b']);
      expect(keys(await approvals.list({ agentId: 'agent-other' }))).toEqual(['run-2/call-a']);
      expect(keys(await approvals.list({ status: 'pending' }))).toEqual(['run-1/call-c', 'run-2/call-a', 'run-1/call-b']);
      expect(keys(await approvals.list({ status: 'denied' }))).toEqual(['run-1/call-a']);
      expect(keys(await approvals.list({ status: 'approved', agentId: 'agent-approvals' }))).toEqual(['run-3/call-z']);
      expect(keys(await approvals.list({ runId: 'run-1', status: 'pending', agentId: 'agent-approvals' }))).toEqual(['run-1/call-c', 'run-1/call-b']);
      expect(await approvals.list({ runId: 'run-2', agentId: 'agent-approvals' })).toEqual([]);
      expect(await approvals.list({ runId: 'run-missing' })).toEqual([]);
    });

    it('decide answers a pending request; the first answer wins and later ones change nothing', async (context) => {
      const approvals = approvalsOf(context);
      await approvals.request([approvalRecord('run-1', 'call-1')]);
      const approved = await approvals.decide('run-1', 'call-1', { approved: true, reason: 'looks fine', by: 'sdk' }, 1_700_000_002_000);
      const expected = approvalRecord('run-1', 'call-1', { status: 'approved', decision: { approved: true, reason: 'looks fine', by: 'sdk' }, decidedAt: 1_700_000_002_000 });
      expect(approved).toEqual(expected);
      expect(await approvals.decide('run-1', 'call-1', { approved: false, reason: 'too late', by: 'timeout' }, 1_700_000_003_000)).toEqual(expected);
      expect(await approvals.get('run-1', 'call-1')).toEqual(expected);
    });

    it('a denial records its reason; decidedAt defaults to the current time', async (context) => {
      const approvals = approvalsOf(context);
      await approvals.request([approvalRecord('run-1', 'call-1')]);
      const before = Date.now();
      const denied = await approvals.decide('run-1', 'call-1', { approved: false, reason: 'do not push to main' });
      const after = Date.now();
      expect(denied?.status).toBe('denied');
      expect(denied?.decision).toEqual({ approved: false, reason: 'do not push to main' });
      expect(denied?.decidedAt).toBeGreaterThanOrEqual(before);
      expect(denied?.decidedAt).toBeLessThanOrEqual(after);
    });

    it('decide of an unknown request returns undefined and records nothing', async (context) => {
      const approvals = approvalsOf(context);
      await approvals.request([approvalRecord('run-1', 'call-1')]);
      expect(await approvals.decide('run-1', 'call-missing', { approved: true })).toBeUndefined();
      expect(await approvals.decide('run-missing', 'call-1', { approved: true })).toBeUndefined();
      expect(await approvals.get('run-1', 'call-missing')).toBeUndefined();
      expect((await approvals.list()).map((record) => record.status)).toEqual(['pending']);
    });

    it('concurrent decides: exactly one answer wins and every caller gets it', async (context) => {
      const approvals = approvalsOf(context);
      await approvals.request([approvalRecord('run-1', 'call-1')]);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) => approvals.decide('run-1', 'call-1', { approved: index % 2 === 0, by: `caller-${index}` }, 5000 + index)),
      );
      const stored = await approvals.get('run-1', 'call-1');
      expect(stored?.status).toBe(stored?.decision?.approved ? 'approved' : 'denied');
      for (const result of results) expect(result).toEqual(stored);
    });

    it('copies records in and out', async (context) => {
      const approvals = approvalsOf(context);
      const record = approvalRecord('run-1', 'call-1', { args: { paths: ['a.ts'] } });
      await approvals.request([record]);
      (record.args as { paths: string[] }).paths.push('b.ts');
      record.reason = 'changed by the caller';
      const got = await approvals.get('run-1', 'call-1');
      expect(got?.args).toEqual({ paths: ['a.ts'] });
      (got?.args as { paths: string[] }).paths.push('c.ts');
      const [listed] = await approvals.list();
      expect(listed?.args).toEqual({ paths: ['a.ts'] });
      if (listed) listed.status = 'approved';
      const decision = { approved: false, reason: 'no' };
      const decided = await approvals.decide('run-1', 'call-1', decision, 9000);
      decision.reason = 'changed';
      if (decided?.decision) decided.decision.approved = true;
      expect(await approvals.get('run-1', 'call-1')).toEqual(
        approvalRecord('run-1', 'call-1', { args: { paths: ['a.ts'] }, status: 'denied', decision: { approved: false, reason: 'no' }, decidedAt: 9000 }),
      );
    });

    it('rejects bad input with code invalid_argument and stores nothing from that call', async (context) => {
      const approvals = approvalsOf(context);
      const bad = (record: object) => approvals.request([approvalRecord('run-1', 'call-ok'), record as never]);
      expect(await rejectionCode(bad({ ...approvalRecord('run-1', 'call-1'), status: 'approved' }))).toBe('invalid_argument');
      expect(await rejectionCode(bad({ ...approvalRecord('run-1', 'call-1'), decision: { approved: true } }))).toBe('invalid_argument');
      expect(await rejectionCode(bad({ ...approvalRecord('run-1', 'call-1'), callId: '' }))).toBe('invalid_argument');
      expect(await rejectionCode(bad({ ...approvalRecord('run-1', 'call-1'), kind: 'file' }))).toBe('invalid_argument');
      expect(await rejectionCode(bad({ ...approvalRecord('run-1', 'call-1'), createdAt: 'yesterday' }))).toBe('invalid_argument');
      expect(await rejectionCode(approvals.request(approvalRecord('run-1', 'call-1') as never))).toBe('invalid_argument');
      expect(await approvals.list()).toEqual([]);
      await approvals.request([approvalRecord('run-1', 'call-1')]);
      expect(await rejectionCode(approvals.decide('run-1', 'call-1', { approve: true } as never))).toBe('invalid_argument');
      expect(await rejectionCode(approvals.decide('run-1', 'call-1', { approved: true }, Number.NaN))).toBe('invalid_argument');
      expect(await rejectionCode(approvals.list({ run: 'run-1' } as never))).toBe('invalid_argument');
      expect(await rejectionCode(approvals.list({ status: 'waiting' } as never))).toBe('invalid_argument');
      expect((await approvals.get('run-1', 'call-1'))?.status).toBe('pending');
    });
  });
}

/** Only for stores with a `reopen` option: pending and decided approvals survive close and reopen. */
export function approvalsPersistenceSuite(subject: StoreUnderTest, reopen: (store: AgentStore) => Promise<AgentStore>, required: boolean): void {
  describe('approvals across reopen', () => {
    it('keeps pending and decided requests; a pending one can be answered after the reopen', async (context) => {
      const store = subject.current();
      if (store.approvals === undefined) {
        if (required) throw new Error('The store has no approvals substore (requireApprovals).');
        context.skip('the store has no approvals substore');
      }
      const approvals = store.approvals as ApprovalsStore;
      await approvals.request([approvalRecord('run-1', 'call-1'), approvalRecord('run-1', 'call-2', { createdAt: 1_700_000_000_001 })]);
      const decided = await approvals.decide('run-1', 'call-2', { approved: true, by: 'sdk' }, 1_700_000_005_000);

      const reopened = await reopen(store);
      subject.replace(reopened);
      const again = reopened.approvals as ApprovalsStore;
      expect(await again.get('run-1', 'call-1')).toEqual(approvalRecord('run-1', 'call-1'));
      expect(await again.get('run-1', 'call-2')).toEqual(decided);
      expect((await again.list({ status: 'pending' })).map((record) => record.callId)).toEqual(['call-1']);
      expect((await again.decide('run-1', 'call-1', { approved: false }, 1_700_000_006_000))?.status).toBe('denied');
      expect((await again.decide('run-1', 'call-2', { approved: false }, 1_700_000_006_000))?.status).toBe('approved');
    });
  });
}
