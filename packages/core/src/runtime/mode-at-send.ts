import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import { approveStoredPlan, type StoredPlanShape, approvedModeStateKey } from './mode-switch.js';
import { findModeTransition } from '../registry/mode-transitions.js';

export interface ModeAtSendInput {
  approvePlan: boolean | undefined;
  requestedMode: string | undefined;
  conversationMode: string;
  runMode: string;
  state: Record<string, unknown>;
  resolveMode(id: string): ModeDefinition | undefined;
}

/** The run's mode and, when a plan was approved, what to stream and tell the model. */
export interface ModeAtSend {
  mode: string;
  approval?: { update: InteractionUpdate; reminder: string };
}

/**
 * The mode a run starts in: the send's mode, or the agent's stored mode, moved by a plan approval
 * (see planApprovalAtSend). Also records it as the run's rights ceiling (state `approvedMode`): the
 * user chose it, by naming it, by approving it, or by sending to an agent that is in it. A
 * `switch_mode` to a mode with any right beyond the ceiling needs the user's approval, so a chain of
 * switches (plan -> ask -> agent) cannot add up to more. The stored mode only ever moves within the
 * ceiling of the run that moved it (or to an approved mode), so the next run's ceiling is never wider
 * than something the user chose; this holds across runs, resume and restarts.
 */
export function modeAtSend(input: ModeAtSendInput): ModeAtSend {
  const decided = planApprovalAtSend(input);
  input.state[approvedModeStateKey] = decided.mode;
  return decided;
}

/**
 * Plan approval at the start of a send: `approvePlan: true`, or (by default) a send that moves a
 * conversation from plan mode to the mode its approval transition leads to while a plan is
 * proposed. Returns the run's mode and, when approved, what to stream and tell the model.
 */
export function planApprovalAtSend(input: ModeAtSendInput): ModeAtSend {
  if (input.approvePlan === false) return { mode: input.runMode };
  const plan = input.state.plan as StoredPlanShape | undefined;
  const proposed = plan?.status === 'proposed';
  const current = input.resolveMode(input.conversationMode);
  const approvalTarget = current?.transitionsTo.map((entry) => (typeof entry === 'string' ? { mode: entry } : entry)).find((entry) => entry.requiresApproval)?.mode;
  let target: string | undefined;
  if (input.approvePlan === true) {
    if (!proposed) return { mode: input.runMode };
    target = input.requestedMode ?? approvalTarget ?? 'agent';
  } else if (proposed && input.requestedMode && input.requestedMode !== input.conversationMode && findModeTransition(current, input.resolveMode(input.requestedMode))?.requiresApproval) {
    target = input.requestedMode;
  }
  if (!target) return { mode: input.runMode };
  const approval = approveStoredPlan(input.state);
  delete input.state.pendingModeSwitch;
  return approval ? { mode: target, approval: { update: approval.update, reminder: approval.reminder } } : { mode: input.runMode };
}
