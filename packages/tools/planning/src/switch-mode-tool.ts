import { defineTool, ToolError } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { type PendingModeSwitch, pendingModeSwitchStateKey } from './todo-types.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const switchModeInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      mode: {
        type: 'string',
        minLength: 1,
        description: 'The id of the mode to switch to: one of the modes the system prompt lists under "Modes" (built-in or added by a plugin).',
      },
      explanation: { type: 'string', minLength: 1, description: 'Why the switch is needed, shown to the user.' },
    },
    required: ['mode', 'explanation'],
  },
} as const;

export type SwitchModeInput = FromSchema<typeof switchModeInputSchema.jsonSchema>;

/**
 * Only records the request. The run machine reads `pendingModeSwitch` before the next step, checks
 * that a transition exists (the current mode's `transitionsTo` or the target's `enterableFrom`, see
 * findModeTransition), and asks the user (`approveModeSwitch`; headless: refused)
 * when the transition `requiresApproval` (plan -> agent) or the target mode has more rights than
 * the mode the user chose (ask -> agent, plan -> ask -> agent); then it applies or drops the request.
 * The tool cannot change the mode itself, so a model cannot widen its own rights.
 */
export const switchModeTool = defineTool<SwitchModeInput>({
  id: 'switchMode',
  name: 'switch_mode',
  description: [
    'Ask to switch the agent to another mode (for example from plan to agent once a plan is approved). The modes are the ones the system prompt lists under "Modes".',
    'The switch takes effect at the next step if the current mode can switch to that mode. A switch to a mode with more rights than the one the user chose (for example from ask or plan to agent) needs the user\'s approval; without it the switch is refused.',
  ].join(' '),
  inputSchema: switchModeInputSchema,
  readOnly: true,
  category: 'planning',
  async execute(input, context): Promise<string> {
    const target = input.mode.trim();
    if (target === context.mode) throw new ToolError(`The agent is already in ${target} mode; no switch is needed.`);
    const request: PendingModeSwitch = {
      to: target,
      from: context.mode,
      explanation: input.explanation,
      requestedAt: Date.now(),
    };
    context.state.set(pendingModeSwitchStateKey, request);
    return (
      `Requested a switch from ${context.mode} mode to ${target} mode. It takes effect at the next step if ${context.mode} mode allows it; ` +
      'if it needs the user\'s approval, you are told at the next step whether it was applied; do not act as if the new mode were active before that.'
    );
  },
});
