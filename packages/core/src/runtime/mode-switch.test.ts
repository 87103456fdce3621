import { describe, expect, it } from 'vitest';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import { modeAtSend } from './mode-at-send.js';
import type { ModeRights } from './mode-rights.js';
import { applyModeSwitch, approvedModeStateKey, declinedSwitchNote, planModeSwitch, takePendingModeSwitch } from './mode-switch.js';

const mode = (id: string, readOnly: boolean, transitionsTo: ModeDefinition['transitionsTo']): ModeDefinition => ({
  id, description: id, promptBlocks: [], toolPolicy: { readOnly, mcp: 'none' }, sandboxProfile: readOnly ? 'read-only' : 'inherit', transitionsTo,
});
const modes = new Map([
  ['plan', mode('plan', true, [{ mode: 'agent', requiresApproval: true }, 'ask'])],
  ['ask', mode('ask', true, ['agent', 'plan'])],
  ['agent', mode('agent', false, ['ask', 'plan'])],
]);
// Rights reduced to writing or not: enough to test the decision, mode-rights.test.ts tests the rest.
const rightsOf = (definition: ModeDefinition): ModeRights => ({ writes: !definition.toolPolicy.readOnly, shell: 1, network: [], mcp: 0, tools: [] });
const resolveMode = (id: string) => modes.get(id);
const lastNote = (messages: Array<{ content: unknown }>) => JSON.stringify(messages.at(-1)?.content);

/** What the run machine does with a `switch_mode` request (its guards and settleModeSwitch), with `approve` as the user. */
async function resolve(state: Record<string, unknown>, current: string, approve?: () => boolean) {
  const pending = takePendingModeSwitch(state);
  const stay = (note: ReturnType<typeof declinedSwitchNote>) => ({ mode: current, messages: [note], updates: [] });
  if (!pending) return { mode: current, messages: [], updates: [] };
  const plan = planModeSwitch(pending, { mode: current, state, resolveMode, rightsOf });
  if (plan.kind === 'refused') return stay(plan.note);
  if (plan.kind === 'allowed') return applyModeSwitch({ state, mode: current, messages: [], resolveMode }, plan.target, { approved: false, planApproval: plan.planApproval });
  if (!approve) return stay(plan.refusal);
  if (!approve()) return stay(declinedSwitchNote(current, plan.request.to));
  return applyModeSwitch({ state, mode: current, messages: [], resolveMode }, plan.request.to, { approved: true, planApproval: plan.planApproval });
}

describe('mode switches (planModeSwitch, applyModeSwitch)', () => {
  it('headless: a switch above the ceiling is refused once and the request is dropped', async () => {
    const state: Record<string, unknown> = { pendingModeSwitch: { to: 'agent' }, [approvedModeStateKey]: 'plan' };
    const result = await resolve(state, 'ask');
    expect(result.mode).toBe('ask');
    expect(result.updates).toEqual([]);
    expect(lastNote(result.messages)).toContain('The switch to agent mode was refused: agent mode allows more than plan mode, the mode the user chose: file edits.');
    expect(state.pendingModeSwitch).toBeUndefined();
    expect((await resolve(state, 'ask')).messages).toEqual([]);
  });

  it('without a recorded ceiling the current mode is the ceiling', async () => {
    const result = await resolve({ pendingModeSwitch: { to: 'agent' } }, 'ask');
    expect(result.mode).toBe('ask');
    expect(lastNote(result.messages)).toContain('allows more than ask mode');
  });

  it('a switch within the ceiling applies without asking', async () => {
    let asked = 0;
    const result = await resolve({ pendingModeSwitch: { to: 'agent' }, [approvedModeStateKey]: 'agent' }, 'ask', () => {
      asked++;
      return false;
    });
    expect(result).toMatchObject({ mode: 'agent', updates: [{ type: 'mode-changed', from: 'ask', to: 'agent', source: 'tool' }] });
    expect(asked).toBe(0);
  });

  it('an approval moves the ceiling; a refusal keeps the mode', async () => {
    const approved: Record<string, unknown> = { pendingModeSwitch: { to: 'agent' }, [approvedModeStateKey]: 'ask' };
    expect((await resolve(approved, 'ask', () => true)).mode).toBe('agent');
    expect(approved[approvedModeStateKey]).toBe('agent');
    const declined: Record<string, unknown> = { pendingModeSwitch: { to: 'agent' }, [approvedModeStateKey]: 'ask' };
    const result = await resolve(declined, 'ask', () => false);
    expect(result.mode).toBe('ask');
    expect(lastNote(result.messages)).toContain('The user declined the switch to agent mode');
    expect(declined[approvedModeStateKey]).toBe('ask');
  });

  it('a declared approval transition needs approval even within the ceiling', async () => {
    const result = await resolve({ pendingModeSwitch: { to: 'agent' }, [approvedModeStateKey]: 'agent' }, 'plan');
    expect(result.mode).toBe('plan');
    expect(lastNote(result.messages)).toContain("leaving plan mode for agent mode is the user's decision");
  });

  it('drops unknown modes, malformed requests and transitions the mode does not list', async () => {
    for (const [current, pending, why] of [
      ['ask', { to: 'root' }, 'no such mode'],
      ['ask', { to: 42 }, 'no such mode'],
      ['ask', { to: 'ask' }, 'already in that mode'],
      ['agent', { to: 'debug' }, 'no such mode'],
    ] as const) {
      const state: Record<string, unknown> = { pendingModeSwitch: pending };
      const result = await resolve(state, current);
      expect(result.mode).toBe(current);
      expect(state.pendingModeSwitch).toBeUndefined();
      expect(lastNote(result.messages)).toContain(why);
    }
    modes.set('review', mode('review', true, []));
    const result = await resolve({ pendingModeSwitch: { to: 'ask' } }, 'review');
    expect(lastNote(result.messages)).toContain('the review mode cannot switch to it');
  });
});

describe('modeAtSend', () => {
  it("records the run's mode as its ceiling, and a plan approval's target", () => {
    const state: Record<string, unknown> = { [approvedModeStateKey]: 'agent' };
    expect(modeAtSend({ approvePlan: undefined, requestedMode: undefined, conversationMode: 'ask', runMode: 'ask', state, resolveMode }).mode).toBe('ask');
    expect(state[approvedModeStateKey]).toBe('ask');
    const planned: Record<string, unknown> = { plan: { name: 'p', status: 'proposed', todos: [] } };
    expect(modeAtSend({ approvePlan: true, requestedMode: undefined, conversationMode: 'plan', runMode: 'plan', state: planned, resolveMode }).mode).toBe('agent');
    expect(planned[approvedModeStateKey]).toBe('agent');
  });
});
