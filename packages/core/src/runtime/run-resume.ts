import type { ModeSwitchInFlight, RunResumePoint } from '../machine/run-machine-types.js';
import { turnFromAssistantMessage } from '../machine/turn-from-message.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ApprovalRecord, RunRecord } from '../spec/store/v1/index.js';
import { awaitingApprovalKey } from './run-approvals.js';

interface WaitingMetadata {
  step: number;
  mode: string;
  callIds: string[];
}

/** The waiting-for-approval marker a run record carries while its run waits (see awaitApprovals). */
export function waitingMarker(run: RunRecord): WaitingMetadata | undefined {
  const value = run.metadata?.[awaitingApprovalKey] as Partial<WaitingMetadata> | undefined;
  if (!value || typeof value.step !== 'number' || typeof value.mode !== 'string' || !Array.isArray(value.callIds)) return undefined;
  return { step: value.step, mode: value.mode, callIds: value.callIds.filter((id): id is string => typeof id === 'string') };
}

/**
 * Where a run left waiting by a stopped process picks up, from the conversation it saved on
 * entering awaitingApproval and the requests in the store: its tool calls are checked again
 * (stored answers apply at once), or the mode switch waits again. Undefined when the saved
 * conversation does not end the way a waiting run leaves it (then the run is closed instead).
 */
export function resumePointOf(run: RunRecord, approvals: ApprovalRecord[], saved: ModelMessage[]): { messages: ModelMessage[]; mode: string; resume: RunResumePoint } | undefined {
  const marker = waitingMarker(run);
  if (!marker) return undefined;
  const mine = approvals.filter((record) => marker.callIds.includes(record.callId));
  if (mine.length === 0) return undefined;
  const usage = run.usage ? { resume: { usage: run.usage } } : { resume: {} };
  const switchRecord = mine.find((record) => record.kind !== 'tool');
  if (switchRecord?.modeSwitch) {
    const modeSwitch: ModeSwitchInFlight = {
      to: switchRecord.modeSwitch.to,
      planApproval: switchRecord.kind === 'plan' || switchRecord.modeSwitch.plan !== undefined,
      approval: { callId: switchRecord.callId, kind: switchRecord.kind, reason: switchRecord.reason, modeSwitch: switchRecord.modeSwitch },
    };
    return { messages: saved, mode: marker.mode, resume: { ...usage.resume, step: marker.step, modeSwitch } };
  }
  const last = saved[saved.length - 1];
  if (last?.role !== 'assistant' || !last.content.some((part) => part.type === 'tool-call')) return undefined;
  return { messages: saved.slice(0, -1), mode: marker.mode, resume: { ...usage.resume, step: marker.step, turn: turnFromAssistantMessage(last) } };
}
