import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryStore, defineTool, type InteractionUpdate, type LanguageModelV1CallOptions, type RunEvent } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { estimateMessagesTokens, estimateTextTokens, estimateToolsTokens } from '../src/runtime/compaction-tokens.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

/** A reader without a size cap (the issue measured a single read of ~42k tokens): real files, numbered lines. */
const readWhole = defineTool({
  id: 'read-whole',
  name: 'read_whole',
  description: 'Returns a whole file of the workspace as numbered lines.',
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  category: 'custom',
  paths: (input: { path: string }) => [input.path],
  async execute(input: { path: string }, context) {
    const text = await readFile(join(context.cwd, input.path), 'utf8');
    return text
      .split('\n')
      .map((line, index) => `${String(index + 1).padStart(6)}|${line}`)
      .join('\n');
  },
});

const sourceLine = (file: string, index: number) => `export function ${file}Step${index}(input: number): number { return input * ${index} + ${index % 7}; }`;

async function workspaceWithBigFiles(): Promise<string> {
  const cwd = await tempWorkspace('cairn-compaction-long-');
  await mkdir(join(cwd, 'src'));
  for (let index = 0; index < 12; index++) {
    await writeFile(join(cwd, `src/module${index}.ts`), Array.from({ length: 30 + index * 5 }, (_, line) => sourceLine(`m${index}`, line)).join('\n'));
  }
  // Three files of ~42k tokens each.
  for (const name of ['big-a', 'big-b', 'big-c']) {
    await writeFile(join(cwd, `src/${name}.ts`), Array.from({ length: 1_800 }, (_, line) => sourceLine(name.replace('-', ''), line)).join('\n'));
  }
  return cwd;
}

const read = (path: string) => ({ name: 'read_whole', args: { path } });
/** Provider-reported input tokens: the request as the estimate sees it. */
const usageFor = (call: LanguageModelV1CallOptions) => ({ input: estimateMessagesTokens(call.prompt) + estimateToolsTokens(call.tools ?? []) });

/**
 * 41 model requests: reads of growing modules, one big read, a turn with three big reads, more
 * reads, an answer. A summary request (tool calls turned off) gets a summary and takes no turn.
 */
function script(): ScriptedTurn {
  const turns: Array<{ text?: string; toolCalls?: Array<{ name: string; args: unknown }> }> = [];
  for (let step = 0; step < 40; step++) {
    if (step === 10) turns.push({ text: 'Reading the first large file.', toolCalls: [read('src/big-a.ts')] });
    else if (step === 20) turns.push({ text: 'Reading all three large files.', toolCalls: [read('src/big-a.ts'), read('src/big-b.ts'), read('src/big-c.ts')] });
    else turns.push({ text: `Step ${step}: reading module ${step % 12}.`, toolCalls: [read(`src/module${step % 12}.ts`)] });
  }
  turns.push({ text: 'All modules are read; the refactor plan is ready.' });
  let next = 0;
  return (call) => {
    if (call.toolChoice?.type === 'none') return { text: 'SUMMARY: modules read so far, the large files are generated step functions.', usage: usageFor(call) };
    const turn = turns[next++];
    if (!turn) throw new Error('the script has no turn left');
    return { ...turn, usage: usageFor(call) };
  };
}

describe('a long run near a small budget', () => {
  it('runs 40 tool steps with big reads to the end, rewriting history rarely', async () => {
    const scripted = scriptedModel([script()], { repeatLast: true });
    const store = createMemoryStore();
    const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': scripted })], tools: [readWhole] }] });
    const budget = 24_000;
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await workspaceWithBigFiles(), store, settingSources: [] }, maxSteps: 60, compaction: { maxTokens: budget } });
    const run = await agent.send('Read every module and plan the refactor.');
    const result = await run.wait();
    expect(result.error?.code).not.toBe('compaction_failed');
    expect(result.status, result.error?.message).toBe('finished');

    const requests = scripted.calls.filter((call) => call.toolChoice?.type !== 'none');
    const summaries = scripted.calls.filter((call) => call.toolChoice?.type === 'none');
    expect(requests).toHaveLength(41);
    // Every request fits the budget.
    for (const call of scripted.calls) expect(estimateMessagesTokens(call.prompt) + estimateToolsTokens(call.tools ?? [])).toBeLessThanOrEqual(budget);

    const page = await store.runEvents.list(run.id, { limit: 10_000 });
    const updates = page.events.flatMap((entry: { event: RunEvent }) => (entry.event.kind === 'update' ? [entry.event.update] : [])) as InteractionUpdate[];
    const rewrites = updates.filter((update) => update.type === 'summary-completed').length;
    // The issue measured 12 rewrites in 39 requests with the old pruning; a batch down to the low-water mark lasts several requests.
    expect(rewrites).toBeGreaterThan(0);
    expect(rewrites).toBeLessThanOrEqual(6);
    expect(summaries.length).toBeLessThanOrEqual(rewrites);

    // Requests between two rewrites only append: each extends the previous one's history.
    let appendOnly = 0;
    for (let index = 1; index < requests.length; index++) {
      const previous = requests[index - 1]!.prompt;
      const current = requests[index]!.prompt;
      const shared = previous.findIndex((message, position) => JSON.stringify(message) !== JSON.stringify(current[position]));
      if (shared === -1 || shared >= previous.length - 1) appendOnly++;
    }
    expect(appendOnly).toBeGreaterThanOrEqual(requests.length - 1 - rewrites);

    // The three big reads were kept, clipped with a notice, not dropped and not failed.
    const afterBigTurn = requests.find((call) => JSON.stringify(call.prompt).includes('Reading all three large files.') && call.prompt.at(-1)?.role === 'tool');
    expect(afterBigTurn).toBeDefined();
    const bigResults = afterBigTurn!.prompt.at(-1);
    if (bigResults?.role !== 'tool') throw new Error('expected the big reads last');
    expect(bigResults.content).toHaveLength(3);
    for (const part of bigResults.content) expect(String(part.output.value)).toContain('[Output cut to fit the context budget');
    expect(estimateTextTokens(String(bigResults.content[0]?.output.value))).toBeLessThan(budget * 0.25);
  }, 60_000);
});
