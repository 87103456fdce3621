import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition, } from '../spec/mode/v1/index.js';
import { systemReminder } from '../context/system-prompt.js';
import { addedRights, type ModeRights } from './mode-rights.js';
import { findModeTransition } from '../registry/mode-transitions.js';

/** State key of the run's rights ceiling: the mode the run started in, or one the user approved (modeAtSend). */
export const approvedModeStateKey = 'approvedMode';

export interface PendingModeSwitch {
  to: string;
  from?: string;
  explanation?: string;
  requestedAt?: number;
}

/** What an `approveModeSwitch` callback is asked when a switch needs approval. */
export interface ModeSwitchRequest {
  from: string;
  to: string;
  /** Written by the model (switch_mode's argument): show it as the model's words, never as the runtime's. */
  explanation: string;
  /** The proposed plan the switch would execute (plan -> agent), when there is one. */
  plan?: unknown;
  /**
   * What the target mode allows beyond the mode the user chose (`file edits`, `the shell on the
   * host ...`), so a prompt can say what is being granted. Empty for a plan approval that adds none.
   */
  addedRights?: string[];
}

export type ApproveModeSwitch = (request: ModeSwitchRequest) => boolean | Promise<boolean>;

/** Take the request `switch_mode` left in the run's tool state, if any: each request is judged once. */
export function takePendingModeSwitch(state: Record<string, unknown>): PendingModeSwitch | undefined {
  const pending = state.pendingModeSwitch as PendingModeSwitch | undefined;
  if (!pending) return undefined;
  delete state.pendingModeSwitch;
  return pending;
}

/** The reminder that tells the model which mode it is in and what that mode asks of it. */
export function modeReminderText(mode: ModeDefinition): string {
  const blocks = mode.promptBlocks.join('\n\n');
  return systemReminder(`You are now in ${mode.id} mode: ${mode.description}${blocks ? `\n\n${blocks}` : ''}`);
}


const note = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text: systemReminder(text) }] });

/** What a requested switch needs, judged from the modes' data (the machine's guards read it). */
export type ModeSwitchPlan =
  | { kind: 'refused'; note: ModelMessage }
  | { kind: 'needs-approval'; request: ModeSwitchRequest; planApproval: boolean; refusal: ModelMessage }
  | { kind: 'allowed'; target: string; planApproval: boolean };

export interface ModeSwitchContext {
  /** The mode the run is in. */
  mode: string;
  state: Record<string, unknown>;
  resolveMode(id: string): ModeDefinition | undefined;
  /** The rights of a mode with this run's tools and sandbox (modeRights). */
  rightsOf(mode: ModeDefinition): ModeRights;
}

/**
 * Judge a switch requested by the `switch_mode` tool. The current mode must list the target in
 * `transitionsTo`. The switch needs the user's approval when the transition says so (plan -> agent)
 * or when the target has any right (see mode-rights) beyond the run's ceiling, the mode the user
 * chose (modeAtSend), not the current mode: so plan -> ask -> agent needs approval just like
 * plan -> agent. Pure: nothing changes until the run machine applies the outcome.
 */
export function planModeSwitch(pending: PendingModeSwitch, context: ModeSwitchContext): ModeSwitchPlan {
  const requested = typeof pending.to === 'string' ? pending.to : '';
  const current = context.resolveMode(context.mode);
  const target = context.resolveMode(requested);
  const transition = findModeTransition(current, target);
  if (!target || !transition || requested === context.mode) {
    const why = !target ? 'no such mode' : requested === context.mode ? 'already in that mode' : `the ${context.mode} mode cannot switch to it`;
    return { kind: 'refused', note: note(`The switch to mode "${requested}" was not applied: ${why}.`) };
  }
  const ceilingId = context.state[approvedModeStateKey];
  // No record (or a mode that no longer exists): the current mode is the ceiling, never a wider one.
  const ceiling = (typeof ceilingId === 'string' ? context.resolveMode(ceilingId) : undefined) ?? current;
  const added = ceiling ? addedRights(context.rightsOf(target), context.rightsOf(ceiling)) : [`every right of ${target.id} mode (the mode the user chose is unknown)`];
  const planApproval = transition.requiresApproval === true;
  if (!planApproval && added.length === 0) return { kind: 'allowed', target: target.id, planApproval };
  const request: ModeSwitchRequest = {
    from: context.mode,
    to: target.id,
    explanation: pending.explanation ?? '',
    ...(context.state.plan ? { plan: context.state.plan } : {}),
    addedRights: added,
  };
  return { kind: 'needs-approval', request, planApproval, refusal: note(refusedText(context.mode, target.id, ceiling?.id ?? context.mode, added)) };
}

/** The note the model reads when the user declined a switch. */
export function declinedSwitchNote(mode: string, target: string, reason?: string): ModelMessage {
  return note(`The user declined the switch to ${target} mode${reason ? ` (${reason})` : ''}. Stay in ${mode} mode; ask what they want changed.`);
}

function refusedText(mode: string, target: string, ceiling: string, added: string[]): string {
  const why = added.length > 0
    ? `${target} mode allows more than ${ceiling} mode, the mode the user chose: ${added.join('; ')}`
    : `leaving ${mode} mode for ${target} mode is the user's decision`;
  return (
    `The switch to ${target} mode was refused: ${why}. That needs the user's approval, and no one can give it in this run. ` +
    `You are still in ${mode} mode: do not try to get around it (settings files, other tools). Finish what this mode allows, then end your turn and tell the user what you need; ` +
    `they can switch to ${target} mode themselves${mode === 'plan' ? ' or approve your plan (create_plan first)' : ''}.`
  );
}

export interface AppliedModeSwitch {
  mode: string;
  messages: ModelMessage[];
  updates: InteractionUpdate[];
}

/**
 * Apply an allowed or approved switch: the target's reminder joins the conversation, and an
 * approval moves the run's ceiling to the target; approving a switch out of plan mode approves the
 * stored plan too (its steps become the todo list). Mutates `state`, the run's tool state.
 */
export function applyModeSwitch(input: { state: Record<string, unknown>; mode: string; messages: ModelMessage[]; resolveMode(id: string): ModeDefinition | undefined }, targetId: string, approval: { approved: boolean; planApproval: boolean }): AppliedModeSwitch {
  const target = input.resolveMode(targetId);
  if (!target) return { mode: input.mode, messages: [...input.messages, note(`The switch to mode "${targetId}" was not applied: no such mode.`)], updates: [] };
  if (approval.approved) input.state[approvedModeStateKey] = target.id;
  const updates: InteractionUpdate[] = [{ type: 'mode-changed', from: input.mode, to: target.id, source: approval.planApproval ? 'plan-approval' : 'tool' }];
  const texts = [modeReminderText(target)];
  if (approval.planApproval) {
    const planned = approveStoredPlan(input.state);
    if (planned) {
      updates.push(planned.update);
      texts.push(planned.reminder);
    }
  }
  return { mode: target.id, messages: [...input.messages, { role: 'user', content: [{ type: 'text', text: texts.join('\n\n') }] }], updates };
}

export interface StoredPlanShape {

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
