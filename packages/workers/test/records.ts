import type { RunRecord } from '@cairn/core';

export { agentRecord } from '@cairn/core/testing/stores';

/** A background run as a send creates it (status running, no owner, the queued send in metadata). */
export function queuedRunRecord(runId: string, agentId: string, overrides: Partial<RunRecord> = {}): RunRecord {
  const now = Date.now();
  return {
    runId,
    agentId,
    requestId: `request-${runId}`,
    status: 'running',
    mode: 'agent',
    model: 'openai/gpt-4.1-mini',
    prompt: 'Fix the failing test',
    createdAt: now,
    updatedAt: now,
    checkpointBefore: null,
    metadata: { background: { queuedAt: now, send: { text: 'Fix the failing test' } } },
    ...overrides,
  };
}
