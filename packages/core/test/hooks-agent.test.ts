import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentOptions, createMemoryStore, defineTool, type RunEvent } from '../src/index.js';
import { maxStopHookContinues } from '../src/hooks/index.js';
import { createCairn } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/hooks');
const script = (name: string) => join(fixtures, name);
const model = 'scripted/scripted-model';

/** A stand-in for the shell tool (same id, name and category): it records the commands it was given. */
function fakeShell(ran: string[]) {
  return defineTool({
    id: 'shell', name: 'run_terminal_cmd', description: 'Run a command.', inputSchema: z.object({ command: z.string() }), readOnly: false, category: 'shell',
    execute: ({ command }: { command: string }) => {
      ran.push(command);
      return `ran: ${command}`;
    },
  });
}

const shellCall = (command: string): ScriptedTurn => ({ toolCalls: [{ name: 'run_terminal_cmd', args: { command } }] });

async function workspace(files: Record<string, unknown>): Promise<string> {
  const cwd = await tempWorkspace('cairn-hooks-');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(cwd, path)), { recursive: true });
    await writeFile(join(cwd, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return cwd;
}

const claudeHooks = (hooks: Record<string, unknown>) => ({ '.claude/settings.json': { hooks } });
const command = (path: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: path, ...extra });

async function runAgent(cwd: string, turns: ScriptedTurn[], options: Partial<AgentOptions> = {}, prompt = 'go') {
  const ran: string[] = [];
  const scripted = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': scripted })], tools: [fakeShell(ran)] }] });
  const store = createMemoryStore();
  const home = await tempWorkspace('cairn-hooks-home-');
  const agent = await Agent.create({ model, ...options, env: { ...process.env, HOME: home, CAIRN_HOME: join(home, '.cairn') }, local: { cwd, store, settingSources: ['project'], ...options.local } });
  const run = await agent.send(prompt);
  const result = await run.wait();
  const events = (await store.runEvents.list(run.id)).events.map((entry) => entry.event);
  await agent.close();
  return { result, ran, scripted, events, agent };
}

/** The text of everything the model was sent in its call `index`. */
const sentText = (scripted: ReturnType<typeof scriptedModel>, index: number) => JSON.stringify(scripted.calls[index]?.prompt ?? []);
const statusTexts = (events: RunEvent[]) => events.flatMap((event) => (event.kind === 'message' && event.message.type === 'status' && typeof event.message.message === 'string' ? [event.message.message] : []));
/** Processes of a process group that are still running (zombies waiting for a reaper are dead), once the kill has landed. */
async function liveMembersOf(group: number): Promise<number[]> {
  const live = async () => {
    const members: number[] = [];
    for (const entry of await readdir('/proc')) {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (/^\d+$/.test(entry) && Number(fields[2]) === group && fields[0] !== 'Z') members.push(Number(entry));
    }
    return members;
  };
  // SIGKILL is delivered asynchronously: give it a moment to land before reading.
  for (let attempt = 0; attempt < 40 && (await live()).length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  return live();
}

const jsonLines = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('Claude Code hooks (.claude/settings.json)', () => {
  it('a PreToolUse hook that exits 2 blocks the command; its stderr reaches the model; the payload has Claude Code field names', async () => {
    const cwd = await workspace(claudeHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [command(script('block-rm-rf.sh'))] }] }));
    const { result, ran, scripted, agent } = await runAgent(cwd, [shellCall('rm -rf build'), shellCall('ls'), { text: 'done' }]);
    expect(result.status).toBe('finished');
    expect(ran).toEqual(['ls']);
    expect(sentText(scripted, 1)).toContain('rm -rf is not allowed in this project');
    const [first] = await jsonLines(join(cwd, 'payloads.jsonl'));
    expect(first).toMatchObject({ session_id: agent.agentId, cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, permission_mode: 'default' });
    const transcript = await readFile(String(first?.transcript_path), 'utf8');
    expect(transcript.split('\n')[0]).toContain('"type":"user"');
  });

  it('updatedInput rewrites the call, and the rewritten call is checked by the rules again', async () => {
    const hooks = claudeHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [command(script('rewrite-input.sh'))] }] });
    const rewritten = await runAgent(await workspace(hooks), [shellCall('cat secrets.txt'), { text: 'done' }]);
    expect(rewritten.ran).toEqual(['echo rewritten']);

    const denied = await runAgent(await workspace(hooks), [shellCall('ls'), { text: 'done' }], { permissions: { deny: ['shell(echo*)'] } });
    expect(denied.ran).toEqual([]);
    expect(sentText(denied.scripted, 1)).toMatch(/Permission denied for run_terminal_cmd/);
  });

  it('UserPromptSubmit stdout is added to the model context', async () => {
    const cwd = await workspace(claudeHooks({ UserPromptSubmit: [{ hooks: [command(script('prompt-context.sh'))] }] }));
    const { scripted } = await runAgent(cwd, [{ text: 'ok' }]);
    expect(sentText(scripted, 0)).toContain('The build command of this project is: make ci');
  });

  it('a Stop hook vetoes the first stop: its reason becomes the next user message; the second payload has stop_hook_active', async () => {
    const cwd = await workspace(claudeHooks({ Stop: [{ hooks: [command(script('stop-once.sh'))] }] }));
    const { result, scripted } = await runAgent(cwd, [{ text: 'first answer' }, { text: 'tests pass' }]);
    expect(result).toMatchObject({ status: 'finished', result: 'tests pass' });
    expect(scripted.calls).toHaveLength(2);
    expect(sentText(scripted, 1)).toContain('Run the tests before you finish.');
    expect((await jsonLines(join(cwd, 'stops.jsonl'))).map((payload) => payload.stop_hook_active)).toEqual([false, true]);
  });

  it('a Stop hook that never lets go is capped; the run says why it ended', async () => {
    const cwd = await workspace(claudeHooks({ Stop: [{ hooks: [command(script('always-block-stop.sh'))] }] }));
    const turns = Array.from({ length: maxStopHookContinues + 1 }, (_, index) => ({ text: `answer ${index}` }));
    const { result, scripted, events } = await runAgent(cwd, turns);
    expect(result).toMatchObject({ status: 'finished', result: `answer ${maxStopHookContinues}` });
    expect(scripted.calls).toHaveLength(maxStopHookContinues + 1);
    expect(statusTexts(events).some((text) => /stop hook .* the most one run allows/i.test(text))).toBe(true);
  });

  it('a hook that hangs is stopped at its timeout (its whole process group) and reported; the run goes on', async () => {
    const cwd = await workspace(claudeHooks({ PreToolUse: [{ hooks: [command(`echo $$ > "$CLAUDE_PROJECT_DIR/hook.pid"; exec ${script('hang.sh')}`, { timeout: 1 })] }] }));
    const { result, ran, events } = await runAgent(cwd, [shellCall('ls'), { text: 'done' }]);
    expect(result.status).toBe('finished');
    expect(ran).toEqual(['ls']);
    expect(statusTexts(events).some((text) => text.includes('timed out after 1 s'))).toBe(true);
    const group = Number((await readFile(join(cwd, 'hook.pid'), 'utf8')).trim());
    expect(await liveMembersOf(group)).toEqual([]);
  });

  it('project hooks do not run when the project layer was not asked for, nor when the host does not trust them', async () => {
    const files = claudeHooks({ PreToolUse: [{ hooks: [command(script('block-rm-rf.sh'))] }] });
    const unasked = await runAgent(await workspace(files), [shellCall('rm -rf build'), { text: 'done' }], { local: { settingSources: [] } });
    expect(unasked.ran).toEqual(['rm -rf build']);

    const asked: string[] = [];
    const untrusted = await runAgent(await workspace(files), [shellCall('rm -rf build'), { text: 'done' }], {
      local: {
        trustProjectHooks: (file) => {
          asked.push(file.hash);
          return false;
        },
      },
    });
    expect(untrusted.ran).toEqual(['rm -rf build']);
    expect(asked).toHaveLength(1);
    expect(statusTexts(untrusted.events).some((text) => text.includes('were left out: they are not trusted'))).toBe(true);
  });
});

describe('Cursor hooks (.cursor/hooks.json)', () => {
  it('beforeShellExecution answers with permission JSON: deny refuses with agent_message; the payload has Cursor field names', async () => {
    const cwd = await workspace({ '.cursor/hooks.json': { version: 1, hooks: { beforeShellExecution: [{ command: script('cursor-block-rm-rf.sh') }] } } });
    const { ran, scripted, events, agent } = await runAgent(cwd, [shellCall('rm -rf /tmp/x'), shellCall('ls'), { text: 'done' }]);
    expect(ran).toEqual(['ls']);
    expect(sentText(scripted, 1)).toContain('Deleting recursively is forbidden here');
    expect(statusTexts(events)).toContain('Blocked rm -rf.');
    const [first] = await jsonLines(join(cwd, 'payloads.jsonl'));
    expect(first).toMatchObject({ conversation_id: agent.agentId, hook_event_name: 'beforeShellExecution', command: 'rm -rf /tmp/x', cwd, workspace_roots: [cwd] });
  });

  it('a stop hook with a followup_message keeps the run going once (loop_count)', async () => {
    const cwd = await workspace({ '.cursor/hooks.json': { version: 1, hooks: { stop: [{ command: script('cursor-stop-once.sh') }] } } });
    const { result, scripted } = await runAgent(cwd, [{ text: 'code done' }, { text: 'changelog done' }]);
    expect(result).toMatchObject({ status: 'finished', result: 'changelog done' });
    expect(sentText(scripted, 1)).toContain('Also update the changelog.');
  });

  it('.cairn/hooks.json accepts either format (detected)', async () => {
    const cwd = await workspace({ '.cairn/hooks.json': { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [command(script('block-rm-rf.sh'))] }] } } });
    const { ran } = await runAgent(cwd, [shellCall('rm -rf build'), { text: 'done' }]);
    expect(ran).toEqual([]);
  });
});

describe('typed hooks (AgentOptions.hooks)', () => {
  it('block, rewrite, add prompt context and veto a stop once, in process', async () => {
    const cwd = await workspace({});
    let stops = 0;
    const { ran, scripted, result } = await runAgent(cwd, [shellCall('rm -rf build'), shellCall('ls'), { text: 'first' }, { text: 'second' }], {
      hooks: {
        userPromptSubmit: ({ prompt }) => ({ additionalContext: `The user said "${prompt}" from the typed hook.` }),
        preToolUse: ({ input }) => (String(input.command).includes('rm -rf') ? { decision: 'deny', reason: 'typed hooks refuse rm -rf' } : { updatedInput: { command: 'ls -la' } }),
        stop: ({ stopHookActive }) => {
          stops++;
          return stopHookActive ? undefined : { decision: 'block', reason: 'One more look.' };
        },
      },
    });
    expect(ran).toEqual(['ls -la']);
    expect(sentText(scripted, 0)).toContain('from the typed hook');
    expect(sentText(scripted, 1)).toContain('typed hooks refuse rm -rf');
    expect(sentText(scripted, 3)).toContain('One more look.');
    expect(stops).toBe(2);
    expect(result).toMatchObject({ status: 'finished', result: 'second' });
  });

  it('run after the file hooks; the strictest answer wins, and allow never overrides a deny rule', async () => {
    const cwd = await workspace(claudeHooks({ PreToolUse: [{ hooks: [command(script('block-rm-rf.sh'))] }] }));
    const { ran, scripted } = await runAgent(cwd, [shellCall('rm -rf build'), shellCall('git push'), { text: 'done' }], {
      permissions: { deny: ['shell(git push*)'] },
      hooks: { preToolUse: () => ({ decision: 'allow' }) },
    });
    expect(ran).toEqual([]);
    expect(sentText(scripted, 1)).toContain('rm -rf is not allowed in this project');
    expect(sentText(scripted, 2)).toMatch(/Permission denied for run_terminal_cmd/);
  });

  it('notification hooks fire when the run waits for approval; a hook ask goes to approval too', async () => {
    const cwd = await workspace({});
    const notes: string[] = [];
    const asked: string[] = [];
    const { ran } = await runAgent(cwd, [shellCall('make deploy'), { text: 'done' }], {
      canUseTool: (request) => {
        asked.push(request.toolName);
        return 'allow';
      },
      hooks: {
        preToolUse: () => ({ decision: 'ask', reason: 'deploys need a person' }),
        notification: ({ message, notificationType }) => void notes.push(`${notificationType}: ${message}`),
      },
    });
    expect(ran).toEqual(['make deploy']);
    expect(asked).toHaveLength(1);
    expect(notes).toEqual([expect.stringMatching(/^permission_prompt: The agent needs your approval: a hook asks for approval: deploys need a person/)]);
  });

  it('a hook ask in a headless run (no one can approve) is a deny that says so', async () => {
    const { ran, scripted } = await runAgent(await workspace({}), [shellCall('make deploy'), { text: 'done' }], { hooks: { preToolUse: () => ({ decision: 'ask' }) } });
    expect(ran).toEqual([]);
    expect(sentText(scripted, 1)).toContain('no one can approve calls in this run');
  });

  it('a callback that never answers is given up at hookTimeoutMs (its signal aborts); the run goes on and says why', async () => {
    let aborted = false;
    const { ran, result, events } = await runAgent(await workspace({}), [shellCall('ls'), { text: 'done' }], {
      hookTimeoutMs: 200,
      hooks: {
        preToolUse: (_input, { signal }) =>
          new Promise(() => {
            signal.addEventListener('abort', () => (aborted = true), { once: true });
          }),
      },
    });
    expect(result).toMatchObject({ status: 'finished', result: 'done' });
    expect(ran).toEqual(['ls']);
    expect(aborted).toBe(true);
    expect(statusTexts(events).join('\n')).toContain('hooks.preToolUse did not answer within 200 ms (hookTimeoutMs)');
  });

  it('a misspelt event and a bad hookTimeoutMs are refused at Agent.create', async () => {
    const cwd = await workspace({});
    const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': scriptedModel([]) })] }] });
    await expect(Agent.create({ model, local: { cwd }, hooks: { preToolUSE: () => undefined } as never })).rejects.toThrow(/hooks.preToolUSE is not a hook event/);
    await expect(Agent.create({ model, local: { cwd }, hookTimeoutMs: -5 })).rejects.toThrow(/hookTimeoutMs must be a positive number/);
  });
});
