import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import { systemReminder } from '../context/system-prompt.js';

export interface PendingModeSwitch {
  to: string;
  explanation?: string;
  requestedAt?: number;
  /** Set by the user's approval (plan -> agent). */
  approved?: boolean;
}

/** The reminder that tells the model which mode it is in and what that mode asks of it. */
export function modeReminderText(mode: ModeDefinition): string {
  const blocks = mode.promptBlocks.join('\n\n');
  return systemReminder(`You are now in ${mode.id} mode: ${mode.description}${blocks ? `\n\n${blocks}` : ''}`);
}

/**
 * Apply a switch requested by the `switch_mode` tool (state key `pendingModeSwitch`) between steps.
 * A switch is allowed when the current mode lists the target in `transitionsTo`; one that needs
 * approval waits for the user (it stays pending and the model is told so).
 */
export function applyPendingModeSwitch(input: {
  state: Record<string, unknown>;
  mode: string;
  messages: ModelMessage[];
  resolveMode(id: string): ModeDefinition | undefined;
}): { mode: string; messages: ModelMessage[]; update?: InteractionUpdate } {
  const pending = input.state.pendingModeSwitch as PendingModeSwitch | undefined;
  if (!pending) return { mode: input.mode, messages: input.messages };
  const current = input.resolveMode(input.mode);
  const target = input.resolveMode(pending.to);
  const transition = current?.transitionsTo.map((entry) => (typeof entry === 'string' ? { mode: entry } : entry)).find((entry) => entry.mode === pending.to);
  if (!target || !transition || pending.to === input.mode) {
    delete input.state.pendingModeSwitch;
    const note = systemReminder(`The switch to mode "${pending.to}" was not applied: ${!target ? 'no such mode' : pending.to === input.mode ? 'already in that mode' : `the ${input.mode} mode cannot switch to it`}.`);
    return { mode: input.mode, messages: [...input.messages, { role: 'user', content: [{ type: 'text', text: note }] }] };
  }
  if (transition.requiresApproval && !pending.approved) {
    return { mode: input.mode, messages: input.messages };
  }
  delete input.state.pendingModeSwitch;
  return {
    mode: target.id,
    messages: [...input.messages, { role: 'user', content: [{ type: 'text', text: modeReminderText(target) }] }],
    update: { type: 'mode-changed', from: input.mode, to: target.id, source: pending.approved ? 'plan-approval' : 'tool' },
  };
}
