import type { FakeFailures, FakeModelTurn, FakeProviderServer } from '@cairn/core/testing';
import { afterEach } from 'vitest';
import type { AgentOptions, SDKMessage } from '../../src/index.js';
import type { ProviderCase } from '../provider-harness.js';

/**
 * A starter of fake provider servers for one test file: each server it starts is closed after the
 * test that started it.
 */
export function fakeServers(): (provider: ProviderCase, turns: FakeModelTurn[], failures?: FakeFailures) => Promise<FakeProviderServer> {
  const servers: FakeProviderServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (provider, turns, failures) => {
    const server = await provider.start(turns, failures);
    servers.push(server);
    return server;
  };
}

/**
 * The options that point an agent at a provider case's fake server: the model, the key and base
 * URL, and one attempt per model call (a fake server that answers wrongly should fail the test, not
 * be retried).
 */
export function providerOptions(provider: ProviderCase, server: FakeProviderServer): Pick<AgentOptions, 'model' | 'env' | 'providers' | 'retry'> {
  return {
    model: provider.model,
    env: provider.env(server.url),
    ...(provider.providers ? { providers: provider.providers(server.url) } : {}),
    retry: { maxAttempts: 1 },
  };
}

/** The model parameter that sets reasoning effort on the case's model (every case's model takes "low" and "high"). */
export function effortParameterOf(provider: ProviderCase): string {
  return provider.name.startsWith('OpenAI') ? 'reasoningEffort' : 'reasoning_effort';
}

/** Whether the case's fake server streams reasoning (the Chat Completions wire has none). */
export function streamsReasoning(provider: ProviderCase): boolean {
  return provider.name !== 'OpenAI Chat Completions';
}

/** Every message of a stream, in order. */
export async function collect(stream: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const message of stream) messages.push(message);
  return messages;
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
