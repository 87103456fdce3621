// An MCP server's tool through a real provider wire: the OpenAI-compatible fake server of
// @cairn/core/testing sees the tool with the server's JSON Schema and gets the server's answer back.
import { startChatCompletionsServer } from '@cairn/core/testing';
import { createMcpConnection } from '../../tools/mcp/src/connection/connection.js';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/index.js';
import { expectNoServerLeft, isolatedEnv, mcpCairn, servers, tempFolder } from './mcp-helpers.js';

/** The input schema server-everything declares for `echo`, read from the server itself. */
async function echoSchemaOfServer(cwd: string): Promise<unknown> {
  const connection = createMcpConnection({ name: 'everything', config: servers.everything(), origin: 'create', cwd, env: process.env });
  try {
    await connection.start();
    const echo = connection.tools().find((tool) => tool.name === 'mcp__everything__echo');
    return (echo?.inputSchema as { jsonSchema: unknown } | undefined)?.jsonSchema;
  } finally {
    await connection.close();
  }
}

describe('an MCP tool over an OpenAI-compatible wire', () => {
  it('is sent with its schema unchanged, and its result comes back as the tool message', async () => {
    const server = await startChatCompletionsServer([{ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'over the wire' } }] }, { text: 'The server echoed.' }]);
    try {
      const cwd = await tempFolder('cairn-mcp-wire-');
      const env = isolatedEnv(await tempFolder('cairn-mcp-home-'), { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' });
      const { Agent } = mcpCairn([]);
      await using agent = await Agent.create({ model: 'openai/gpt-4.1-mini', mcpServers: { everything: servers.everything() }, env, retry: { maxAttempts: 1 }, local: { cwd, store: createMemoryStore() } });
      expect(await (await agent.send('Echo something.')).wait()).toMatchObject({ status: 'finished', result: 'The server echoed.' });
      const sent = server.requests[0]!.tools.find((tool: { function: { name: string } }) => tool.function.name === 'mcp__everything__echo');
      expect(sent.function.parameters).toEqual(await echoSchemaOfServer(cwd));
      const toolMessage = server.requests[1]!.messages.find((message: { role: string }) => message.role === 'tool');
      expect(JSON.stringify(toolMessage.content)).toContain('Echo: over the wire');
      expect(server.problems).toEqual([]);
    } finally {
      await server.close();
    }
    await expectNoServerLeft();
  });
});
