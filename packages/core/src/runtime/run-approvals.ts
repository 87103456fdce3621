import type { ApprovalRequest, AwaitApprovalsInput, RunMachineEvent } from '../machine/run-machine-types.js';
import type { CanUseTool } from '../permissions/index.js';
import type { JSONValue } from '../spec/json.js';
import type { ApprovalDecision, ApprovalRecord, RunsStore } from '../spec/store/v1/index.js';
import type { ApprovalChannel } from './approval-channel.js';
import type { ApproveModeSwitch } from './mode-switch.js';
import type { RunPublisher } from './run-publisher.js';
import type { CheckedToolCall } from './tool-runner.js';

/** How the approvals of one run are asked and answered. */
export interface RunApprovalSettings {
  channel: ApprovalChannel;
  canUseTool?: CanUseTool;
  approveModeSwitch?: ApproveModeSwitch;
  /** Deny a request nobody answered within this time (default: wait as long as the run lives). */
  timeoutMs?: number;
}

export interface AwaitApprovalsScope {
  agentId: string;
  runId: string;
  runs: RunsStore;
  publisher: RunPublisher;
  settings: RunApprovalSettings;
  /** This step's checked calls: what `canUseTool` is shown for a tool approval. */
  checkedCall(callId: string): CheckedToolCall | undefined;
}

/** Run-record metadata of a run that waits: where a new process picks it up (see resumeRun). */
export const awaitingApprovalKey = 'awaitingApproval';

/**
 * The body of the `awaitApprovals` actor: persist the requests, publish them, then collect answers
 * from the callbacks, this process (`run.approve`) and other processes sharing the store (polling),
 * until each is answered or the actor is stopped (cancel). Each answer goes through the store,
 * where the first one wins, and is sent to the machine as `approval.decided`.
 */
export async function awaitApprovals(scope: AwaitApprovalsScope, input: AwaitApprovalsInput, signal: AbortSignal, send: (event: RunMachineEvent) => void): Promise<void> {
  const { channel } = scope.settings;
  const now = Date.now();
  await channel.store.request(input.approvals.map((request) => toRecord(scope, request, now)));
  await markWaiting(scope, input);
  const fresh = await undecided(scope, input.approvals);
  if (fresh.length > 0) {
    await scope.publisher.updates(fresh.map(requestedUpdate));
    await scope.publisher.deliver([scope.publisher.message({ type: 'status', status: 'RUNNING', phase: 'awaiting-approval', mode: input.mode, message: waitingText(fresh) })]);
  }
  const answered = new Set<string>();
  const accept = async (record: ApprovalRecord | undefined) => {
    if (!record?.decision || answered.has(record.callId) || signal.aborted) return;
    answered.add(record.callId);
    await scope.publisher.updates([{ type: 'approval-decided', callId: record.callId, approved: record.decision.approved, ...(record.decision.reason ? { reason: record.decision.reason } : {}), ...(record.decision.by ? { by: record.decision.by } : {}) }]);
    send({ type: 'approval.decided', callId: record.callId, decision: record.decision });
  };
  for (const request of input.approvals) {
    void askCallback(scope, request)
      .then(async (decision) => {
        // A callback that answers after a cancel writes nothing: the run has ended.
        if (decision && !signal.aborted) await accept(await channel.answer(scope.runId, request.callId, decision));
      })
      .catch(() => undefined);
  }
  const deadline = scope.settings.timeoutMs === undefined ? undefined : now + scope.settings.timeoutMs;
  while (!signal.aborted && answered.size < input.approvals.length) {
    for (const request of input.approvals) if (!answered.has(request.callId)) await accept(await channel.store.get(scope.runId, request.callId));
    if (answered.size >= input.approvals.length || signal.aborted) break;
    if (deadline !== undefined && Date.now() >= deadline) {
      const reason = `no answer within ${Math.round((scope.settings.timeoutMs ?? 0) / 1000)} s`;
      for (const request of input.approvals) if (!answered.has(request.callId)) await accept(await channel.answer(scope.runId, request.callId, { approved: false, reason, by: 'timeout' }));
      break;
    }
    await channel.nextAnswer(scope.runId, deadline === undefined ? signal : AbortSignal.any([signal, AbortSignal.timeout(Math.max(0, deadline - Date.now()))]));
  }
}

/** Ask the in-process callback for this kind of request, if the agent has one; undefined when it has none. */
async function askCallback(scope: AwaitApprovalsScope, request: ApprovalRequest): Promise<ApprovalDecision | undefined> {
  const { canUseTool, approveModeSwitch } = scope.settings;
  try {
    if (request.kind === 'tool') {
      const checked = scope.checkedCall(request.callId);
      if (!canUseTool || checked?.kind !== 'ask' || !checked.verdict.request) return undefined;
      const answer = await canUseTool(checked.verdict.request);
      const behavior = typeof answer === 'string' ? answer : answer.behavior;
      const message = typeof answer === 'string' ? undefined : answer.message;
      return { approved: behavior === 'allow', ...(message ? { reason: message } : {}), by: 'canUseTool' };
    }
    if (!approveModeSwitch || !request.modeSwitch) return undefined;
    return { approved: (await approveModeSwitch(request.modeSwitch)) === true, by: 'approveModeSwitch' };
  } catch (error) {
    return { approved: false, reason: `the approval callback failed: ${error instanceof Error ? error.message : String(error)}`, by: request.kind === 'tool' ? 'canUseTool' : 'approveModeSwitch' };
  }
}

async function undecided(scope: AwaitApprovalsScope, approvals: ApprovalRequest[]): Promise<ApprovalRequest[]> {
  const records = await Promise.all(approvals.map((request) => scope.settings.channel.store.get(scope.runId, request.callId)));
  return approvals.filter((_, index) => records[index]?.status === 'pending');
}

async function markWaiting(scope: AwaitApprovalsScope, input: AwaitApprovalsInput): Promise<void> {
  const run = await scope.runs.get(scope.runId);
  const waiting = { step: input.step, mode: input.mode, since: Date.now(), callIds: input.approvals.map((request) => request.callId) };
  await scope.runs.update(scope.runId, { metadata: { ...(run?.metadata ?? {}), [awaitingApprovalKey]: waiting }, updatedAt: Date.now() });
}

/** What a request says, as the store record and the `approval-requested` update both carry it. */
function requestFields(request: ApprovalRequest) {
  return {
    callId: request.callId,
    kind: request.kind,
    reason: request.reason,
    ...(request.rule ? { rule: request.rule } : {}),
    ...(request.toolName ? { toolName: request.toolName } : {}),
    ...(request.args === undefined ? {} : { args: request.args }),
  };
}

function toRecord(scope: AwaitApprovalsScope, request: ApprovalRequest, now: number): ApprovalRecord {
  const change = request.modeSwitch;
  const modeSwitch = change ? { from: change.from, to: change.to, explanation: change.explanation, addedRights: change.addedRights ?? [], ...(change.plan === undefined ? {} : { plan: change.plan as JSONValue }) } : undefined;
  return { runId: scope.runId, agentId: scope.agentId, ...requestFields(request), ...(modeSwitch ? { modeSwitch } : {}), status: 'pending', createdAt: now };
}

function requestedUpdate(request: ApprovalRequest) {
  return { type: 'approval-requested' as const, ...requestFields(request), ...(request.modeSwitch ? { modeSwitch: request.modeSwitch } : {}) };
}

function waitingText(requests: ApprovalRequest[]): string {
  const what = requests.map((request) => (request.kind === 'tool' ? `${request.toolName ?? 'a tool'} (${request.reason})` : `switch to ${request.modeSwitch?.to ?? 'another'} mode`));
  return `Waiting for approval: ${what.join('; ')}. Answer with run.approve(callId, decision).`;
}
