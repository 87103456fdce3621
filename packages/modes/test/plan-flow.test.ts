import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMemoryStore, type RunEvent } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { collect, isolatedEnv, modelId, setupCairn, tempDir, toolNames, updatesOf } from './helpers.js';

const planCall = {
  name: 'create_plan',
  args: {
    name: 'Bump the answer',
    overview: 'Change the exported answer to 42 and document it.',
    plan: '## Steps\n1. Edit `app.ts`.\n2. Note it in `notes.md`.',
    todos: [
      { id: 'edit', content: 'Set answer to 42 in app.ts', dependencies: [] },
      { id: 'docs', content: 'Document the change in notes.md', dependencies: ['edit'] },
    ],
  },
};

async function events(store: ReturnType<typeof createMemoryStore>, runId: string): Promise<RunEvent[]> {
  const page = await store.runEvents.list(runId, { limit: 1000 });
  return page.events.map((entry) => entry.event);
}

describe('plan -> approve -> execute', () => {
  it('stores and streams the plan, ends the run, and runs the approved plan in agent mode with its todos', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'app.ts'), 'export const answer = 41;\n');
    const store = createMemoryStore();
    const { model, Agent } = setupCairn([
      { toolCalls: [{ name: 'read_file', args: { path: 'app.ts' } }] },
      { toolCalls: [planCall] },
      { text: 'The plan is ready for your review.' },
      // after approval, in agent mode
      { toolCalls: [{ name: 'search_replace', args: { path: 'app.ts', old_string: '41', new_string: '42' } }, { name: 'todo_write', args: { merge: true, todos: [{ id: 'edit', status: 'completed' }] } }] },
      { text: 'Implemented.' },
    ]);
    const agent = await Agent.create({ model: modelId, mode: 'plan', local: { cwd, store }, env: await isolatedEnv() });
    const planned = await agent.send('Make the answer 42');
    const planMessages = await collect(planned);
    expect((await planned.wait()).status).toBe('finished');
    const planUpdates = updatesOf(await events(store, planned.id));
    const created = planUpdates.find((update) => update.type === 'plan-created');
    expect(created).toMatchObject({ plan: { name: 'Bump the answer', status: 'proposed' } });
    expect(planMessages.filter((message) => message.type === 'status' && message.phase === 'mode-changed')).toHaveLength(0);
    expect(await readFile(join(cwd, 'app.ts'), 'utf8')).toContain('41');
    expect(model.calls).toHaveLength(3);

    const go = await agent.send('go', { mode: 'agent' });
    const goMessages = await collect(go);
    expect((await go.wait()).status).toBe('finished');
    const goUpdates = updatesOf(await events(store, go.id));
    expect(goUpdates).toContainEqual({ type: 'mode-changed', from: 'plan', to: 'agent', source: 'plan-approval' });
    expect(goUpdates).toContainEqual({ type: 'todos-updated', todos: [{ id: 'edit', content: 'Set answer to 42 in app.ts', status: 'pending' }, { id: 'docs', content: 'Document the change in notes.md', status: 'pending' }] });
    expect(goMessages).toContainEqual(expect.objectContaining({ type: 'status', status: 'RUNNING', phase: 'mode-changed', mode: 'agent' }));
    // The first agent-mode request offers the write tools and tells the model about the approved plan.
    const firstAgentCall = model.calls[3]!;
    expect(toolNames(firstAgentCall)).toEqual(expect.arrayContaining(['search_replace', 'write']));
    const lastUser = JSON.stringify(firstAgentCall.prompt.at(-1));
    expect(lastUser).toContain('approved the plan');
    expect(lastUser).toContain('You are now in agent mode');
    // todo_write merged into the loaded list.
    const todoUpdates = goUpdates.filter((update) => update.type === 'todos-updated');
    expect(todoUpdates.at(-1)).toMatchObject({ todos: [{ id: 'edit', status: 'completed' }, { id: 'docs', status: 'pending' }] });
    expect(await readFile(join(cwd, 'app.ts'), 'utf8')).toContain('42');
    expect(agent.mode).toBe('agent');
    model.assertComplete();
  });

  it('approvePlan() approves without naming the mode', async () => {
    const cwd = await tempDir();
    const { model, Agent } = setupCairn([{ toolCalls: [planCall] }, { text: 'Plan ready.' }, { text: 'Working on it.' }]);
    const agent = await Agent.create({ model: modelId, mode: 'plan', local: { cwd }, env: await isolatedEnv() });
    await (await agent.send('plan it')).wait();
    const run = await agent.approvePlan();
    const messages = await collect(run);
    expect(messages).toContainEqual(expect.objectContaining({ type: 'status', status: 'RUNNING', phase: 'mode-changed', mode: 'agent' }));
    expect(agent.mode).toBe('agent');
    expect(toolNames(model.calls[2]!)).toContain('write');
  });

  it('a plan-mode follow-up without approval stays in plan mode', async () => {
    const cwd = await tempDir();
    const { model, Agent } = setupCairn([{ toolCalls: [planCall] }, { text: 'Plan ready.' }, { text: 'Revised.' }]);
    const agent = await Agent.create({ model: modelId, mode: 'plan', local: { cwd }, env: await isolatedEnv() });
    await (await agent.send('plan it')).wait();
    await (await agent.send('Also cover the tests')).wait();
    expect(agent.mode).toBe('plan');
    expect(toolNames(model.calls[2]!)).not.toContain('write');
  });
});

describe('switch_mode', () => {
  it('plan -> agent needs approval: headless it stays pending and the model is told', async () => {
    const cwd = await tempDir();
    const { model, Agent } = setupCairn([
      { toolCalls: [{ name: 'switch_mode', args: { mode: 'agent', explanation: 'Ready to implement.' } }] },
      { text: 'Waiting for your approval.' },
    ]);
    const agent = await Agent.create({ model: modelId, mode: 'plan', local: { cwd }, env: await isolatedEnv() });
    const run = await agent.send('plan and go');
    const messages = await collect(run);
    expect(messages.some((message) => message.type === 'status' && message.phase === 'mode-changed')).toBe(false);
    expect(JSON.stringify(model.calls[1]!.prompt.at(-1))).toContain("needs the user's approval");
    expect(toolNames(model.calls[1]!)).not.toContain('write');
    expect(agent.mode).toBe('plan');
  });

  it('with approveModeSwitch the switch applies at the next step', async () => {
    const cwd = await tempDir();
    const asked: unknown[] = [];
    const { model, Agent } = setupCairn([
      { toolCalls: [{ name: 'switch_mode', args: { mode: 'agent', explanation: 'Ready to implement.' } }] },
      { toolCalls: [{ name: 'write', args: { path: 'done.txt', contents: 'ok' } }] },
      { text: 'Done.' },
    ]);
    const agent = await Agent.create({
      model: modelId,
      mode: 'plan',
      local: { cwd },
      env: await isolatedEnv(),
      approveModeSwitch: (request) => {
        asked.push(request);
        return true;
      },
    });
    const messages = await collect(await agent.send('plan and go'));
    expect(asked).toEqual([expect.objectContaining({ from: 'plan', to: 'agent', explanation: 'Ready to implement.' })]);
    expect(messages).toContainEqual(expect.objectContaining({ type: 'status', status: 'RUNNING', phase: 'mode-changed', mode: 'agent' }));
    expect(toolNames(model.calls[1]!)).toContain('write');
    expect(await readFile(join(cwd, 'done.txt'), 'utf8')).toBe('ok');
    expect(agent.mode).toBe('agent');
  });

  it('plan -> ask needs no approval, and the agent record has the new mode as soon as it applies', async () => {
    const store = createMemoryStore();
    const { model, Agent } = setupCairn([{ toolCalls: [{ name: 'switch_mode', args: { mode: 'ask', explanation: 'Only a question.' } }] }, { toolCalls: [{ name: 'list_dir', args: {} }] }, { text: 'Answer.' }]);
    const agent = await Agent.create({ model: modelId, mode: 'plan', local: { cwd: await tempDir(), store }, env: await isolatedEnv() });
    const storedModes: Array<string | undefined> = [];
    await (await agent.send('what is x?', { onStep: async () => void storedModes.push((await store.agents.get(agent.agentId))?.mode) })).wait();
    // Recorded while the run was still going (a crash after this point resumes in ask mode).
    expect(storedModes.slice(0, 2)).toEqual(['plan', 'ask']);
    expect(toolNames(model.calls[1]!)).not.toContain('create_plan');
    expect(agent.mode).toBe('ask');
  });
});
