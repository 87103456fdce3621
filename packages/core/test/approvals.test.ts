import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryStore, defineTool, type InteractionUpdate, type ModeDefinition } from '../src/index.js';
import { createCairn, type Run } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

const ran: string[] = [];
const deploy = defineTool({
  id: 'deploy', name: 'deploy', description: 'Deploys.', inputSchema: z.object({ target: z.string() }), readOnly: false, category: 'custom',
  execute: (input: { target: string }) => (ran.push(input.target), `deployed to ${input.target}`),
});
const switchTool = defineTool({
  id: 'switch', name: 'switch_mode', description: 'Asks to switch modes.', inputSchema: z.object({ to: z.string() }), readOnly: true, category: 'planning',
  execute: (input: { to: string }, context) => (context.state.set('pendingModeSwitch', { to: input.to, explanation: 'the plan is ready' }), 'requested'),
});
const agentMode: ModeDefinition = { id: 'agent', description: 'Does the work.', promptBlocks: [], toolPolicy: { readOnly: false, mcp: 'all' }, sandboxProfile: 'inherit', transitionsTo: ['plan'] };
const planMode: ModeDefinition = { id: 'plan', description: 'Plans.', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', transitionsTo: [{ mode: 'agent', requiresApproval: true }] };

function setupAgent(turns: ScriptedTurn[]) {
  const model = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [{ name: 'approvals', providers: [scriptedProvider({ 'scripted-model': model })], tools: [deploy, switchTool], modes: [agentMode, planMode] }] });
  return { Agent, model };
}
const deployTurns: ScriptedTurn[] = [{ toolCalls: [{ name: 'deploy', args: { target: 'prod' } }] }, { text: 'Done.' }];
const local = async () => ({ cwd: await tempWorkspace(), store: createMemoryStore(), settingSources: [] as [] });

/** Send, collecting updates, and hand each approval request to `answer` once it is stored. */
async function sendWith(agent: { send: (text: string, options: object) => Promise<Run> }, answer?: (run: Run, update: Extract<InteractionUpdate, { type: 'approval-requested' }>) => void) {
  const updates: InteractionUpdate[] = [];
  let run: Run | undefined;
  run = await agent.send('go', {
    onDelta: ({ update }: { update: InteractionUpdate }) => {
      updates.push(update);
      if (update.type === 'approval-requested' && answer) setTimeout(() => answer(run as Run, update), 5);
    },
  });
  return { run, result: await run.wait(), updates };
}

describe('approvals: a call under an ask rule', () => {
  it("approvals: 'wait' — the run waits in awaitingApproval; run.approve answers it and the tool runs", async () => {
    ran.length = 0;
    const { Agent } = setupAgent(deployTurns);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: await local(), permissions: { ask: ['deploy'] }, approvals: 'wait' });
    let pending: unknown[] = [];
    const { result, updates } = await sendWith(agent, async (run, update) => {
      pending = await run.pendingApprovals();
      await run.approve(update.callId, true);
    });
    expect(result.status).toBe('finished');
    expect(ran).toEqual(['prod']);
    expect(pending).toMatchObject([{ kind: 'tool', toolName: 'deploy', args: { target: 'prod' }, status: 'pending' }]);
    expect(updates.filter((update) => update.type.startsWith('approval-'))).toMatchObject([
      { type: 'approval-requested', kind: 'tool', toolName: 'deploy' },
      { type: 'approval-decided', approved: true, by: 'sdk' },
    ]);
    expect(await agent.pendingApprovals()).toEqual([]);
  });

  it('canUseTool answers through the same state; without any answerer the call is denied at once, as before', async () => {
    ran.length = 0;
    const asked: string[] = [];
    const withCallback = setupAgent(deployTurns);
    const agent = await withCallback.Agent.create({ model: 'scripted/scripted-model', local: await local(), permissions: { ask: ['deploy'] }, canUseTool: (request) => (asked.push(request.toolName), { behavior: 'deny', message: 'not now' }) });
    const { result, updates } = await sendWith(agent);
    expect(result.status).toBe('finished');
    expect(asked).toEqual(['deploy']);
    expect(ran).toEqual([]);
    expect(updates).toContainEqual({ type: 'approval-decided', callId: expect.any(String), approved: false, reason: 'not now', by: 'canUseTool' });
    expect(JSON.stringify(withCallback.model.calls[1]?.prompt)).toContain('the user declined it: not now');

    const headless = setupAgent(deployTurns);
    const quiet = await headless.Agent.create({ model: 'scripted/scripted-model', local: await local(), permissions: { ask: ['deploy'] } });
    const denied = await sendWith(quiet);
    expect(denied.updates.some((update) => update.type === 'approval-requested')).toBe(false);
    expect(JSON.stringify(headless.model.calls[1]?.prompt)).toContain('no canUseTool callback was given (headless runs deny it)');
  });

  it('approvalTimeoutMs denies a request nobody answered, with the reason', async () => {
    ran.length = 0;
    const { Agent, model } = setupAgent(deployTurns);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: await local(), permissions: { ask: ['deploy'] }, approvals: 'wait', approvalTimeoutMs: 50 });
    const { result, updates } = await sendWith(agent);
    expect(result.status).toBe('finished');
    expect(ran).toEqual([]);
    expect(updates).toContainEqual(expect.objectContaining({ type: 'approval-decided', approved: false, by: 'timeout' }));
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain('no answer within');
  });

  it('rejects bad approval options at create, and an unknown call id at approve', async () => {
    const { Agent } = setupAgent(deployTurns);
    await expect(Agent.create({ model: 'scripted/scripted-model', local: await local(), approvals: 'ask' as never })).rejects.toThrow("approvals must be 'deny'");
    await expect(Agent.create({ model: 'scripted/scripted-model', local: await local(), approvalTimeoutMs: 10 })).rejects.toThrow("only applies with approvals: 'wait'");
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: await local(), permissions: { ask: ['deploy'] }, approvals: 'wait' });
    const { result } = await sendWith(agent, async (run, update) => {
      await expect(run.approve('no-such-call', true)).rejects.toThrow(`Open requests: ${update.callId}`);
      await expect(run.approve(update.callId, 'yes' as never)).rejects.toThrow('needs true, false');
      await run.cancel();
    });
    expect(result.status).toBe('cancelled');
    // A cancelled run leaves no open request behind.
    expect(await agent.pendingApprovals()).toEqual([]);
  });
});

describe('approvals: a mode switch that needs approval', () => {
  const switchTurns: ScriptedTurn[] = [{ toolCalls: [{ name: 'switch_mode', args: { to: 'agent' } }] }, { text: 'Next step.' }];

  for (const approved of [true, false]) {
    it(`waits in awaitingApproval and is ${approved ? 'approved: the run goes on in agent mode' : 'declined: the run stays in plan mode'}`, async () => {
      const { Agent, model } = setupAgent(switchTurns);
      const agent = await Agent.create({ model: 'scripted/scripted-model', mode: 'plan', local: await local(), approvals: 'wait' });
      const { result, updates } = await sendWith(agent, (run, update) => void run.approve(update.callId, approved ? true : { approved: false, reason: 'keep planning' }));
      expect(result.status).toBe('finished');
      const requested = updates.find((update) => update.type === 'approval-requested');
      expect(requested).toMatchObject({ kind: 'mode-switch', modeSwitch: { from: 'plan', to: 'agent', explanation: 'the plan is ready' } });
      expect(agent.mode).toBe(approved ? 'agent' : 'plan');
      expect(updates.some((update) => update.type === 'mode-changed')).toBe(approved);
      // The next request offers the tools of the mode the run is in.
      const tools = (model.calls[1]?.tools ?? []).map((tool) => tool.name);
      expect(tools.includes('deploy')).toBe(approved);
      if (!approved) expect(JSON.stringify(model.calls[1]?.prompt)).toContain('declined the switch to agent mode (keep planning)');
    });
  }

  it('approveModeSwitch answers it in process; headless (no answerer) refuses it without waiting', async () => {
    const asked: string[] = [];
    const withCallback = setupAgent(switchTurns);
    const agent = await withCallback.Agent.create({ model: 'scripted/scripted-model', mode: 'plan', local: await local(), approveModeSwitch: (request) => (asked.push(`${request.from}->${request.to}`), true) });
    expect((await sendWith(agent)).result.status).toBe('finished');
    expect(asked).toEqual(['plan->agent']);
    expect(agent.mode).toBe('agent');

    const headless = setupAgent(switchTurns);
    const quiet = await headless.Agent.create({ model: 'scripted/scripted-model', mode: 'plan', local: await local() });
    const { updates } = await sendWith(quiet);
    expect(updates.some((update) => update.type === 'approval-requested')).toBe(false);
    expect(quiet.mode).toBe('plan');
    expect(JSON.stringify(headless.model.calls[1]?.prompt)).toContain('The switch to agent mode was refused');
  });
});
