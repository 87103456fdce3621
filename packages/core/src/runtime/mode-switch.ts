import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition, ModeTransition } from '../spec/mode/v1/index.js';
import { systemReminder } from '../context/system-prompt.js';

export interface PendingModeSwitch {
  to: string;
  from?: string;
  explanation?: string;
  requestedAt?: number;
  /** Set by the user's approval (plan -> agent). */
  approved?: boolean;
  /** The model was told once that this switch waits for the user. */
  notified?: boolean;
}

/** What an `approveModeSwitch` callback is asked when a transition requires approval. */
export interface ModeSwitchRequest {
  from: string;
  to: string;
  explanation: string;
  /** The proposed plan the switch would execute (plan -> agent), when there is one. */
  plan?: unknown;
}

export type ApproveModeSwitch = (request: ModeSwitchRequest) => boolean | Promise<boolean>;

/** The reminder that tells the model which mode it is in and what that mode asks of it. */
export function modeReminderText(mode: ModeDefinition): string {
  const blocks = mode.promptBlocks.join('\n\n');
  return systemReminder(`You are now in ${mode.id} mode: ${mode.description}${blocks ? `\n\n${blocks}` : ''}`);
}

export function findTransition(from: ModeDefinition | undefined, to: string): ModeTransition | undefined {
  return from?.transitionsTo.map((entry) => (typeof entry === 'string' ? { mode: entry } : entry)).find((entry) => entry.mode === to);
}

const note = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text: systemReminder(text) }] });

/**
 * Apply a switch requested by the `switch_mode` tool (state key `pendingModeSwitch`) between steps.
 * A switch is allowed when the current mode lists the target in `transitionsTo`; one that needs
 * approval waits for the user: it stays pending and the model is told so once (headless), or the
 * `approve` callback decides. Approving a switch out of plan mode approves the stored plan too, which
 * loads its steps into the todo list.
 */
export async function resolvePendingModeSwitch(input: {
  state: Record<string, unknown>;
  mode: string;
  messages: ModelMessage[];
  resolveMode(id: string): ModeDefinition | undefined;
  approve?: ApproveModeSwitch;
}): Promise<{ mode: string; messages: ModelMessage[]; updates: InteractionUpdate[] }> {
  const pending = input.state.pendingModeSwitch as PendingModeSwitch | undefined;
  if (!pending) return { mode: input.mode, messages: input.messages, updates: [] };
  const current = input.resolveMode(input.mode);
  const target = input.resolveMode(pending.to);
  const transition = findTransition(current, pending.to);
  if (!target || !transition || pending.to === input.mode) {
    delete input.state.pendingModeSwitch;
    const why = !target ? 'no such mode' : pending.to === input.mode ? 'already in that mode' : `the ${input.mode} mode cannot switch to it`;
    return { mode: input.mode, messages: [...input.messages, note(`The switch to mode "${pending.to}" was not applied: ${why}.`)], updates: [] };
  }
  let approved = pending.approved === true || !transition.requiresApproval;
  if (!approved && input.approve) {
    const decision = await input.approve({ from: input.mode, to: target.id, explanation: pending.explanation ?? '', ...(input.state.plan ? { plan: input.state.plan } : {}) });
    if (!decision) {
      delete input.state.pendingModeSwitch;
      return { mode: input.mode, messages: [...input.messages, note(`The user declined the switch to ${target.id} mode. Stay in ${input.mode} mode; ask what they want changed.`)], updates: [] };
    }
    approved = true;
    pending.approved = true;
  }
  if (!approved) {
    if (pending.notified) return { mode: input.mode, messages: input.messages, updates: [] };
    pending.notified = true;
    const text = `The switch to ${target.id} mode needs the user's approval and is waiting for it. You are still in ${input.mode} mode. Do not act as if ${target.id} mode were active: end your turn now with a short message that you are waiting for approval.`;
    return { mode: input.mode, messages: [...input.messages, note(text)], updates: [] };
  }
  delete input.state.pendingModeSwitch;
  const updates: InteractionUpdate[] = [{ type: 'mode-changed', from: input.mode, to: target.id, source: transition.requiresApproval ? 'plan-approval' : 'tool' }];
  const texts = [modeReminderText(target)];
  if (transition.requiresApproval) {
    const approval = approveStoredPlan(input.state);
    if (approval) {
      updates.push(approval.update);
      texts.push(approval.reminder);
    }
  }
  return { mode: target.id, messages: [...input.messages, { role: 'user', content: [{ type: 'text', text: texts.join('\n\n') }] }], updates };
}

/**
 * The synchronous form kept for callers without an approval callback: a switch needing approval
 * stays pending, without a note.
 */
export function applyPendingModeSwitch(input: {
  state: Record<string, unknown>;
  mode: string;
  messages: ModelMessage[];
  resolveMode(id: string): ModeDefinition | undefined;
}): { mode: string; messages: ModelMessage[]; update?: InteractionUpdate } {
  const pending = input.state.pendingModeSwitch as PendingModeSwitch | undefined;
  if (!pending) return { mode: input.mode, messages: input.messages };
  const target = input.resolveMode(pending.to);
  const transition = findTransition(input.resolveMode(input.mode), pending.to);
  if (!target || !transition || pending.to === input.mode) {
    delete input.state.pendingModeSwitch;
    return { mode: input.mode, messages: [...input.messages, note(`The switch to mode "${pending.to}" was not applied.`)] };
  }
  if (transition.requiresApproval && !pending.approved) return { mode: input.mode, messages: input.messages };
  delete input.state.pendingModeSwitch;
  return {
    mode: target.id,
    messages: [...input.messages, { role: 'user', content: [{ type: 'text', text: modeReminderText(target) }] }],
    update: { type: 'mode-changed', from: input.mode, to: target.id, source: pending.approved ? 'plan-approval' : 'tool' },
  };
}

interface StoredPlanShape {
  name?: string;
  status?: string;
  todos?: Array<{ id: string; content: string; dependencies?: string[] }>;
}

/**
 * Approve the plan `create_plan` stored under `plan` (status `proposed`): mark it approved and load
 * its steps into the `todo_write` list (`todos`, status pending), replacing an older list. Returns
 * undefined when there is no proposed plan. Core knows only the state keys, not the planning package.
 */
export function approveStoredPlan(state: Record<string, unknown>): { update: InteractionUpdate; reminder: string; todos: Array<{ id: string; content: string; status: string }> } | undefined {
  const plan = state.plan as StoredPlanShape | undefined;
  if (!plan || typeof plan !== 'object' || plan.status !== 'proposed' || !Array.isArray(plan.todos)) return undefined;
  const todos = plan.todos.map((todo) => ({ id: todo.id, content: todo.content, status: 'pending' }));
  state.plan = { ...plan, status: 'approved', approvedAt: new Date().toISOString() };
  state.todos = todos;
  const list = todos.map((todo) => `- [${todo.id}] ${todo.content}`).join('\n');
  const reminder = systemReminder(
    `The user approved the plan "${plan.name ?? 'plan'}". Implement it now. Its steps are loaded in your todo list (todo_write, all pending):\n${list}\nWork through them in order, respecting their dependencies; mark each in_progress when you start it and completed when it is done.`,
  );
  return { update: { type: 'todos-updated', todos: todos.map((todo) => ({ ...todo })) }, reminder, todos };
}

/**
 * Plan approval at the start of a send: `approvePlan: true`, or (by default) a send that moves a
 * conversation from plan mode to the mode its approval transition leads to while a plan is
 * proposed. Returns the run's mode and, when approved, what to stream and tell the model.
 */
export function planApprovalAtSend(input: {
  approvePlan: boolean | undefined;
  requestedMode: string | undefined;
  conversationMode: string;
  runMode: string;
  state: Record<string, unknown>;
  resolveMode(id: string): ModeDefinition | undefined;
}): { mode: string; approval?: { update: InteractionUpdate; reminder: string } } {
  if (input.approvePlan === false) return { mode: input.runMode };
  const plan = input.state.plan as StoredPlanShape | undefined;
  const proposed = plan?.status === 'proposed';
  const current = input.resolveMode(input.conversationMode);
  const approvalTarget = current?.transitionsTo.map((entry) => (typeof entry === 'string' ? { mode: entry } : entry)).find((entry) => entry.requiresApproval)?.mode;
  let target: string | undefined;
  if (input.approvePlan === true) {
    if (!proposed) return { mode: input.runMode };
    target = input.requestedMode ?? approvalTarget ?? 'agent';
  } else if (proposed && input.requestedMode && input.requestedMode !== input.conversationMode && findTransition(current, input.requestedMode)?.requiresApproval) {
    target = input.requestedMode;
  }
  if (!target) return { mode: input.runMode };
  const approval = approveStoredPlan(input.state);
  delete input.state.pendingModeSwitch;
  return approval ? { mode: target, approval: { update: approval.update, reminder: approval.reminder } } : { mode: input.runMode };
}

/**
 * The mode a subagent started from `parent` runs in: the parent's `subagentMode` when it exists,
 * except that a read-only parent never hands a subagent a mode that can write (then the subagent
 * inherits the parent's own mode).
 */
export function subagentModeFor(parent: ModeDefinition, resolveMode: (id: string) => ModeDefinition | undefined): ModeDefinition {
  const chosen = parent.subagentMode ? resolveMode(parent.subagentMode) : undefined;
  if (!chosen) return parent;
  if (parent.toolPolicy.readOnly && !chosen.toolPolicy.readOnly) return parent;
  return chosen;
}
