import { defineTool, ToolError } from '@cairn/core';
import { z } from 'zod';
import { type PendingModeSwitch, pendingModeSwitchStateKey } from './todo-types.js';

export const switchModeInputSchema = z.object({
  mode: z.string().min(1).describe('The mode to switch to, e.g. agent, plan, ask or debug.'),
  explanation: z.string().min(1).describe('Why the switch is needed, shown to the user.'),
});

export type SwitchModeInput = z.infer<typeof switchModeInputSchema>;

/**
 * Only records the request. The run machine reads `pendingModeSwitch` before the next step, checks
 * the current mode's `transitionsTo`, asks the user when that transition `requiresApproval` (plan ->
 * agent), then applies or drops it and clears the key. The tool cannot change the mode itself, so a
 * model cannot leave plan mode without the runtime's (and the user's) consent.
 */
export const switchModeTool = defineTool<SwitchModeInput>({
  id: 'switchMode',
  name: 'switch_mode',
  description: [
    'Ask to switch the agent to another mode (for example from plan to agent once a plan is approved).',
    'The switch takes effect at the next step if the current mode allows it; some switches need the user\'s approval first.',
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
      'if the switch needs the user\'s approval, wait for it and do not act as if the new mode were active yet.'
    );
  },
});
