// A custom agent assembled from Cairn packages: the file tools, the modes, one tool of its own,
// and a model. Without --model it runs against a scripted model, so it works with no API key:
//   node apps/examples/dist/custom-agent.js [--model openai/gpt-5.2] [workspace]
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, defineTool } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { modesPlugin } from '@cairn/modes';
import { ollama, openai } from '@cairn/provider-openai';
import { fsToolsPlugin } from '@cairn/tools-fs';
import { z } from 'zod';

/** The agent's own tool: count the words of a text file in the workspace. */
export const wordCountTool = defineTool({
  id: 'wordCount',
  name: 'word_count',
  description: 'Count the words of a text file in the workspace. Use it when the user asks how long a document is.',
  inputSchema: z.object({ path: z.string().describe('File path relative to the workspace') }),
  readOnly: true,
  category: 'custom',
  readOnlyHint: true,
  async execute({ path }, context) {
    const { readFile } = await import('node:fs/promises');
    const { resolveWorkspacePath } = await import('@cairn/core/node');
    const target = await resolveWorkspacePath(context.cwd, path);
    const words = (await readFile(target.absolute, 'utf8')).split(/\s+/).filter(Boolean).length;
    return { content: [{ type: 'text', text: `${target.relative} has ${words} words.` }], structuredContent: { path: target.relative, words } };
  },
});

/** A scripted conversation that uses both a built-in tool and the custom one. */
export function demoModel() {
  return scriptedModel([
    { text: 'Let me look at the README.', toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }, { name: 'word_count', args: { path: 'README.md' } }] },
    { text: 'The README introduces the project; it has 9 words.' },
  ]);
}

export async function runCustomAgent(options: { cwd: string; model?: string; log?: (line: string) => void }) {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { Agent } = createCairn({
    plugins: [
      { name: 'providers', providers: [openai, ollama, scriptedProvider({ demo: demoModel() }, 'scripted')] },
      fsToolsPlugin,
      modesPlugin,
      { name: 'word-count', tools: [wordCountTool] },
    ],
  });
  const agent = await Agent.create({ model: options.model ?? 'scripted/demo', local: { cwd: options.cwd, store: createMemoryStore() } });
  const run = await agent.send('What is in the README, and how long is it?');
  for await (const message of run.stream()) {
    if (message.type === 'assistant') for (const block of message.message.content) if (block.type === 'text') log(block.text);
    if (message.type === 'tool_call' && message.status !== 'running') log(`  [${message.name}] ${String(message.result ?? '').split('\n')[0]}`);
  }
  const result = await run.wait();
  await agent.close();
  return result;
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '');
if (isMain) {
  const args = process.argv.slice(2);
  const modelFlag = args.indexOf('--model');
  const model = modelFlag >= 0 ? args.splice(modelFlag, 2)[1] : undefined;
  let cwd = args[0];
  if (!cwd) {
    cwd = await mkdtemp(join(tmpdir(), 'cairn-example-'));
    await writeFile(join(cwd, 'README.md'), '# Demo\nThis workspace was made by the example.\n');
  }
  const result = await runCustomAgent({ cwd, ...(model ? { model } : {}) });
  process.exitCode = result.status === 'finished' ? 0 : 1;
}
