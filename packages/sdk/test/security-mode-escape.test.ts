import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentOptions, ModeDefinition, ModeSwitchRequest, RunEvent } from '@cairn/core';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createCairn, createMemoryStore, defaultPlugins } from '../src/index.js';
import { agentEnv, attackTurn, createFixture, type Fixture, git, hashTree, modelId, resultsSeen } from './security-helpers.js';

// Issue 12, class 1: the model controls switch_mode. A switch to a mode with more rights than the
// mode the user chose for the run needs the user's approval (approveModeSwitch); headless it is
// refused and the model is told. Rights, not names, decide: read-only or writing, where the shell
// runs, MCP, the tools offered. Chains (plan -> ask -> agent) and later runs cannot add up to more.

type Store = ReturnType<typeof createMemoryStore>;

/** The workspace with everything committed, so `git status` on the host shows any planted file. */
async function escapeFixture(): Promise<Fixture> {
  const fixture = await createFixture();
  await writeFile(join(fixture.cwd, 'app.ts'), 'export const answer = 41;\n');
  const author = ['-c', 'user.email=t@example.com', '-c', 'user.name=t'];
  git(fixture.cwd, ...author, 'add', '-A');
  git(fixture.cwd, ...author, 'commit', '-q', '-m', 'init');
  return fixture;
}

// What the model does once it believes it left the read-only mode.
const probes = [
  { name: 'write', args: { path: 'escaped.txt', contents: 'written after the switch' } },
  { name: 'search_replace', args: { path: 'app.ts', old_string: '41', new_string: '42' } },
  { name: 'run_terminal_cmd', args: { command: 'touch escaped-by-shell && echo made', timeout_ms: 30_000 } },
];

const switchTo = (mode: string, index: number): ScriptedTurn => attackTurn([{ name: 'switch_mode', args: { mode, explanation: 'I need to make the change.' } }], `s${index}-`);

function agentFor(fixture: Fixture, turns: ScriptedTurn[], plugins: Array<{ name: string; modes?: ModeDefinition[] }> = [], store: Store = createMemoryStore()) {
  const model = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [...defaultPlugins, ...plugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
  const create = (options: Partial<AgentOptions> = {}) => Agent.create({ model: modelId, ...options, local: { cwd: fixture.cwd, store }, env: agentEnv(fixture) });
  return { model, Agent, store, create };
}

async function modeChanges(store: Store, runId: string): Promise<Array<{ from: string; to: string; source: string }>> {
  const page = await store.runEvents.list(runId, { limit: 1000 });
  return page.events.map((entry) => entry.event as RunEvent).flatMap((event) => (event.kind === 'update' && event.update.type === 'mode-changed' ? [{ from: event.update.from, to: event.update.to, source: event.update.source }] : []));
}

/** The workspace is byte-identical, and the host's `git status` sees nothing new. */
async function expectUntouched(fixture: Fixture, before: Record<string, string>): Promise<void> {
  expect(await hashTree(fixture.cwd)).toEqual(before);
  expect(git(fixture.cwd, 'status', '--porcelain', '--untracked-files=all')).toBe('');
}

function expectProbesRefused(seen: ReturnType<typeof resultsSeen>, prefix = 'p'): void {
  for (const [index, probe] of probes.entries()) {
    const result = seen[`${prefix}${index}`];
    expect(result?.isError, `${probe.name}: ${result?.text}`).toBe(true);
  }
}

const promptText = (call: { prompt: unknown } | undefined) => JSON.stringify(call?.prompt ?? null);

describe('mode escape: headless, no approver', () => {
  it('refuses ask -> agent; the model is told why and the writes and commands that follow are refused', async () => {
    const fixture = await escapeFixture();
    const before = await hashTree(fixture.cwd);
    const { model, store, create } = agentFor(fixture, [switchTo('agent', 0), attackTurn(probes, 'p'), { text: 'done' }]);
    const agent = await create({ mode: 'ask', permissions: { allow: ['write', 'edit', 'shell'] } });
    const run = await agent.send('make the change');
    expect((await run.wait()).status).toBe('finished');
    expect(promptText(model.calls[1])).toMatch(/The switch to agent mode was refused: agent mode allows more than ask mode, the mode the user chose: file edits; the shell on the host/);
    expectProbesRefused(resultsSeen(model.calls[2]));
    expect(await modeChanges(store, run.id)).toEqual([]);
    expect(agent.mode).toBe('ask');
    expect((await store.agents.get(agent.agentId))?.mode).toBe('ask');
    await expectUntouched(fixture, before);
  });

  it('refuses plan -> ask -> agent: the second switch is judged against plan, the mode the user chose', async () => {
    const fixture = await escapeFixture();
    const before = await hashTree(fixture.cwd);
    const { model, store, create } = agentFor(fixture, [switchTo('ask', 0), switchTo('agent', 1), attackTurn(probes, 'p'), { text: 'done' }]);
    const agent = await create({ mode: 'plan', permissions: { allow: ['write', 'edit', 'shell'] } });
    const run = await agent.send('make the change');
    expect((await run.wait()).status).toBe('finished');
    // plan -> ask adds nothing and applies; ask -> agent would, and is refused.
    expect(await modeChanges(store, run.id)).toEqual([{ from: 'plan', to: 'ask', source: 'tool' }]);
    expect(promptText(model.calls[2])).toContain('The switch to agent mode was refused: agent mode allows more than plan mode, the mode the user chose');
    expectProbesRefused(resultsSeen(model.calls[3]));
    expect(agent.mode).toBe('ask');
    await expectUntouched(fixture, before);
  });

  it('refuses plan -> agent and two switches asked for in one turn', async () => {
    const fixture = await escapeFixture();
    const before = await hashTree(fixture.cwd);
    const both = attackTurn([
      { name: 'switch_mode', args: { mode: 'ask', explanation: 'first' } },
      { name: 'switch_mode', args: { mode: 'agent', explanation: 'second' } },
    ], 'd');
    const { model, store, create } = agentFor(fixture, [switchTo('agent', 0), both, attackTurn(probes, 'p'), { text: 'done' }]);
    const agent = await create({ mode: 'plan' });
    const run = await agent.send('make the change');
    expect((await run.wait()).status).toBe('finished');
    expect(promptText(model.calls[1])).toContain("The switch to agent mode was refused: agent mode allows more than plan mode, the mode the user chose: file edits;");
    expect(promptText(model.calls[1])).toContain("That needs the user's approval, and no one can give it in this run. You are still in plan mode");
    expectProbesRefused(resultsSeen(model.calls[3]));
    expect((await modeChanges(store, run.id)).map((change) => change.to)).not.toContain('agent');
    expect(agent.mode).not.toBe('agent');
    await expectUntouched(fixture, before);
  });
});

describe('mode escape: custom modes are judged by their declared policy', () => {
  const base = { promptBlocks: [], sandboxProfile: 'read-only' as const, transitionsTo: [] };
  const review: ModeDefinition = {
    ...base,
    id: 'review',
    description: 'Read the code; no shell.',
    toolPolicy: { readOnly: true, mcp: 'none', shell: 'off' },
    transitionsTo: ['explain', 'notes', 'peek', 'connect', 'builder'],
  };
  const modes: ModeDefinition[] = [
    review,
    // Same rights as review under another name: no approval needed, and no step up from it either.
    { ...base, id: 'explain', description: 'Explain the code.', toolPolicy: { readOnly: true, mcp: 'none', shell: 'off' }, transitionsTo: ['notes', 'peek', 'connect', 'builder'] },
    // An innocent name for a writing mode.
    { ...base, id: 'notes', description: 'Take notes.', toolPolicy: { readOnly: false, mcp: 'none', shell: 'off' } },
    // Read-only, but with a shell (even a sandboxed one is more than none).
    { ...base, id: 'peek', description: 'Peek with ls.', toolPolicy: { readOnly: true, mcp: 'none', shell: 'sandbox-read-only' } },
    // Read-only, but every MCP and custom tool.
    { ...base, id: 'connect', description: 'Use the tools.', toolPolicy: { readOnly: true, mcp: 'all', shell: 'off' } },
    { id: 'builder', description: 'Build.', promptBlocks: [], toolPolicy: { readOnly: false, mcp: 'all', shell: 'host' }, sandboxProfile: 'inherit', transitionsTo: [] },
  ];
  const plugin = { name: 'third-party-modes', modes };

  it.each([
    ['notes', /file edits; the tools delete_file, edit_file, edit_notebook, search_replace, write/],
    ['peek', /the shell only in the read-only sandbox \(instead of off\)/],
    ['connect', /MCP and custom tools without readOnlyHint/],
    ['builder', /file edits; the shell on the host without a sandbox \(instead of off\)/],
  ])('refuses review -> %s, directly and through explain (same rights, applied)', async (target, reason) => {
    const fixture = await escapeFixture();
    const before = await hashTree(fixture.cwd);
    const { model, store, create } = agentFor(fixture, [switchTo(target, 0), switchTo('explain', 1), switchTo(target, 2), attackTurn(probes, 'p'), { text: 'done' }], [plugin]);
    const agent = await create({ mode: 'review', permissions: { allow: ['write', 'edit', 'shell'] } });
    const run = await agent.send('go');
    expect((await run.wait()).status).toBe('finished');
    const refusal = new RegExp(`The switch to ${target} mode was refused: ${target} mode allows more than review mode, the mode the user chose: .*${reason.source}`);
    expect(promptText(model.calls[1])).toMatch(refusal);
    expect(await modeChanges(store, run.id)).toEqual([{ from: 'review', to: 'explain', source: 'tool' }]);
    // From explain, the ceiling is still review: the step up is refused the same way.
    expect(JSON.stringify(model.calls[3]?.prompt.at(-1))).toMatch(refusal);
    expectProbesRefused(resultsSeen(model.calls[4]));
    expect(agent.mode).toBe('explain');
    await expectUntouched(fixture, before);
  });
});

describe('mode escape: the approver decides', () => {
  it('asks approveModeSwitch with the rights being added; a no keeps the mode, a yes applies it', async () => {
    for (const answer of [false, true]) {
      const fixture = await escapeFixture();
      const asked: ModeSwitchRequest[] = [];
      const { model, store, create } = agentFor(fixture, [switchTo('agent', 0), attackTurn([probes[0]!], 'p'), { text: 'done' }]);
      const agent = await create({ mode: 'ask', approveModeSwitch: (request) => {
          asked.push(request);
          return answer;
        },
      });
      const run = await agent.send('make the change');
      expect((await run.wait()).status).toBe('finished');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ from: 'ask', to: 'agent', explanation: 'I need to make the change.' });
      expect(asked[0]?.addedRights).toEqual(expect.arrayContaining(['file edits', expect.stringMatching(/^the shell on the host/)]));
      const written = resultsSeen(model.calls[2]).p0;
      if (answer) {
        expect(await modeChanges(store, run.id)).toEqual([{ from: 'ask', to: 'agent', source: 'tool' }]);
        expect(written?.isError, written?.text).toBe(false);
        expect(agent.mode).toBe('agent');
      } else {
        expect(promptText(model.calls[1])).toContain('The user declined the switch to agent mode');
        expect(written?.isError).toBe(true);
        expect(agent.mode).toBe('ask');
        expect(git(fixture.cwd, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      }
    }
  });

  it('is asked once for plan -> ask -> agent, for the step that adds rights', async () => {
    const fixture = await escapeFixture();
    const asked: ModeSwitchRequest[] = [];
    const { create } = agentFor(fixture, [switchTo('ask', 0), switchTo('agent', 1), { text: 'done' }]);
    const agent = await create({ mode: 'plan', approveModeSwitch: (request) => {
        asked.push(request);
        return false;
      },
    });
    await (await agent.send('go')).wait();
    expect(asked.map((request) => `${request.from}->${request.to}`)).toEqual(['ask->agent']);
    expect(agent.mode).toBe('ask');
  });
});

describe('mode escape: across runs and resume', () => {
  it('a later run starts from the mode the earlier one ended in, and cannot climb above it', async () => {
    const fixture = await escapeFixture();
    const before = await hashTree(fixture.cwd);
    // Run 1 (agent, as created): down and back up within agent applies, then down to ask.
    // Run 2 (no mode given, so it starts in ask): up to agent is refused.
    const { model, create } = agentFor(fixture, [switchTo('ask', 0), switchTo('agent', 1), switchTo('ask', 2), { text: 'in ask now' }, switchTo('agent', 3), attackTurn(probes, 'p'), { text: 'done' }]);
    const agent = await create({ mode: 'agent' });
    await (await agent.send('first')).wait();
    expect(JSON.stringify(model.calls[2]?.prompt.at(-1))).toContain('You are now in agent mode');
    expect(agent.mode).toBe('ask');
    await (await agent.send('second')).wait();
    expect(promptText(model.calls[5])).toContain('The switch to agent mode was refused: agent mode allows more than ask mode');
    expectProbesRefused(resultsSeen(model.calls[6]));
    expect(agent.mode).toBe('ask');
    await expectUntouched(fixture, before);
  });

  it('a request left over from a run that stopped early is judged in the next run, after resume in a new runtime', async () => {
    const fixture = await escapeFixture();
    const before = await hashTree(fixture.cwd);
    const store = createMemoryStore();
    // maxSteps 1: the run ends right after switch_mode recorded its request, before any step applies it.
    const first = agentFor(fixture, [switchTo('agent', 0)], [], store);
    const agent = await first.create({ mode: 'ask' });
    await (await agent.send('go', { maxSteps: 1 })).wait();
    expect((await store.agents.get(agent.agentId))?.mode).toBe('ask');
    const second = agentFor(fixture, [attackTurn(probes, 'p'), { text: 'done' }], [], store);
    const resumed = await second.Agent.resume(agent.agentId, { local: { cwd: fixture.cwd, store }, env: agentEnv(fixture) });
    const run = await resumed.send('continue');
    expect((await run.wait()).status).toBe('finished');
    expect(promptText(second.model.calls[0])).toContain('The switch to agent mode was refused');
    expectProbesRefused(resultsSeen(second.model.calls[1]));
    expect(await modeChanges(store, run.id)).toEqual([]);
    expect(resumed.mode).toBe('ask');
    await expectUntouched(fixture, before);
  });
});
