// A custom agent with two named subagents: it hands a review and a test plan to them through the
// `task` tool, both at once, and sums up their answers. Without --model it runs against a scripted
// model, so it works with no API key:
//   node apps/examples/dist/subagents-reviewers.js [--model openai/gpt-5.2] [workspace]
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentDefinition, createMemoryStore } from '@cairn/core';
import { createCairn, subagentsPlugin } from '@cairn/core/node';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { modesPlugin } from '@cairn/modes';
import { ollama, openai } from '@cairn/provider-openai';
import { fsToolsPlugin } from '@cairn/tools-fs';

/** The two subagents: the task tool's description lists them, so the model can pick one. */
export const subagents: Record<string, AgentDefinition> = {
  'code-reviewer': {
    description: 'Reviews code for bugs and risky patterns; read-only.',
    prompt: 'Review the code you are pointed at. Report concrete bugs with file and line, most severe first.',
    model: 'inherit',
    tools: ['read', 'grep', 'glob', 'ls'],
  },
  'test-writer': {
    description: 'Proposes the tests a change needs.',
    prompt: 'List the test cases the code needs, one line each, edge cases first.',
  },
};

/**
 * The scripted stand-in for a real model. Parent and subagents share it and run in parallel, so
 * each request is answered from its own conversation: who asks (the task prompt) and how far it got.
 */
export function demoModel() {
  const answer = (call: { prompt: Array<{ role: string; content: unknown }> }): ScriptedTurn => {
    const firstUser = JSON.stringify(call.prompt.find((message) => message.role === 'user')?.content ?? '');
    const toolResults = call.prompt.filter((message) => message.role === 'tool').length;
    if (firstUser.includes('Review src/sum.ts for bugs')) {
      return toolResults === 0 ? { toolCalls: [{ name: 'read_file', args: { path: 'src/sum.ts' } }] } : { text: 'src/sum.ts:1 starts the loop at 1, so the first element is never added.' };
    }
    if (firstUser.includes('Tests for src/sum.ts')) return { text: 'empty array gives 0; one element; negative numbers; a large array.' };
    if (toolResults === 0) {
      return {
        text: 'I will ask both subagents at once.',
        toolCalls: [
          { name: 'task', args: { description: 'review sum.ts', prompt: 'Review src/sum.ts for bugs.', subagent_type: 'code-reviewer' } },
          { name: 'task', args: { description: 'tests for sum.ts', prompt: 'Tests for src/sum.ts: which cases are needed?', subagent_type: 'test-writer' } },
        ],
      };
    }
    return { text: 'Review: the loop skips the first element. Tests: empty, single, negative and large inputs.' };
  };
  return scriptedModel([answer], { repeatLast: true });
}

export async function runSubagentsExample(options: { cwd: string; model?: string; log?: (line: string) => void }) {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { Agent } = createCairn({
    plugins: [{ name: 'providers', providers: [openai, ollama, scriptedProvider({ demo: demoModel() }, 'scripted')] }, fsToolsPlugin, modesPlugin, subagentsPlugin],
  });
  const agent = await Agent.create({ model: options.model ?? 'scripted/demo', agents: subagents, local: { cwd: options.cwd, store: createMemoryStore() } });
  const run = await agent.send('Check src/sum.ts and tell me which tests it needs.');
  for await (const message of run.stream()) {
    if (message.type === 'task') log(`  [task ${message.subagent_type}] ${message.status}: ${message.text ?? ''}`);
    if (message.type === 'tool_call' && message.name === 'task' && message.status !== 'running') log(`  [task result] ${String(message.result ?? '')}`);
    if (message.type === 'assistant') for (const block of message.message.content) if (block.type === 'text') log(block.text);
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
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(cwd, 'src'));
    await writeFile(join(cwd, 'src', 'sum.ts'), 'export const sum = (xs: number[]) => { let t = 0; for (let i = 1; i < xs.length; i++) t += xs[i]; return t; };\n');
  }
  const result = await runSubagentsExample({ cwd, ...(model ? { model } : {}) });
  process.exitCode = result.status === 'finished' ? 0 : 1;
}
