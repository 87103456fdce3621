// Ports the reference SDK's "Quick start", "Creating agents", "Agent.prompt()" and "Streaming" sections.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, ConfigurationError, createMemoryStore } from '../../src/index.js';
import { makeWorkspace, providerCases } from '../provider-harness.js';
import { collect, fakeServers, providerOptions, streamsReasoning } from './fake-provider-agent.js';
import { oneCasePerWire } from './wire-inspection.js';

const startServer = fakeServers();

/** The harness workspace plus the file the streaming example asks about. */
async function repository(): Promise<string> {
  const cwd = await makeWorkspace();
  await mkdir(join(cwd, 'src'));
  await writeFile(join(cwd, 'src', 'auth.ts'), 'export const isAdmin = (user: { role: string }) => user.role = "admin";\n');
  return cwd;
}

describe.each(oneCasePerWire(providerCases))('Quick start and Streaming through $name', (provider) => {
  it('Quick start: create a local agent, send, and stream SDK messages that all carry agent_id and run_id', async () => {
    const server = await startServer(provider, [{ text: 'It keeps notes and a todo list.' }]);
    const cwd = await repository();
    // The key is passed as apiKey, as in the original, and nowhere else; the servers that check keys (all but Chat)
    // report a request without it as a problem.
    const options = providerOptions(provider, server);
    const given = options.env ?? {};
    const [keyName, apiKey] = Object.entries(given).find(([name]) => name.endsWith('_API_KEY')) ?? ['', ''];
    const { [keyName]: _key, ...env } = given;
    const agent = await Agent.create({
      ...options,
      env,
      apiKey: apiKey!,
      local: { cwd, store: createMemoryStore() },
    });
    const run = await agent.send('Summarize what this repository does');
    const events = await collect(run.stream());

    expect(events[0]).toMatchObject({ type: 'system', subtype: 'init', agent_id: agent.agentId, run_id: run.id });
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['system', 'status', 'user', 'assistant', 'usage']));
    for (const event of events) expect(event).toMatchObject({ agent_id: agent.agentId, run_id: run.id });
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'FINISHED' });
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'It keeps notes and a todo list.' });
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('Streaming: the documented switch over assistant, thinking, tool_call and status, then a follow-up that sees the first run', async () => {
    const server = await startServer(provider, [
      { reasoning: 'Read the auth module first.', text: 'Let me read it.', toolCalls: [{ name: 'read_file', args: { path: 'src/auth.ts' } }] },
      { text: 'The bug: isAdmin assigns role instead of comparing it.' },
      { text: 'Fixed it and added a regression test.' },
    ]);
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd: await repository(), store: createMemoryStore() } });

    // The example writes to stdout and the console; here each write is kept in order.
    const output: string[] = [];
    const run = await agent.send('Find the bug in src/auth.ts');
    for await (const event of run.stream()) {
      switch (event.type) {
        case 'assistant':
          for (const block of event.message.content) {
            if (block.type === 'text') output.push(block.text);
          }
          break;
        case 'thinking':
          output.push(event.text);
          break;
        case 'tool_call':
          output.push(`[tool] ${event.name}: ${event.status}`);
          break;
        case 'status':
          output.push(`[status] ${event.status}`);
          break;
      }
    }
    expect(output).toEqual([
      '[status] RUNNING',
      ...(streamsReasoning(provider) ? ['Read the auth module first.'] : []),
      'Let me read it.',
      '[tool] read_file: running',
      '[tool] read_file: completed',
      'The bug: isAdmin assigns role instead of comparing it.',
      '[status] FINISHED',
    ]);

    // Follow-up on the same agent: the conversation of the previous run is loaded.
    const run2 = await agent.send('Fix it and add a regression test');
    expect(await run2.wait()).toMatchObject({ status: 'finished', result: 'Fixed it and added a regression test.' });
    const followUp = JSON.stringify(server.requests[2]);
    expect(followUp).toContain('Find the bug in src/auth.ts');
    expect(followUp).toContain('isAdmin assigns role instead of comparing it');
    expect(followUp).toContain('Fix it and add a regression test');
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('Agent.prompt(): creates an agent, runs one prompt to its RunResult, and disposes of the agent', async () => {
    const server = await startServer(provider, [{ text: 'It checks the session cookie.' }]);
    const store = createMemoryStore();
    const result = await Agent.prompt('What does the auth middleware do?', {
      ...providerOptions(provider, server),
      local: { cwd: await repository(), store },
    });
    expect(result).toMatchObject({ status: 'finished', result: 'It checks the session cookie.' });
    expect(result.id).toMatch(/^run-/);
    // Disposed: the run ended and the agent's lease is released, so nothing holds the agent.
    const [agent] = (await store.agents.list()).items;
    expect(agent?.lease ?? null).toBeNull();
    expect(await store.runs.get(result.id)).toMatchObject({ status: 'finished', agentId: agent?.agentId });
    expect(server.problems).toEqual([]);
  });
});

describe('Creating agents', () => {
  const chat = providerCases.find((provider) => provider.name === 'OpenAI Chat Completions')!;

  it('agent.agentId is an agent-<uuid> populated by Agent.create, before any send', async () => {
    const server = await startServer(chat, [{ text: 'ok' }]);
    const store = createMemoryStore();
    const agent = await Agent.create({ ...providerOptions(chat, server), local: { cwd: await repository(), store } });
    expect(agent.agentId).toMatch(/^agent-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await store.agents.get(agent.agentId)).toMatchObject({ agentId: agent.agentId });
    expect(server.requests).toHaveLength(0);
    const other = await Agent.create({ ...providerOptions(chat, server), local: { cwd: await repository(), store } });
    expect(other.agentId).not.toBe(agent.agentId);
    await Promise.all([agent.close(), other.close()]);
  });

  it('a caller-supplied agentId is used as is; one that exists already is a ConfigurationError', async () => {
    const server = await startServer(chat, [{ text: 'ok' }]);
    const store = createMemoryStore();
    const cwd = await repository();
    const agent = await Agent.create({ ...providerOptions(chat, server), agentId: 'ticket-1234', local: { cwd, store } });
    expect(agent.agentId).toBe('ticket-1234');
    expect((await (await agent.send('hello')).wait()).status).toBe('finished');
    expect((await store.runs.list('ticket-1234')).items).toHaveLength(1);

    const duplicate = Agent.create({ ...providerOptions(chat, server), agentId: 'ticket-1234', local: { cwd, store } });
    await expect(duplicate).rejects.toThrow(ConfigurationError);
    await expect(duplicate).rejects.toThrow(/already exists.*Agent\.resume\("ticket-1234"\)/);
    await expect(Agent.create({ ...providerOptions(chat, server), agentId: 'bad id!', local: { cwd, store } })).rejects.toThrow(ConfigurationError);
    await agent.close();
  });
});
