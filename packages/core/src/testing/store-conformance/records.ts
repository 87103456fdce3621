import type { RunEvent } from '../../spec/events/v1/events.js';
import type { ApprovalRecord } from '../../spec/store/v1/approvals.js';
import type { AgentRecord, AgentStore, RunRecord } from '../../spec/store/v1/store.js';

/** How each conformance file gets a fresh store; `current()` is valid inside a test. */
export interface StoreUnderTest {
  current(): AgentStore;
  /** Close and reopen the same underlying data; undefined for stores without persistence. */
  reopen: ((store: AgentStore) => Promise<AgentStore>) | undefined;
  replace(store: AgentStore): void;
}

export function agentRecord(agentId: string, overrides: Partial<AgentRecord> = {}): AgentRecord {
  return {
    agentId,
    cwd: '/workspace/project',
    model: { id: 'anthropic/claude-sonnet-4-5', params: [{ id: 'thinking', value: 'true' }] },
    mode: 'agent',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    archived: false,
    checkpointRoot: null,
    lease: null,
    ...overrides,
  };
}

export function runRecord(runId: string, agentId: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    runId,
    agentId,
    requestId: `request-${runId}`,
    status: 'running',
    mode: 'agent',
    model: 'anthropic/claude-sonnet-4-5',
    prompt: 'Fix the failing test',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    checkpointBefore: null,
    ...overrides,
  };
}

/** A pending tool-call approval; override `kind`, `modeSwitch`, … for the other kinds. */
export function approvalRecord(runId: string, callId: string, overrides: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    runId,
    agentId: 'agent-approvals',
    callId,
    kind: 'tool',
    toolName: 'shell',
    args: { command: 'git push origin main', timeoutMs: 30_000 },
    reason: 'the command matches an ask rule (shell(git push*))',
    rule: 'shell(git push*)',
    status: 'pending',
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}

export function textDelta(text: string): RunEvent {
  return { kind: 'update', update: { type: 'text-delta', text } };
}

export function assistantMessage(runId: string, text: string): RunEvent {
  return {
    kind: 'message',
    message: { type: 'assistant', agent_id: 'agent-events', run_id: runId, message: { role: 'assistant', content: [{ type: 'text', text }] } },
  };
}

/** Error code of a rejected promise, or 'resolved' when it did not reject. */
export async function rejectionCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : 'no-code';
  }
}

export function bytesOf(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}
