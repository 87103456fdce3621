// An agent that reads files through the official MCP filesystem server, started over stdio from the
// agent's inline `mcpServers`. It works against any OpenAI-compatible Chat Completions server:
//   OPENAI_BASE_URL=http://localhost:8000/v1 [OPENAI_API_KEY=...] node apps/examples/dist/mcp-filesystem.js --model openai/my-model [workspace]
// Without OPENAI_BASE_URL (or --base-url) it starts a local fake server that scripts the tool call, so it
// runs with no key. The server is started with `npx -y @modelcontextprotocol/server-filesystem`
// unless --server-bin points at an installed copy's dist/index.js.
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpStdioServerConfig } from '@cairn/core/spec';
import { type ChatCompletionsTurn, startChatCompletionsServer } from '@cairn/core/testing';
import { Agent, type RunResult } from '@cairn/sdk';

/** The filesystem server's version this example was written against. */
export const filesystemServerPackage = '@modelcontextprotocol/server-filesystem@2026.8.31';

/**
 * The server's config, as a user would write it in `mcpServers` or `.cursor/mcp.json`: the folder it
 * may read is its argument. `bin` runs an installed copy with this Node instead of downloading it.
 */
export function filesystemServer(root: string, bin?: string): McpStdioServerConfig {
  return bin ? { command: process.execPath, args: [bin, root] } : { command: 'npx', args: ['-y', filesystemServerPackage, root] };
}

export interface McpFilesystemExampleOptions {
  /** The folder the agent works in and the server may read. */
  cwd: string;
  /** An OpenAI-compatible base URL (`.../v1`); absent: a local fake server plays the model. */
  baseURL?: string;
  apiKey?: string;
  /** Default `openai/local-model`. */
  model?: string;
  server?: McpStdioServerConfig;
  log?: (line: string) => void;
}

/** Ask the agent what the notes say; it answers after reading them with the MCP server's tool. */
export async function runMcpFilesystemExample(options: McpFilesystemExampleOptions): Promise<{ result: RunResult; toolCalls: string[]; problems: string[] }> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const root = await realpath(options.cwd);
  const fake = options.baseURL ? undefined : await startChatCompletionsServer(scriptedModelTurns(root));
  const baseURL = options.baseURL ?? fake!.url;
  const agent = await Agent.create({
    model: options.model ?? 'openai/local-model',
    local: { cwd: root, store: 'memory' },
    providers: { openai: { baseURL, ...(options.apiKey ? { apiKey: options.apiKey } : {}) } },
    mcpServers: { filesystem: options.server ?? filesystemServer(root) },
    // Only the MCP tools (the `mcp` group), so a real model reads through the server too.
    tools: ['mcp'],
  });
  const toolCalls: string[] = [];
  try {
    const run = await agent.send('What do the notes in NOTES.md say? Read them with the filesystem tools.', {
      onDelta: ({ update }) => {
        if (update.type === 'warning') log(`! ${update.message}`);
      },
    });
    for await (const message of run.stream()) {
      if (message.type === 'assistant') for (const block of message.message.content) if (block.type === 'text') log(block.text);
      if (message.type === 'tool_call' && message.status !== 'running') {
        toolCalls.push(message.name);
        log(`  [${message.name}] ${String(message.result ?? '').split('\n')[0]}`);
      }
    }
    // `problems`: what the fake server found wrong in the requests (a real API would have refused them).
    return { result: await run.wait(), toolCalls, problems: fake?.problems ?? [] };
  } finally {
    await agent.close();
    await fake?.close();
  }
}

/**
 * The fake model: first it calls the server's `read_text_file` tool (found by its MCP name among the
 * tools the agent offers), then it answers with the first line of what the tool returned.
 */
function scriptedModelTurns(root: string) {
  return (body: Record<string, any>, index: number): ChatCompletionsTurn => {
    if (index === 0) {
      const tools = (body.tools ?? []) as Array<{ function: { name: string } }>;
      const read = tools.map((tool) => tool.function.name).find((name) => name.endsWith('read_text_file'));
      if (!read) return { text: `No MCP read_text_file tool was offered (tools: ${tools.map((tool) => tool.function.name).join(', ')}).` };
      return { text: 'Reading the notes.', toolCalls: [{ name: read, args: { path: join(root, 'NOTES.md') } }] };
    }
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    const result = String(messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '');
    const firstLine = result.split('\n').find((line) => line.trim() && !line.startsWith('#')) ?? result;
    return { text: `The notes say: ${firstLine.trim()}` };
  };
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '');
if (isMain) {
  const args = process.argv.slice(2);
  const take = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const baseURL = take('--base-url') ?? process.env.OPENAI_BASE_URL;
  const model = take('--model');
  const bin = take('--server-bin');
  let cwd = args[0];
  if (!cwd) {
    cwd = await mkdtemp(join(tmpdir(), 'cairn-example-'));
    await writeFile(join(cwd, 'NOTES.md'), '# Notes\nShip the MCP example on Friday.\n');
  }
  const { result } = await runMcpFilesystemExample({
    cwd: await realpath(cwd),
    ...(baseURL ? { baseURL } : {}),
    ...(process.env.OPENAI_API_KEY ? { apiKey: process.env.OPENAI_API_KEY } : {}),
    ...(model ? { model } : {}),
    server: filesystemServer(await realpath(cwd), bin),
  });
  process.exitCode = result.status === 'finished' ? 0 : 1;
}
