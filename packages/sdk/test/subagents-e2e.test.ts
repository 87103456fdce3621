// Subagents through the SDK's own Agent over a real provider wire (the OpenAI-compatible fake
// server of @cairn/core/testing): children run real shell commands in the bubblewrap sandbox, and
// project hooks (real shell scripts) see the children's tool calls.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatCompletionsServer, type ChatCompletionsTurn, startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentOptions, createMemoryStore } from '../src/index.js';
import { expectNoServerLeft, isolatedEnv, servers, tempFolder } from './mcp-helpers.js';
import { processesWith, sleeps, waitFor } from './process-helpers.js';

type Body = Record<string, any>;

/** The text of the first user message of a request: a subagent's is its task prompt. */
const firstUser = (body: Body) => JSON.stringify(body.messages.find((message: { role: string }) => message.role === 'user')?.content ?? '');
const toolMessages = (body: Body): string[] => body.messages.filter((message: { role: string }) => message.role === 'tool').map((message: { content: unknown }) => JSON.stringify(message.content));
const shell = (command: string): ChatCompletionsTurn => ({ toolCalls: [{ name: 'run_terminal_cmd', args: { command } }] });
const tasks = (prompts: string[]): ChatCompletionsTurn => ({ toolCalls: prompts.map((prompt, index) => ({ name: 'task', args: { description: `part ${index + 1}`, prompt, subagent_type: 'generalPurpose' } })) });

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function agentOver(route: (body: Body) => ChatCompletionsTurn, local: Record<string, unknown> = {}, mode?: string, extra: Partial<AgentOptions> = {}) {
  server = await startChatCompletionsServer(route);
  const cwd = await tempFolder('cairn-subagents-e2e-');
  const env = isolatedEnv(await tempFolder('cairn-subagents-home-'), { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' });
  const store = createMemoryStore();
  const agent = await Agent.create({ model: 'openai/gpt-4.1-mini', ...(mode ? { mode } : {}), ...extra, env, retry: { maxAttempts: 1 }, local: { cwd, store, sandboxOptions: { enabled: true }, ...local } });
  return { agent, cwd, store, server };
}

describe('subagents over a provider wire, with real sandboxed commands', () => {
  it('6 subagents that each sleep 1 s in the sandbox: 4 at once, the other 2 after a slot frees; usage of every request summed', async () => {
    const { agent, cwd, store, server } = await agentOver((body) => {
      const part = /PART-(\d)/.exec(firstUser(body))?.[1];
      if (part) return toolMessages(body).length ? { text: `part ${part} slept` } : shell(`date +%s%N > times/start-${part}; sleep 1; date +%s%N > times/end-${part}`);
      return toolMessages(body).length ? { text: 'six parts done' } : tasks([1, 2, 3, 4, 5, 6].map((n) => `Do PART-${n}`));
    });
    await mkdir(join(cwd, 'times'));
    const run = await agent.send('Split the work into six parts.');
    const result = await run.wait();
    expect(result).toMatchObject({ status: 'finished', result: 'six parts done' });

    const time = async (name: string) => Number(BigInt((await readFile(join(cwd, 'times', name), 'utf8')).trim()) / 1_000_000n);
    const spans = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => ({ n, start: await time(`start-${n}`), end: await time(`end-${n}`) })));
    const overlapAt = (moment: number) => spans.filter((span) => span.start <= moment && moment < span.end).length;
    expect(Math.max(...spans.map((span) => overlapAt(span.start)))).toBe(4);
    // Queued in order: the last two start only after one of the first four ended.
    const firstEnd = Math.min(...spans.slice(0, 4).map((span) => span.end));
    for (const span of spans.slice(4)) expect(span.start).toBeGreaterThanOrEqual(firstEnd);

    // The fake server reports 100+i input and 20 output tokens for request i; the parent run sums them all.
    expect(server.requests).toHaveLength(14);
    expect(result.usage).toMatchObject({ inputTokens: server.requests.reduce((sum, _body, index) => sum + 100 + index, 0), outputTokens: 14 * 20 });
    expect(server.problems).toEqual([]);
    const children = (await store.agents.list({ limit: 20 })).items.filter((record) => record.parentRunId === run.id);
    expect(children).toHaveLength(6);
    await agent.close();
  });

  it('cancelling the parent ends every subagent and kills every process they started', async () => {
    // A marker unique to this test run: leftovers of an interrupted earlier run cannot match it.
    const marker = `sleep 1000.${process.pid}${Math.floor(Math.random() * 1000)}`;
    const { agent, store } = await agentOver((body) => (/BLOCK-\d/.test(firstUser(body)) ? shell(marker) : tasks(['BLOCK-1', 'BLOCK-2', 'BLOCK-3'])));
    const run = await agent.send('Start three long jobs.');
    const started = await waitFor(() => processesWith(marker), (found) => sleeps(found).length >= 3, 15_000);
    expect(sleeps(started), started.join('\n')).toHaveLength(3);
    await run.cancel();
    expect((await run.wait()).status).toBe('cancelled');
    expect(await waitFor(() => processesWith(marker), (found) => found.length === 0, 8_000)).toEqual([]);
    const children = (await store.agents.list()).items.filter((record) => record.parentRunId === run.id);
    expect(children).toHaveLength(3);
    for (const child of children) {
      const [childRun] = (await Agent.listRuns(child.agentId, { store })).items;
      expect((await childRun!.wait()).status).toBe('cancelled');
    }
    await agent.close();
  });
});

describe("the parent's MCP servers", () => {
  it("reach its subagents: the child calls the parent's server through the parent's session", async () => {
    const { agent, server } = await agentOver((body) => {
      if (firstUser(body).includes('ECHOER')) return toolMessages(body).length ? { text: 'echoed' } : { toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'from the child' } }] };
      return toolMessages(body).length ? { text: 'the child echoed' } : tasks(['ECHOER: echo something']);
    }, {}, undefined, { mcpServers: { everything: servers.everything() } });
    expect(await (await agent.send('Delegate an echo.')).wait()).toMatchObject({ status: 'finished', result: 'the child echoed' });
    const childRequests = server.requests.filter((body) => firstUser(body).includes('ECHOER'));
    expect(childRequests[0]!.tools.map((tool: { function: { name: string } }) => tool.function.name)).toContain('mcp__everything__echo');
    expect(toolMessages(childRequests[1]!).join('')).toContain('Echo: from the child');
    await agent.close();
    await expectNoServerLeft();
  });
});

describe('a plan-mode parent', () => {
  it("gets read-only subagents: the child's writes, shell command and mode switch are refused and never happen", async () => {
    const attempts: ChatCompletionsTurn = {
      toolCalls: [
        { name: 'write', args: { path: 'written.txt', contents: 'should not exist' } },
        { name: 'run_terminal_cmd', args: { command: 'touch touched.txt' } },
        { name: 'switch_mode', args: { target_mode_id: 'agent', explanation: 'I need to write' } },
      ],
    };
    const { agent, cwd, store, server } = await agentOver((body) => {
      if (firstUser(body).includes('WRITER')) return toolMessages(body).length ? { text: 'nothing written' } : attempts;
      return toolMessages(body).length ? { text: 'planned' } : tasks(['WRITER: create written.txt and touched.txt']);
    }, {}, 'plan');
    expect(await (await agent.send('Plan the change.')).wait()).toMatchObject({ status: 'finished', result: 'planned' });
    await expect(readFile(join(cwd, 'written.txt'))).rejects.toThrow();
    await expect(readFile(join(cwd, 'touched.txt'))).rejects.toThrow();
    const childFirst = server.requests.find((body) => firstUser(body).includes('WRITER'))!;
    const offered = childFirst.tools.map((tool: { function: { name: string } }) => tool.function.name);
    // Ask mode offers the shell for read-only commands only.
    expect(offered).not.toContain('write');
    const results = toolMessages(server.requests.find((body) => firstUser(body).includes('WRITER') && toolMessages(body).length > 0)!);
    expect(results).toEqual([expect.stringContaining('Unknown tool \\"write\\"'), expect.stringContaining('Permission denied for run_terminal_cmd'), expect.stringContaining('Unknown tool \\"switch_mode\\"')]);
    const child = (await store.agents.list()).items.find((record) => record.parentAgentId === agent.agentId)!;
    expect(child.mode).toBe('ask');
    await agent.close();
  });
});

/** A parent that delegates cleaning to a subagent, which tries `rm -rf build` once. */
const cleanerRoute = (body: Body): ChatCompletionsTurn => {
  if (firstUser(body).includes('CLEANER')) return toolMessages(body).length ? { text: 'could not clean' } : shell('rm -rf build');
  return toolMessages(body).length ? { text: 'delegated' } : tasks(['CLEANER: remove the build folder']);
};

async function withBuildFolder(cwd: string): Promise<() => Promise<string>> {
  await mkdir(join(cwd, 'build'));
  await writeFile(join(cwd, 'build', 'keep.txt'), 'still here\n');
  return () => readFile(join(cwd, 'build', 'keep.txt'), 'utf8');
}

/** What the subagent's model was told after its `rm -rf` call. */
const cleanerSawAfterCall = (server: ChatCompletionsServer) => toolMessages(server.requests.find((body) => firstUser(body).includes('CLEANER') && toolMessages(body).length > 0)!).join('');

describe("hooks on a subagent's tool calls", () => {
  it("a Claude Code PreToolUse hook blocks the subagent's `rm -rf` (exit 2); SubagentStart/SubagentStop fire with the subagent's type", async () => {
    const { agent, cwd, server } = await agentOver(cleanerRoute, { settingSources: ['project'] });
    const kept = await withBuildFolder(cwd);
    const hook = join(cwd, 'block-rm-rf.sh');
    // Written the way a Claude Code user writes one: payload on stdin, exit 2 with the reason on stderr.
    await writeFile(hook, `#!/bin/sh\npayload=$(cat)\nprintf '%s\\n' "$payload" >> "$CLAUDE_PROJECT_DIR/payloads.jsonl"\ncase "$payload" in *'rm -rf'*) echo "rm -rf is not allowed here" >&2; exit 2 ;; esac\nexit 0\n`);
    await chmod(hook, 0o755);
    const record = `cat >> "$CLAUDE_PROJECT_DIR/subagent-events.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/subagent-events.jsonl"`;
    const hooks = {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }],
      SubagentStart: [{ hooks: [{ type: 'command', command: record }] }],
      SubagentStop: [{ hooks: [{ type: 'command', command: record }] }],
    };
    await mkdir(join(cwd, '.claude'));
    await writeFile(join(cwd, '.claude', 'settings.json'), JSON.stringify({ hooks }));

    expect(await (await agent.send('Clean up the build.')).wait()).toMatchObject({ status: 'finished', result: 'delegated' });
    expect(await kept()).toBe('still here\n');
    expect(cleanerSawAfterCall(server)).toContain('rm -rf is not allowed here');
    const [payload] = (await readFile(join(cwd, 'payloads.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(payload).toMatchObject({ hook_event_name: 'PreToolUse', session_id: agent.agentId, tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, agent_type: 'generalPurpose' });
    const events = (await readFile(join(cwd, 'subagent-events.jsonl'), 'utf8')).trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(events.map((event) => [event.hook_event_name, event.agent_type])).toEqual([['SubagentStart', 'generalPurpose'], ['SubagentStop', 'generalPurpose']]);
    await agent.close();
  });

  it("a Cursor beforeShellExecution hook denies the subagent's command with its agent_message", async () => {
    const { agent, cwd, server } = await agentOver(cleanerRoute, { settingSources: ['project'] });
    const kept = await withBuildFolder(cwd);
    const hook = join(cwd, 'deny-rm-rf.sh');
    await writeFile(hook, `#!/bin/sh\npayload=$(cat)\nprintf '%s\\n' "$payload" >> "$CURSOR_PROJECT_DIR/payloads.jsonl"\ncase "$payload" in *'rm -rf'*) echo '{"permission":"deny","agent_message":"Recursive deletes are forbidden; remove single files."}' ;; *) echo '{"permission":"allow"}' ;; esac\n`);
    await chmod(hook, 0o755);
    await mkdir(join(cwd, '.cursor'));
    await writeFile(join(cwd, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: hook }] } }));

    expect(await (await agent.send('Clean up the build.')).wait()).toMatchObject({ status: 'finished', result: 'delegated' });
    expect(await kept()).toBe('still here\n');
    expect(cleanerSawAfterCall(server)).toContain('Recursive deletes are forbidden');
    const [payload] = (await readFile(join(cwd, 'payloads.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(payload).toMatchObject({ hook_event_name: 'beforeShellExecution', command: 'rm -rf build', conversation_id: agent.agentId });
    await agent.close();
  });

  it("a typed preToolUse callback sees the subagent's call, tagged with the subagent, and refuses it", async () => {
    server = await startChatCompletionsServer(cleanerRoute);
    const cwd = await tempFolder('cairn-subagents-e2e-');
    const kept = await withBuildFolder(cwd);
    const seen: Array<{ tool: string; subagent?: { id: string; type: string } }> = [];
    const env = isolatedEnv(await tempFolder('cairn-subagents-home-'), { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' });
    const agent = await Agent.create({
      model: 'openai/gpt-4.1-mini', env, retry: { maxAttempts: 1 },
      hooks: {
        preToolUse: ({ toolName, input, subagent }) => {
          seen.push({ tool: toolName, ...(subagent ? { subagent } : {}) });
          return String((input as { command?: string }).command).includes('rm -rf') ? { decision: 'deny', reason: 'typed hook: no recursive deletes' } : undefined;
        },
      },
      local: { cwd, store: createMemoryStore(), sandboxOptions: { enabled: true } },
    });
    expect(await (await agent.send('Clean up the build.')).wait()).toMatchObject({ status: 'finished', result: 'delegated' });
    expect(await kept()).toBe('still here\n');
    expect(cleanerSawAfterCall(server)).toContain('typed hook: no recursive deletes');
    // The parent's own task call, then the subagent's shell call with the subagent's identity.
    expect(seen).toEqual([{ tool: 'task' }, { tool: 'run_terminal_cmd', subagent: { id: expect.stringMatching(/^agent/), type: 'generalPurpose' } }]);
    await agent.close();
  });
});
