// Ports the reference SDK's "Sandbox options" and "Auto-review" sections.
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, createMemoryStore } from '../../src/index.js';
import { makeWorkspace, providerCases } from '../provider-harness.js';
import { collect, fakeServers, providerOptions } from './fake-provider-agent.js';
import { oneCasePerWire, wireOf } from './wire-inspection.js';

const startServer = fakeServers();

describe.each(oneCasePerWire(providerCases))('Sandbox options and auto-review through $name', (provider) => {
  it('sandboxOptions: { enabled: true } confines shell commands: workspace writes work, writes outside fail', async () => {
    const cwd = await makeWorkspace();
    const outside = await mkdtemp(join(tmpdir(), 'cairn-outside-'));
    const command = `echo inside > made.txt; echo escaped > ${join(outside, 'escaped.txt')}; echo done`;
    const server = await startServer(provider, [{ reasoning: 'Run it in the sandbox.', toolCalls: [{ name: 'run_terminal_cmd', args: { command } }] }, { text: 'Ran it.' }]);
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd, store: createMemoryStore(), sandboxOptions: { enabled: true } } });
    const result = await (await agent.send('Run the command')).wait();
    expect(result.status).toBe('finished');
    expect(server.problems).toEqual([]);
    expect(await readFile(join(cwd, 'made.txt'), 'utf8')).toBe('inside\n');
    await expect(stat(join(outside, 'escaped.txt'))).rejects.toThrow();
    // The model read the sandbox's refusal of the outside write.
    expect(JSON.stringify(provider.toolOutputs(server.requests[1]!))).toMatch(/Read-only file system|Permission denied|No such file/);
    await agent.close();
  });

  it('autoReview: true denies a shell call the reviewer blocks, and the model reads why', async () => {
    const cwd = await makeWorkspace();
    const server = await startServer(provider, [
      { reasoning: 'Make the file.', toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'touch made.txt' } }] },
      { text: '{"decision":"block","reason":"Creating files is not part of saying hello."}' },
      { text: 'I will not create it.' },
    ]);
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd, store: createMemoryStore(), autoReview: true } });
    const result = await (await agent.send('Say hello')).wait();
    expect(result.status).toBe('finished');
    expect(server.problems).toEqual([]);
    await expect(stat(join(cwd, 'made.txt'))).rejects.toThrow();
    // The review is a request of its own, without tools, that shows the command and the user's request.
    const review = server.requests[1]!;
    expect(wireOf(provider).tools(review)).toEqual([]);
    expect(JSON.stringify(review)).toContain('touch made.txt');
    expect(JSON.stringify(review)).toContain('Say hello');
    expect(JSON.stringify(provider.toolOutputs(server.requests[2]!))).toContain('the auto-reviewer blocked this call: Creating files is not part of saying hello.');
    await agent.close();
  });

  it('autoReview: true runs a call the reviewer allows; an explicit allow rule skips the review', async () => {
    const cwd = await makeWorkspace();
    const server = await startServer(provider, [
      { reasoning: 'Make the file.', toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'touch made.txt' } }] },
      { text: '```json\n{"decision":"allow","reason":"The user asked for the file."}\n```' },
      { reasoning: 'Now the second one.', toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'touch second.txt' } }] },
      { text: 'Made both.' },
    ]);
    const agent = await Agent.create({ ...providerOptions(provider, server), permissions: { allow: ['shell(touch second.txt)'] }, local: { cwd, store: createMemoryStore(), autoReview: true } });
    expect((await (await agent.send('Create made.txt and second.txt')).wait()).status).toBe('finished');
    expect(server.problems).toEqual([]);
    expect((await stat(join(cwd, 'made.txt'))).isFile()).toBe(true);
    expect((await stat(join(cwd, 'second.txt'))).isFile()).toBe(true);
    // One review (the first call); the allow-listed call went straight to the shell.
    expect(server.requests).toHaveLength(4);
    await agent.close();
  });

  it('autoReview: a reviewer that answers nonsense is the documented fallback: rules as usual, and the run says so', async () => {
    const cwd = await makeWorkspace();
    const server = await startServer(provider, [
      { reasoning: 'Make the file.', toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'touch made.txt' } }] },
      { text: 'Hmm, hard to say.' },
      { text: 'Made it.' },
    ]);
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd, store: createMemoryStore(), autoReview: true } });
    const run = await agent.send('Create made.txt');
    const messages = await collect(run.stream());
    const result = await run.wait();
    expect(result.status).toBe('finished');
    expect((await stat(join(cwd, 'made.txt'))).isFile()).toBe(true);
    // The review was asked for (request 2) and its nonsense answer was not taken as the agent's reply.
    expect(server.requests).toHaveLength(3);
    expect(result.result).toBe('Made it.');
    const notices = messages.filter((message) => message.type === 'status' && message.status === 'RUNNING' && message.message?.includes('local.autoReview'));
    expect(notices).toEqual([expect.objectContaining({ message: expect.stringContaining('a review was unavailable') })]);
    await agent.close();
  });
});
