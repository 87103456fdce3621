import { describe, expect, it } from 'vitest';
import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { LanguageModelV1FunctionTool, ModelMessage } from '../spec/language-model/v1/index.js';
import { type ScriptedTurn, scriptedModel } from '../testing/scripted-model.js';
import { compactIfNeeded, type CompactionStepInput, needsCompaction } from './compaction-step.js';
import { ContextTokenMeter, estimateMessagesTokens, estimateTextTokens, estimateToolsTokens } from './compaction-tokens.js';
import { compactionSettings, tailStartByTokens } from './compaction.js';

const tools: LanguageModelV1FunctionTool[] = [{ type: 'function', name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const systemPrompt = 'You are a coding agent. Work carefully.';
const fixedTokens = () => estimateTextTokens(systemPrompt) + estimateToolsTokens(tools);

/** Numbered lines like read_file returns, about 13 tokens each. */
const fileText = (lines: number, tag = 'v') => Array.from({ length: lines }, (_, index) => `${String(index + 1).padStart(6)}|export const ${tag}${index} = load(${index}); // line`).join('\n');

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const say = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = (id: string, text?: string): ModelMessage => ({ role: 'assistant', content: [...(text ? [{ type: 'text' as const, text }] : []), { type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: `${id}.ts` } }] });
const result = (id: string, text: string): ModelMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value: text } }] });

interface Harness {
  input: CompactionStepInput;
  notes: Array<{ update?: InteractionUpdate; status?: string }>;
  model: ReturnType<typeof scriptedModel>;
}

function harness(messages: ModelMessage[], options: { budget: number; turns?: ScriptedTurn[]; overrides?: Partial<CompactionStepInput> }): Harness {
  const notes: Harness['notes'] = [];
  const model = scriptedModel(options.turns ?? []);
  const input: CompactionStepInput = {
    agentId: 'agent-1',
    runId: 'run-1',
    mode: 'agent',
    messages,
    state: {},
    systemPrompt,
    tools,
    meter: new ContextTokenMeter(),
    budget: options.budget,
    keepRecentTurns: 4,
    model,
    modeReminder: '<mode>You are in agent mode.</mode>',
    promptCacheKey: 'cairn-agent-1',
    signal: new AbortController().signal,
    notify: async (event) => {
      notes.push(event);
    },
    ...options.overrides,
  };
  return { input, notes, model };
}

const requestTokens = (messages: readonly ModelMessage[]) => fixedTokens() + estimateMessagesTokens(messages);

describe('needsCompaction', () => {
  it('is the gate compactIfNeeded uses: false far below and just under the budget, true over it', async () => {
    const messages = [user('read the files'), call('a'), result('a', fileText(200))];
    const size = requestTokens(messages);
    const gate = (budget: number) => needsCompaction({ messages, systemPrompt, tools, meter: new ContextTokenMeter(), budget });
    expect(gate(size * 10)).toBe(false);
    expect(gate(size)).toBe(false);
    expect(gate(size - 1)).toBe(true);
    const below = harness(messages, { budget: size });
    expect(await compactIfNeeded(below.input)).toEqual({ messages, compacted: false });
    expect(below.notes).toEqual([]);
  });
});

describe('low-water pruning', () => {
  it('frees a large batch at once, oldest first, so the next requests only append', async () => {
    const budget = 8_000;
    const settings = compactionSettings({ maxTokens: budget }, undefined);
    let messages: ModelMessage[] = [user('Refactor the loaders.')];
    const compactedAt: number[] = [];
    const rewritePoints: number[] = [];
    const summaries = scriptedModel([{ text: 'SUMMARY of the early reads.' }], { repeatLast: true });
    for (let step = 1; step <= 40; step++) {
      messages = [...messages, call(`c${step}`), result(`c${step}`, fileText(45, `s${step}_`))];
      const { input } = harness(messages, { budget, overrides: { model: summaries, lowWaterShare: settings?.lowWaterShare, tailShare: settings?.tailShare } });
      const before = messages;
      const outcome = await compactIfNeeded(input);
      if (outcome.compacted) {
        compactedAt.push(step);
        expect(requestTokens(outcome.messages)).toBeLessThanOrEqual(budget * 0.5);
        // Oldest first: the history before the first rewritten message is the same objects, and
        // that point only moves forward, so what earlier prunings wrote stays a cached prefix.
        const firstChanged = outcome.messages.findIndex((message, index) => message !== before[index]);
        expect(firstChanged).toBeGreaterThan(rewritePoints.at(-1) ?? 0);
        rewritePoints.push(firstChanged);
      } else {
        expect(outcome.messages).toBe(before);
      }
      messages = outcome.messages;
    }
    // Each step adds ~600 tokens: a rewrite every step or two without a low-water mark; here the
    // batch freed (about half the budget) lasts several requests.
    expect(compactedAt.length).toBeGreaterThan(2);
    const gaps = compactedAt.slice(1).map((step, index) => step - (compactedAt[index] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5);
    expect(summaries.calls).toHaveLength(0);
  });

  it('prunes oldest first: later outputs before the tail stay when the mark is reached', async () => {
    const budget = 6_000;
    const messages = [user('go'), ...['a', 'b', 'c', 'd', 'e'].flatMap((id) => [call(id), result(id, fileText(90, id))])];
    const { input } = harness(messages, { budget });
    const outcome = await compactIfNeeded(input);
    expect(outcome.compacted).toBe(true);
    const outputs = outcome.messages.flatMap((message) => (message.role === 'tool' ? message.content.map((part) => String(part.output.value)) : []));
    const pruned = outputs.map((text) => text.startsWith('[Old tool output removed'));
    expect(pruned[0]).toBe(true);
    // A prefix of outputs is pruned, then everything is kept: the already-pruned part never changes again.
    expect(pruned.indexOf(false)).toBeGreaterThan(0);
    expect(pruned.slice(pruned.indexOf(false)).every((value) => !value)).toBe(true);
    expect(requestTokens(outcome.messages)).toBeLessThanOrEqual(budget * 0.5);
  });
});

describe('the kept tail by tokens', () => {
  it('keeps a huge newest turn but clips its outputs, with a notice, instead of failing (no model call)', async () => {
    const budget = 12_000;
    const huge = fileText(3_000, 'big');
    const messages = [user('read the big files'), call('small'), result('small', fileText(20)), { role: 'assistant' as const, content: ['x', 'y', 'z'].map((id) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'read_file', input: { path: id } })) }, { role: 'tool' as const, content: ['x', 'y', 'z'].map((id) => ({ type: 'tool-result' as const, toolCallId: id, toolName: 'read_file', output: { type: 'text' as const, value: huge } })) }];
    expect(requestTokens(messages)).toBeGreaterThan(budget * 8);
    const { input, model, notes } = harness(messages, { budget });
    const outcome = await compactIfNeeded(input);
    expect(model.calls).toHaveLength(0);
    expect(outcome.compacted).toBe(true);
    expect(requestTokens(outcome.messages)).toBeLessThanOrEqual(budget);
    const last = outcome.messages.at(-1);
    if (last?.role !== 'tool') throw new Error('the newest tool results must stay last');
    expect(last.content.map((part) => part.toolCallId)).toEqual(['x', 'y', 'z']);
    for (const part of last.content) {
      const text = String(part.output.value);
      expect(text.startsWith(huge.slice(0, 500))).toBe(true);
      expect(text).toMatch(/\[Output cut to fit the context budget: .* The last line shown is line \d+\. To see the rest, call read_file again/);
    }
    // The kept tail fits its share (a quarter of the budget by default).
    expect(estimateMessagesTokens(outcome.messages.slice(-2))).toBeLessThanOrEqual(budget * 0.25);
    expect(notes.map((note) => note.update?.type ?? 'status')).toEqual(['status', 'summary-completed']);
  });

  it('keepRecentTurns stays an upper bound on the kept turns', () => {
    const messages = [user('go'), ...['a', 'b', 'c', 'd'].flatMap((id) => [call(id), result(id, fileText(10, id))])];
    expect(tailStartByTokens(messages, { maxTokens: 1_000_000, maxTurns: 1 })).toBe(7);
    expect(tailStartByTokens(messages, { maxTokens: 1_000_000, maxTurns: 3 })).toBe(3);
    expect(tailStartByTokens(messages, { maxTokens: 1_000_000, maxTurns: 10 })).toBe(1);
    // By size: the newest turn always, the others while they fit.
    const turn = estimateMessagesTokens(messages.slice(7));
    expect(tailStartByTokens(messages, { maxTokens: 1, maxTurns: 10 })).toBe(7);
    expect(tailStartByTokens(messages, { maxTokens: turn * 2 + 1, maxTurns: 10 })).toBe(5);
  });
});

describe('the summary request', () => {
  const longTalk = (turns: number) => [user('<user_query>Plan the migration</user_query>'), ...Array.from({ length: turns }, (_, index) => [say(`Thought ${index}: ${fileText(30, `t${index}_`)}`), user(`More detail on part ${index}, please.`)]).flat()];

  it('is the conversation itself plus an instruction: same system prompt, tools, prefix and cache key, no tool calls', async () => {
    const messages = [...longTalk(8), call('last'), result('last', fileText(50, 'tail'))];
    // Just over the budget because of the newest turn: the older part alone fits one request.
    const budget = requestTokens(messages) - 100;
    const { input, model, notes } = harness(messages, { budget, turns: [{ text: 'SUMMARY: the migration was planned in eight parts.' }] });
    const outcome = await compactIfNeeded(input);
    expect(model.calls).toHaveLength(1);
    const summaryCall = model.calls[0]!;
    expect(summaryCall.prompt[0]).toEqual({ role: 'system', content: systemPrompt });
    // The history as the provider last saw it, message for message, then the instruction.
    const older = messages.slice(0, -2);
    expect(summaryCall.prompt.slice(1, -1)).toEqual(older);
    for (const [index, message] of summaryCall.prompt.slice(1, -1).entries()) expect(message).toBe(older[index]);
    expect(JSON.stringify(summaryCall.prompt.at(-1))).toContain('about to be compacted');
    expect(summaryCall.tools).toEqual(tools);
    expect(summaryCall.toolChoice).toEqual({ type: 'none' });
    expect(summaryCall.promptCacheKey).toBe('cairn-agent-1');
    expect(JSON.stringify(outcome.messages[0])).toContain('SUMMARY: the migration was planned');
    expect(JSON.stringify(outcome.messages[0])).toContain('<user_query>Plan the migration</user_query>');
    expect(outcome.messages.slice(1)).toEqual(messages.slice(-2));
    expect(notes.map((note) => note.update?.type ?? 'status')).toEqual(['status', 'summary-started', 'summary', 'summary-completed']);
  });

  it('summarises a smaller older slice when the whole older part cannot fit one request', async () => {
    const budget = 5_000;
    const messages = [...longTalk(14), call('last'), result('last', 'short')];
    const older = messages.slice(0, -2);
    expect(requestTokens(older)).toBeGreaterThan(budget);
    const { input, model } = harness(messages, { budget, turns: [{ text: 'SUMMARY of the first parts.' }] });
    const outcome = await compactIfNeeded(input);
    const sent = model.calls[0]!.prompt;
    expect(requestTokens(sent.slice(1))).toBeLessThanOrEqual(budget);
    const sliceLength = sent.length - 2;
    expect(sliceLength).toBeLessThan(older.length);
    // The rest of the older part stays verbatim between the summary and the tail.
    expect(outcome.messages.slice(1)).toEqual(messages.slice(sliceLength));
    expect(requestTokens(outcome.messages)).toBeLessThanOrEqual(budget);
  });

  it('refuses before calling the model when no summary could make the request fit', async () => {
    const budget = 3_000;
    // The newest turn's own text (which is never cut) is over the budget.
    const messages = [user('go'), call('a'), result('a', fileText(30)), call('b', `Reasoning aloud: ${fileText(300, 'r')}`), result('b', 'ok')];
    const { input, model, notes } = harness(messages, { budget, turns: [{ text: 'never used' }] });
    await expect(compactIfNeeded(input)).rejects.toMatchObject({ code: 'compaction_failed', message: expect.stringContaining('before asking for a summary: the newest turn alone needs about') });
    expect(model.calls).toHaveLength(0);
    expect(notes.some((note) => note.update?.type === 'summary-started')).toBe(false);
  });

  it('keeps the pruned conversation, without a model call, when it fits but no summary could help', async () => {
    const tailTurn = [call('b', `Reasoning aloud: ${fileText(150, 'r')}`), result('b', 'ok')];
    const messages = [user('go'), call('a'), result('a', fileText(80, 'a')), ...tailTurn];
    const prunedSize = requestTokens([user('go'), call('a'), result('a', `[Old tool output removed to save context: read_file returned ${fileText(80, 'a').length} characters. Call the tool again if you need it.]`), ...tailTurn]);
    // Over the budget before pruning, under it after; a summary's own room would not fit beside the newest turn.
    const budget = prunedSize + 100;
    expect(requestTokens(messages)).toBeGreaterThan(budget);
    const { input, model, notes } = harness(messages, { budget, turns: [{ text: 'never used' }] });
    const outcome = await compactIfNeeded(input);
    expect(model.calls).toHaveLength(0);
    expect(outcome.compacted).toBe(true);
    expect(JSON.stringify(outcome.messages[2])).toContain('[Old tool output removed');
    expect(outcome.messages.slice(3)).toEqual(tailTurn);
    expect(notes.map((note) => note.update?.type ?? 'status')).toEqual(['status', 'summary-completed']);
  });

  it('cuts a summary longer than its room, so the compacted conversation still fits', async () => {
    const messages = [...longTalk(8), call('last'), result('last', fileText(50, 'tail'))];
    const budget = requestTokens(messages) - 100;
    const { input } = harness(messages, { budget, turns: [{ text: `SUMMARY\n${fileText(400, 'sum')}` }] });
    const outcome = await compactIfNeeded(input);
    expect(JSON.stringify(outcome.messages[0])).toContain('[The summary was cut here to fit the context budget.]');
    expect(requestTokens(outcome.messages)).toBeLessThanOrEqual(budget);
  });
});

describe('abort', () => {
  const overBudget = () => [user('go'), ...['a', 'b', 'c'].flatMap((id) => [say(fileText(60, id)), user(`next ${id}`)]), call('z'), result('z', 'ok')];

  it('a hook that never answers does not hold a cancelled run: the reason is thrown and nothing is reported', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    const { input, notes, model } = harness(overBudget(), {
      budget: 2_000,
      overrides: {
        signal: controller.signal,
        hooks: {
          preCompact: () => {
            queueMicrotask(() => controller.abort(reason));
            return new Promise(() => undefined);
          },
        },
      },
    });
    await expect(compactIfNeeded(input)).rejects.toBe(reason);
    expect(notes).toEqual([]);
    expect(model.calls).toHaveLength(0);
  });

  it('an abort during the summary request throws the reason and reports nothing after it', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled mid-summary');
    const { input, notes } = harness(overBudget(), {
      budget: 2_500,
      turns: [{ text: 'a slow summary that never completes', delayMs: 5 }],
      overrides: {
        signal: controller.signal,
        notify: async (event) => {
          notes.push(event);
          if (event.update?.type === 'summary-started') setTimeout(() => controller.abort(reason), 0);
        },
      },
    });
    await expect(compactIfNeeded(input)).rejects.toBe(reason);
    expect(notes.map((note) => note.update?.type ?? 'status')).toEqual(['status', 'summary-started']);
  });

  it('an already aborted signal throws before anything else', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    const { input, notes } = harness(overBudget(), { budget: 2_000, overrides: { signal: controller.signal } });
    await expect(compactIfNeeded(input)).rejects.toThrow('gone');
    expect(notes).toEqual([]);
  });
});

describe('compactionSettings', () => {
  it('resolves the defaults, derives the turn cap from the tail share, and refuses values out of range', () => {
    expect(compactionSettings({ maxTokens: 24_000 }, undefined)).toEqual({ budget: 24_000, keepRecentTurns: 4, lowWaterShare: 0.5, tailShare: 0.25, turnOutputTokens: 6_000 });
    expect(compactionSettings({ enabled: false, maxTokens: 24_000 }, undefined)).toBeUndefined();
    expect(() => compactionSettings({ lowWaterShare: 1.5 }, undefined)).toThrow(/compaction.lowWaterShare must be a number above 0 and at most 0.95/);
    expect(() => compactionSettings({ lowWaterShare: 0.2 }, undefined)).toThrow(/compaction.tailShare \(0.25, the default\) must be below compaction.lowWaterShare \(0.2\)/);
    expect(() => compactionSettings({ keepRecentTurns: 0 }, undefined)).toThrow(/keepRecentTurns must be a whole number of at least 1/);
    expect(() => compactionSettings({ maxTokens: -5 }, undefined)).toThrow(/maxTokens must be a positive whole number/);
  });
});
