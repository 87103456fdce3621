import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatCompletionsServer, type ChatCompletionsTurn, startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../src/tui/chat-session.js';
import type { ChatState, Entry } from '../src/tui/chat-state.js';
import { useTempCairnHome } from './cli-io.js';

// The chat's behaviour without the screen: the real SDK, the real SQLite store under a temp
// CAIRN_HOME, a fake OpenAI-compatible server, real files in a temp workspace.
useTempCairnHome();

let server: ChatCompletionsServer | undefined;
const sessions: ChatSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await server?.close();
  server = undefined;
});

async function open(turns: ChatCompletionsTurn[], options: { mode?: string; resume?: string; cwd?: string } = {}) {
  server ??= await startChatCompletionsServer((_body, index) => turns[index] ?? { text: 'nothing more' });
  const cwd = options.cwd ?? (await realpath(await mkdtemp(join(tmpdir(), 'cairn-tui-'))));
  const env = { ...process.env, OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' };
  const session = new ChatSession({ cwd, model: 'openai/gpt-4.1-mini', sandbox: false, env, ...options });
  sessions.push(session);
  expect(await session.start()).toBeUndefined();
  return { session, cwd };
}

async function until(session: ChatSession, check: (state: ChatState) => boolean, what: string): Promise<ChatState> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const state = session.store.get();
    if (check(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}; entries: ${JSON.stringify(session.store.get().entries)}`);
}

const texts = (entries: Entry[]) => entries.map((entry) => ('text' in entry ? entry.text : entry.kind === 'tool' ? `${entry.ok ? '✓' : '✗'} ${entry.name} ${entry.argument}` : entry.kind));
const writeCommand = { toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'echo hi > out.txt' } }] };

describe('approvals in the chat', () => {
  it('asks before a shell command that writes, and runs it when allowed once', async () => {
    const { session, cwd } = await open([writeCommand, { text: 'Wrote it.' }]);
    const sending = session.submit('write out.txt');
    const asked = await until(session, (state) => state.prompt?.kind === 'approval', 'the approval prompt');
    expect(asked.prompt).toMatchObject({ kind: 'approval', canRemember: true, request: { toolName: 'run_terminal_cmd' } });
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
    await session.answerApproval('once');
    await sending;
    expect(await readFile(join(cwd, 'out.txt'), 'utf8')).toBe('hi\n');
    expect(texts(session.store.get().entries)).toContain('✓ run_terminal_cmd echo hi > out.txt');
  });

  it('refuses the command when denied, and the model reads why', async () => {
    const { session, cwd } = await open([writeCommand, { text: 'It was refused.' }]);
    const sending = session.submit('write out.txt');
    await until(session, (state) => state.prompt?.kind === 'approval', 'the approval prompt');
    await session.answerApproval('deny');
    await sending;
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
    expect(texts(session.store.get().entries)).toContain('✗ run_terminal_cmd echo hi > out.txt');
    expect(JSON.stringify(server?.requests.at(-1))).toContain('the user denied it');
  });

  it('remembers "always" for the workspace: a later chat runs the same command without asking', async () => {
    const { session, cwd } = await open([writeCommand, { text: 'Done.' }, writeCommand, { text: 'Again.' }]);
    const sending = session.submit('write out.txt');
    await until(session, (state) => state.prompt?.kind === 'approval', 'the approval prompt');
    await session.answerApproval('always');
    await sending;
    const saved = JSON.parse(await readFile(join(process.env.CAIRN_HOME ?? '', 'workspace-permissions.json'), 'utf8'));
    expect(saved.workspaces[cwd].allow).toContain('shell(echo hi > out.txt)');
    const later = await open([], { cwd });
    await later.session.submit('write it again');
    expect(later.session.store.get().entries.filter((entry) => entry.kind === 'tool').map((entry) => 'ok' in entry && entry.ok)).toEqual([true]);
  });

  it('lets file edits inside the workspace go without a question', async () => {
    const { session, cwd } = await open([{ toolCalls: [{ name: 'write', args: { path: 'a.txt', contents: 'one\n' } }] }, { text: 'ok' }]);
    await session.submit('write a.txt');
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('one\n');
    expect(session.store.get().entries.some((entry) => entry.kind === 'diff')).toBe(true);
  });
});

describe('project files not trusted yet', () => {
  it('asks about a project MCP server in the UI; no leaves it out and the run goes on', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-tui-mcp-')));
    await mkdir(join(cwd, '.cairn'));
    await writeFile(join(cwd, '.cairn', 'mcp.json'), JSON.stringify({ mcpServers: { demo: { command: 'node', args: ['-e', '0'] } } }));
    const { session } = await open([{ text: 'Answered.' }], { cwd });
    const sending = session.submit('hello');
    const asked = await until(session, (state) => state.prompt?.kind === 'trust', 'the trust question');
    expect(asked.prompt).toMatchObject({ kind: 'trust', question: expect.stringContaining('declares the MCP server "demo"') });
    session.answerTrustQuestion(false);
    await sending;
    expect(texts(session.store.get().entries)).toContain('Answered.');
  });
});

describe('mode switches', () => {
  const toAgent = { toolCalls: [{ name: 'switch_mode', args: { mode: 'agent', explanation: 'the fix needs edits' } }] };

  it('asks before the model leaves ask mode for agent mode, and switches when allowed', async () => {
    const { session } = await open([toAgent, { text: 'Switched.' }], { mode: 'ask' });
    const sending = session.submit('fix it');
    const asked = await until(session, (state) => state.prompt?.kind === 'approval', 'the mode switch prompt');
    expect(asked.prompt).toMatchObject({ kind: 'approval', canRemember: true, request: { kind: 'mode-switch', modeSwitch: { from: 'ask', to: 'agent' } } });
    await session.answerApproval('once');
    await sending;
    expect(texts(session.store.get().entries)).toContain('mode ask -> agent');
  });

  it('remembers "always" for a mode switch: a later chat switches without asking', async () => {
    const { session, cwd } = await open([toAgent, { text: 'Switched.' }, toAgent, { text: 'Switched again.' }], { mode: 'ask' });
    const sending = session.submit('fix it');
    await until(session, (state) => state.prompt?.kind === 'approval', 'the mode switch prompt');
    await session.answerApproval('always');
    await sending;
    const later = await open([], { cwd, mode: 'ask' });
    await later.session.submit('fix it again');
    expect(texts(later.session.store.get().entries)).toContain('mode ask -> agent');
    expect(later.session.store.get().prompt).toBeUndefined();
  });

  it('keeps the mode when the switch is denied', async () => {
    const { session } = await open([toAgent, { text: 'Staying.' }], { mode: 'ask' });
    const sending = session.submit('fix it');
    await until(session, (state) => state.prompt?.kind === 'approval', 'the mode switch prompt');
    await session.answerApproval('deny');
    await sending;
    expect(texts(session.store.get().entries)).not.toContain('mode ask -> agent');
    expect(session.store.get().footer.mode).toBe('ask');
  });
});

describe('plans', () => {
  const plan = { name: 'Greeting', overview: 'Add a greeting.', plan: 'Write `hello.txt`.', todos: [{ id: 'w', content: 'write hello.txt', dependencies: [] }] };

  it('shows the proposed plan and executes it in agent mode once approved', async () => {
    const { session, cwd } = await open(
      [{ toolCalls: [{ name: 'create_plan', args: plan }] }, { text: 'Plan ready.' }, { toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'hello\n' } }] }, { text: 'Implemented.' }],
      { mode: 'plan' },
    );
    await session.submit('plan a greeting');
    const state = await until(session, (current) => current.prompt?.kind === 'plan', 'the plan prompt');
    expect(texts(state.entries).join('\n')).toContain('# Plan: Greeting');
    await session.answerPlan('approve');
    expect(await readFile(join(cwd, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(session.store.get().footer.mode).toBe('agent');
  });

  it('a switch out of plan mode during the run waits on the plan prompt, and approving goes on in agent mode', async () => {
    const { session, cwd } = await open(
      [
        { toolCalls: [{ name: 'create_plan', args: plan }] },
        { toolCalls: [{ name: 'switch_mode', args: { mode: 'agent', explanation: 'the plan is ready' } }] },
        { toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'hi\n' } }] },
        { text: 'Implemented.' },
      ],
      { mode: 'plan' },
    );
    const sending = session.submit('plan a greeting');
    await until(session, (current) => current.prompt?.kind === 'plan' && current.prompt.callId !== undefined, 'the plan prompt inside the run');
    await session.answerPlan('approve');
    await sending;
    expect(await readFile(join(cwd, 'hello.txt'), 'utf8')).toBe('hi\n');
  });

  it('edit sends the requested change in plan mode; reject keeps planning', async () => {
    const { session } = await open([{ toolCalls: [{ name: 'create_plan', args: plan }] }, { text: 'Plan ready.' }, { text: 'Revised.' }], { mode: 'plan' });
    await session.submit('plan a greeting');
    await until(session, (current) => current.prompt?.kind === 'plan', 'the plan prompt');
    await session.answerPlan('edit');
    expect(session.store.get().editingPlan).toBe(true);
    await session.submit('name the file greeting.txt');
    expect(JSON.stringify(server?.requests.at(-1))).toContain('Change the plan: name the file greeting.txt');
    expect(session.store.get().footer.mode).toBe('plan');
  });
});

describe('slash commands and runs', () => {
  it('never sends an unknown slash command to the model', async () => {
    const { session } = await open([{ text: 'hi' }]);
    await session.submit('/bogus');
    await session.submit('/model nope/nothing');
    expect(server?.requests.length ?? 0).toBe(0);
    expect(texts(session.store.get().entries).filter((text) => text.startsWith('unknown command /bogus') || text.startsWith('/model nope/nothing'))).toHaveLength(2);
  });

  it('sends a message that starts with a slash when it is typed with two', async () => {
    const { session } = await open([{ text: 'ok' }]);
    await session.submit('//etc/hosts looks wrong');
    expect(JSON.stringify(server?.requests.at(-1))).toContain('/etc/hosts looks wrong');
    expect(JSON.stringify(server?.requests.at(-1))).not.toContain('//etc/hosts');
  });

  it('Ctrl+C cancels a running command', async () => {
    const { session } = await open([{ toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'sleep 30' } }] }, { text: 'late' }]);
    const sending = session.submit('wait');
    // `sleep` is read-only, so it runs without a question.
    await until(session, (state) => state.running?.tool === 'sleep 30', 'the running tool');
    session.interrupt();
    await sending;
    expect(texts(session.store.get().entries)).toContain('cancelled');
    expect(session.store.get().running).toBeUndefined();
  });

  it('says in CLI terms why an agent cannot be resumed', async () => {
    server ??= await startChatCompletionsServer([]);
    const session = new ChatSession({ cwd: tmpdir(), resume: 'agent-missing', sandbox: false, env: { ...process.env, OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url } });
    sessions.push(session);
    expect(await session.start()).toMatch(/agent-missing/);
  });

  it('twice Ctrl+C on an idle prompt exits', async () => {
    const { session } = await open([]);
    session.interrupt();
    expect(session.store.get()).toMatchObject({ exitArmed: true, exited: false });
    session.interrupt();
    expect(session.store.get().exited).toBe(true);
  });

  it('resuming shows the real workspace and the last turns', async () => {
    const { session, cwd } = await open([{ text: 'The first answer.' }]);
    await session.submit('first question');
    const agentId = session.agentId ?? '';
    await session.close();
    const elsewhere = await realpath(await mkdtemp(join(tmpdir(), 'cairn-tui-other-')));
    const resumed = await open([], { resume: agentId, cwd: elsewhere });
    const shown = texts(resumed.session.store.get().entries);
    expect(shown[0]).toContain(`workspace: ${cwd}`);
    expect(shown).toContain('first question');
    expect(shown).toContain('The first answer.');
    expect(resumed.session.store.get().history).toEqual(['first question']);
  });
});
