import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryStore, defineTool, type InteractionUpdate, type LanguageModelV1CallOptions, type ModeDefinition, type RunEvent } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { estimateTextTokens } from '../src/runtime/compaction-tokens.js';
import { compactionBudget, pruneOldToolOutputs, tailStart } from '../src/runtime/compaction.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

const words = (count: number, word = 'lorem') => Array.from({ length: count }, (_, index) => `${word}${index % 10}`).join(' ');

/** Input tokens the way a provider would report them: the whole request. */
const usageFor = (call: LanguageModelV1CallOptions) => ({ input: estimateTextTokens(JSON.stringify(call.prompt)) + estimateTextTokens(JSON.stringify(call.tools ?? [])) });
const withUsage = (turn: Exclude<ScriptedTurn, Function>): ScriptedTurn => (call) => ({ ...turn, usage: usageFor(call) }) as ScriptedTurn;
/** The summary request: the conversation's own prefix plus the instruction, with tool calls turned off. */
const isSummaryCall = (call: LanguageModelV1CallOptions) => call.toolChoice?.type === 'none' && JSON.stringify(call.prompt.at(-1)).includes('about to be compacted');

const dumpTool = defineTool({
  id: 'dump',
  name: 'dump',
  description: 'Returns a lot of text.',
  inputSchema: z.object({ words: z.number() }),
  readOnly: true,
  readOnlyHint: true,
  category: 'custom',
  execute: (input: { words: number }) => words(input.words, 'out'),
});
const todoTool = defineTool({
  id: 'todo',
  name: 'set_todos',
  description: 'Stores todos in run state.',
  inputSchema: z.object({ items: z.array(z.string()) }),
  readOnly: true,
  category: 'planning',
  execute: (input: { items: string[] }, context) => {
    context.state.set('todos', input.items.map((content, index) => ({ id: `t${index}`, content, status: 'pending' })));
    return 'stored';
  },
});
const researchMode: ModeDefinition = {
  id: 'research',
  description: 'Read-only research.',
  promptBlocks: ['Only read.'],
  toolPolicy: { readOnly: true, mcp: 'readOnlyHint', shell: 'off' },
  sandboxProfile: 'read-only',
  transitionsTo: [],
};

function setupCompaction(turns: ScriptedTurn[]) {
  const model = scriptedModel(turns);
  const store = createMemoryStore();
  const cairn = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': model })], tools: [dumpTool, todoTool], modes: [researchMode] }] });
  return { model, store, ...cairn };
}

async function updates(store: ReturnType<typeof createMemoryStore>, runId: string): Promise<InteractionUpdate[]> {
  const page = await store.runEvents.list(runId, { limit: 5000 });
  return page.events.flatMap((entry: { event: RunEvent }) => (entry.event.kind === 'update' ? [entry.event.update] : []));
}

const systemTokens = async () => {
  const { buildSystemPrompt } = await import('../src/context/system-prompt.js');
  return estimateTextTokens(buildSystemPrompt({ modes: [] })) + 400;
};

describe('compaction policy', () => {
  it('takes the smaller of maxTokens and ratio x window; off when disabled or unbounded', () => {
    const catalog = { id: 'm', contextWindow: 100_000, maxOutputTokens: 1000, capabilities: { tools: true, images: false, reasoning: false } } as never;
    expect(compactionBudget(undefined, catalog)).toBe(80_000);
    expect(compactionBudget({ ratio: 0.5 }, catalog)).toBe(50_000);
    expect(compactionBudget({ maxTokens: 30_000 }, catalog)).toBe(30_000);
    expect(compactionBudget({ maxTokens: 30_000, enabled: false }, catalog)).toBeUndefined();
    expect(compactionBudget(undefined, undefined)).toBeUndefined();
  });

  it('prunes only tool outputs before the kept turns', () => {
    const messages = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'q' }] },
      { role: 'assistant' as const, content: [{ type: 'tool-call' as const, toolCallId: '1', toolName: 'dump', input: {} }] },
      { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: '1', toolName: 'dump', output: { type: 'text' as const, value: words(500) } }] },
      { role: 'assistant' as const, content: [{ type: 'tool-call' as const, toolCallId: '2', toolName: 'dump', input: {} }] },
      { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: '2', toolName: 'dump', output: { type: 'text' as const, value: words(500) } }] },
    ];
    expect(tailStart(messages, 1)).toBe(3);
    const { messages: pruned, pruned: count } = pruneOldToolOutputs(messages, { end: tailStart(messages, 1) });
    expect(count).toBe(1);
    expect(JSON.stringify(pruned[2])).toContain('Old tool output removed');
    expect(pruned[4]).toBe(messages[4]);
    expect(pruned[0]).toBe(messages[0]);
  });
});

describe('compaction in a run', () => {
  it('first prunes old tool outputs when that is enough', async () => {
    const base = await systemTokens();
    const { model, store, Agent } = setupCompaction([
      withUsage({ toolCalls: [{ name: 'dump', args: { words: 2000 } }] }),
      withUsage({ toolCalls: [{ name: 'dump', args: { words: 2000 } }] }),
      withUsage({ text: 'done' }),
    ]);
    // Shares for a tiny budget: each output fits the turn cap whole, and pruning one reaches the low-water mark.
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace(), store, settingSources: [] }, compaction: { maxTokens: base + 6000, keepRecentTurns: 1, lowWaterShare: 0.9, tailShare: 0.45 } });
    const run = await agent.send('dump twice');
    expect((await run.wait()).status).toBe('finished');
    expect(model.calls).toHaveLength(3);
    const third = JSON.stringify(model.calls[2]!.prompt);
    expect(third).toContain('Old tool output removed to save context: dump returned');
    expect(third).toContain('out9');
    const seen = await updates(store, run.id);
    expect(seen.some((update) => update.type === 'summary-started')).toBe(false);
    expect(seen.find((update) => update.type === 'summary-completed')).toMatchObject({ type: 'summary-completed' });
  });

  it('then summarises older turns, keeping mode, todos, the query and the newest turns; resume starts from the compacted chain', async () => {
    const base = await systemTokens();
    const hookCalls: unknown[] = [];
    const { model, store, Agent } = setupCompaction([
      withUsage({ text: words(1500, 'first'), toolCalls: [{ name: 'set_todos', args: { items: ['read a', 'read b'] } }] }),
      withUsage({ text: words(1500, 'second'), toolCalls: [{ name: 'dump', args: { words: 10 } }] }),
      // the summary request, before the third step
      { text: 'SUMMARY: the agent stored two todos and read files a and b.' },
      withUsage({ text: 'Finished after compaction.' }),
      withUsage({ text: 'Follow-up answer.' }),
    ]);
    const agent = await Agent.create({
      model: 'scripted/scripted-model',
      mode: 'research',
      local: { cwd: await tempWorkspace(), store, settingSources: [] },
      compaction: { maxTokens: base + 4000, keepRecentTurns: 1 },
      hooks: {
        preCompact: (event) => {
          hookCalls.push(event);
          return { instructions: 'Mention the todos.' };
        },
      },
    });
    const run = await agent.send('Research the thing carefully');
    const result = await run.wait();
    expect(result.status, result.error?.message).toBe('finished');
    const summaryCall = model.calls.find(isSummaryCall)!;
    expect(summaryCall).toBeDefined();
    expect(JSON.stringify(summaryCall.prompt)).toContain('Additional instructions: Mention the todos.');
    expect(hookCalls).toEqual([expect.objectContaining({ trigger: 'auto', mode: 'research', budget: base + 4000 })]);
    expect(model.calls.indexOf(summaryCall)).toBe(2);
    const after = model.calls[3]!;
    expect(after.prompt[0]?.role).toBe('system');
    const head = JSON.stringify(after.prompt[1]);
    expect(head).toContain('SUMMARY: the agent stored two todos');
    expect(head).toContain('You are now in research mode');
    expect(head).toContain('[pending] t0: read a');
    expect(head).toContain('Research the thing carefully');
    // The newest turn is kept verbatim; the oldest is gone.
    const rest = JSON.stringify(after.prompt.slice(2));
    expect(rest).toContain('second9');
    expect(JSON.stringify(after.prompt)).not.toContain('first9');
    // The mode survived: still only read-only tools.
    expect(after.tools?.map((tool) => tool.name)).toEqual(['dump', 'set_todos']);
    const seen = await updates(store, run.id);
    const kinds = seen.map((update) => update.type).filter((type) => type.startsWith('summary'));
    expect(kinds).toEqual(['summary-started', 'summary', 'summary-completed']);
    const completed = seen.find((update) => update.type === 'summary-completed') as Extract<InteractionUpdate, { type: 'summary-completed' }>;
    expect(completed.tokensAfter).toBeLessThan(completed.tokensBefore ?? 0);

    // The stored conversation is the compacted one, and the next send continues from it.
    const stored = await Agent.messages.listModelMessages(agent.agentId, { store });
    expect(JSON.stringify(stored[0])).toContain('SUMMARY');
    expect(JSON.stringify(stored)).not.toContain('first9');
    await agent.close();
    const resumed = await Agent.resume(agent.agentId, { local: { cwd: agent.cwd, store, settingSources: [] } });
    expect(resumed.mode).toBe('research');
    await (await resumed.send('And then?')).wait();
    const followUp = model.calls[4]!;
    expect(JSON.stringify(followUp.prompt[1])).toContain('SUMMARY');
    expect(followUp.tools?.map((tool) => tool.name)).toEqual(['dump', 'set_todos']);
  });

  it('a failing summary ends the run with compaction_failed instead of looping', async () => {
    const base = await systemTokens();
    const { model, Agent } = setupCompaction([
      withUsage({ text: words(1500, 'first'), toolCalls: [{ name: 'dump', args: { words: 10 } }] }),
      withUsage({ text: words(1500, 'second'), toolCalls: [{ name: 'dump', args: { words: 10 } }] }),
      { text: '   ' },
    ]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace(), settingSources: [] }, compaction: { maxTokens: base + 4000, keepRecentTurns: 1 } });
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('compaction_failed');
    expect(result.error?.message).toContain('empty summary');
    expect(model.calls).toHaveLength(3);
  });

  it('when the newest turns alone are over budget it fails clearly', async () => {
    const base = await systemTokens();
    const { model, Agent } = setupCompaction([withUsage({ text: words(3000), toolCalls: [{ name: 'dump', args: { words: 10 } }] })]);
    const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace(), settingSources: [] }, compaction: { maxTokens: base + 1000, keepRecentTurns: 2 } });
    const result = await (await agent.send('go')).wait();
    expect(result.error?.code).toBe('compaction_failed');
    expect(result.error?.message).toContain('the newest turn alone needs about');
    expect(model.calls).toHaveLength(1);
  });
});
