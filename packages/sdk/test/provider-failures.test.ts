import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeFailure, FakeModelTurn, FakeProviderServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentOptions, createMemoryStore, type CustomTool, type SDKMessage } from '../src/index.js';
import { makeWorkspace, type ProviderCase, providerCases } from './provider-harness.js';

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const injectable = providerCases;

async function runOnce(provider: ProviderCase, turns: FakeModelTurn[], failures: Array<FakeFailure | undefined>, extra: Partial<AgentOptions> = {}) {
  const cwd = await makeWorkspace();
  const server = await provider.start(turns, failures);
  servers.push(server);
  const agent = await Agent.create({
    model: provider.model,
    local: { cwd, store: createMemoryStore(), ...(extra.local ?? {}) },
    env: provider.env(server.url),
    retry: { maxAttempts: 4, initialDelayMs: 1, maxDelayMs: 5 },
    ...Object.fromEntries(Object.entries(extra).filter(([key]) => key !== 'local')),
  });
  const run = await agent.send('Go.');
  const messages: SDKMessage[] = [];
  for await (const message of run.stream()) messages.push(message);
  return { cwd, server, messages, result: await run.wait() };
}

/** A tool with a side effect, to prove a cut-off call never ran. */
function launchTool(cwd: string, launches: string[]): CustomTool {
  return {
    description: 'Launch the rocket with a code.',
    inputSchema: { jsonSchema: { type: 'object', properties: { code: { type: 'string' }, note: { type: 'string' } }, required: ['code'] } },
    async execute(input: { code: string }) {
      launches.push(input.code);
      await writeFile(join(cwd, 'launched.txt'), input.code);
      return 'launched';
    },
  };
}

describe('an injected 429 with retry-after: 1 is waited for and retried', () => {
  it('Anthropic: retry-after is honoured, then the run finishes', async () => {
    const anthropic = injectable.find((provider) => provider.name.startsWith('Anthropic'))!;
    const { server, result, messages } = await runOnce(anthropic, [{ text: 'Done after waiting.' }], [{ status: 429, headers: { 'retry-after': '1' } }]);
    expect(result.status).toBe('finished');
    expect(result.result).toBe('Done after waiting.');
    expect(server.requests).toHaveLength(2);
    expect(messages.some((message) => message.type === 'status' && message.phase === 'retrying')).toBe(true);
    expect(server.problems).toEqual([]);
  });
});

describe.each(injectable)('$name failures', (provider) => {
  it('retries 429, 529 and 503 and finishes the run', async () => {
    const failures: FakeFailure[] = [{ status: 429, headers: { 'retry-after-ms': '2' } }, { status: 529 }, { status: 503 }];
    // Gemini has no 529; its overload answer is 503 UNAVAILABLE.
    if (provider.name.startsWith('Gemini')) failures[1] = { status: 500 };
    const { server, result, messages } = await runOnce(provider, [{ text: 'Done after three failures.' }], failures);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('finished');
    expect(result.result).toBe('Done after three failures.');
    expect(server.requests).toHaveLength(4);
    expect(messages.filter((message) => message.type === 'status' && message.phase === 'retrying')).toHaveLength(3);
    expect(server.problems).toEqual([]);
  });

  it.each([400, 401])('fails at once on %i with the provider message, without retrying', async (status) => {
    const message = status === 400 ? 'messages.0: Input does not match the expected shape.' : 'invalid x-api-key provided';
    const body = provider.name.startsWith('Gemini') ? { error: { code: status, message, status: status === 400 ? 'INVALID_ARGUMENT' : 'UNAUTHENTICATED' } } : provider.name.startsWith('Anthropic') ? { type: 'error', error: { type: status === 400 ? 'invalid_request_error' : 'authentication_error', message } } : { error: { message, type: 'invalid_request_error', param: null, code: status === 401 ? 'invalid_api_key' : null } };
    const { server, result } = await runOnce(provider, [{ text: 'never sent' }], [{ status, body }]);
    expect(result.status).toBe('error');
    expect(result.error?.message).toContain(message);
    expect(server.requests).toHaveLength(1);
  });

  it('a stream cut inside a tool call never runs the tool and keeps the partial text', async () => {
    const launches: string[] = [];
    const cwd = await makeWorkspace();
    const turns: FakeModelTurn[] = [{ text: 'Launching now, stand by.', toolCalls: [{ name: 'launch', args: { code: '4217', note: 'cut-here then more text' } }] }];
    // Cut inside the first piece of the arguments: escaped inside a JSON string on the SSE wires
    // that stream arguments, inside the whole `args` object on Gemini's.
    const cutAfterText = provider.name.startsWith('Gemini') ? '"code"' : String.raw`\"code\"`;
    const { server, result, messages } = await runOnce(provider, turns, [{ cutAfterText }], { local: { cwd, customTools: { launch: launchTool(cwd, launches) } } });
    expect(server.requests).toHaveLength(1);
    expect(result.status).toBe('error');
    expect(launches).toEqual([]);
    expect(existsSync(join(cwd, 'launched.txt'))).toBe(false);
    const assistant = messages.filter((message): message is Extract<SDKMessage, { type: 'assistant' }> => message.type === 'assistant');
    const text = assistant.flatMap((message) => message.message.content).filter((block) => block.type === 'text').map((block) => block.text).join('');
    expect(text).toBe('Launching now, stand by.');
    expect(assistant.some((message) => message.incomplete === true)).toBe(true);
    expect(messages.some((message) => message.type === 'tool_call' && message.name === 'launch')).toBe(false);
  });

  it('a stream cut before the final event after a whole tool call still does not run it', async () => {
    const launches: string[] = [];
    const cwd = await makeWorkspace();
    const turns: FakeModelTurn[] = [{ text: 'Launching.', toolCalls: [{ name: 'launch', args: { code: '4217' } }] }];
    // Cut right before the terminal event of each wire: the call's arguments are complete, the turn is not.
    const markers: Record<string, string> = {
      'Anthropic Messages': 'event: message_delta',
      Gemini: '"finishReason"',
      'Gemini 3': '"finishReason"',
      'OpenAI Responses': 'event: response.completed',
      'OpenAI Chat Completions': '"finish_reason":"tool_calls"',
    };
    const marker = markers[provider.name]!;
    const { result } = await runOnce(provider, turns, [{ cutAfterText: marker }], { local: { cwd, customTools: { launch: launchTool(cwd, launches) } } });
    expect(result.status).toBe('error');
    expect(launches).toEqual([]);
  });
});
