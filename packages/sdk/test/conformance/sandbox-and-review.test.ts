// Ports the reference SDK's "Sandbox options" and "Auto-review" sections.
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, createMemoryStore } from '../../src/index.js';
import { makeWorkspace, providerCases } from '../provider-harness.js';
import { collect, fakeServers, providerOptions } from './fake-provider-agent.js';
import { oneCasePerWire } from './wire-inspection.js';

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

  it('autoReview: true takes the documented fallback, and the run says so', async () => {
    const server = await startServer(provider, [{ text: 'Reviewed.' }]);
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd: await makeWorkspace(), store: createMemoryStore(), autoReview: true } });
    const run = await agent.send('Hello');
    const messages = await collect(run.stream());
    expect((await run.wait()).status).toBe('finished');
    const notice = messages.find((message) => message.type === 'status' && message.status === 'RUNNING' && message.message?.includes('autoReview'));
    expect(notice).toBeDefined();
    await agent.close();
  });
});
