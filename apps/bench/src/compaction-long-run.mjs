// Compaction over a long run near a small budget (run `pnpm build` first): one agent, the real
// OpenAI Chat adapter and the real file tools against a local fake server, 40+ tool steps with big
// reads under a 24k-token budget. The server answers like a model that follows a fixed script and
// reports usage as a prefix-caching provider would (cached = the prefix shared with the previous
// request). Prints one JSON line:
// - rewroteHistory: step requests whose history is not the previous request's plus new messages;
// - prefixReuse: per request, the share of its input tokens that equals the previous request's prefix;
// - uncachedPerStep: per step request, the tokens not covered by that prefix (and their total);
// - summaryCalls, and the share of each summary request that reuses the previous prefix;
// - finished / status / errorCode of the run.
// Tokens are o200k counts of the request body in cache order (tools, then system and messages),
// JSON syntax included. BENCH_COMPACTION_BUDGET sets the budget (default 24000).
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@cairn/core';
import { createCairn, estimateTextTokens } from '@cairn/core/node';
import { startFixtureServer } from '@cairn/core/testing';
import { createOpenAI } from '@cairn/provider-openai';
import { fsToolsPlugin } from '@cairn/tools-fs';
import { median, round } from './stats.mjs';

const budget = Number(process.env.BENCH_COMPACTION_BUDGET ?? 24_000);

const sourceLine = (name, index) => `export function ${name}Step${index}(input: number): number { return input * ${index} + ${index % 7}; }`;

async function workspace() {
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-compaction-bench-'));
  await mkdir(join(cwd, 'src'));
  for (let index = 0; index < 14; index++) {
    await writeFile(join(cwd, `src/module${index}.ts`), Array.from({ length: 30 + index * 8 }, (_, line) => sourceLine(`m${index}`, line)).join('\n'));
  }
  // Three files of ~42k tokens each: one read_file of them used to return all of it.
  for (const name of ['bigA', 'bigB', 'bigC']) {
    await writeFile(join(cwd, `src/${name}.ts`), Array.from({ length: 1_800 }, (_, line) => sourceLine(name, line)).join('\n'));
  }
  return cwd;
}

const read = (path, extra = {}) => ({ name: 'read_file', args: { path, ...extra } });

/** What the model does at each step: module reads, listings, one big read, then three at once, an answer. */
function script() {
  const turns = [{ text: 'Looking at the layout.', toolCalls: [{ name: 'list_dir', args: { path: 'src' } }] }];
  for (let step = 1; step < 42; step++) {
    if (step === 12) turns.push({ text: 'Reading the first large file.', toolCalls: [read('src/bigA.ts')] });
    else if (step === 13) turns.push({ text: 'Reading on in it.', toolCalls: [read('src/bigA.ts', { offset: 600 })] });
    else if (step === 24) turns.push({ text: 'Comparing the three large files.', toolCalls: [read('src/bigA.ts'), read('src/bigB.ts'), read('src/bigC.ts')] });
    else if (step % 9 === 0) turns.push({ text: 'Finding the tests.', toolCalls: [{ name: 'glob_file_search', args: { pattern: '**/*.ts' } }] });
    else turns.push({ text: `Step ${step}: reading module ${step % 14}.`, toolCalls: [read(`src/module${step % 14}.ts`)] });
  }
  turns.push({ text: 'Every module is read; the refactor plan is ready.' });
  return turns;
}

const chunk = (delta, finish = null) => ({ id: 'chatcmpl-compaction', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] });

function sse(turn, index, usage) {
  const events = [chunk({ role: 'assistant', content: turn.text ?? '' })];
  (turn.toolCalls ?? []).forEach((call, callIndex) => {
    events.push(chunk({ tool_calls: [{ index: callIndex, id: `call_${index}_${callIndex}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] }));
  });
  events.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  events.push({ ...chunk({}), choices: [], usage: { prompt_tokens: usage.input, completion_tokens: 30, total_tokens: usage.input + 30, prompt_tokens_details: { cached_tokens: usage.cached } } });
  return { headers: { 'content-type': 'text/event-stream' }, body: `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n` };
}

/** o200k tokens of a long text: counted in pieces, each under the exact-count limit. */
function tokens(text) {
  let total = 0;
  for (let start = 0; start < text.length; start += 40_000) total += estimateTextTokens(text.slice(start, start + 40_000));
  return total;
}

const cacheView = (body) => JSON.stringify({ tools: body.tools ?? [], messages: body.messages });

function commonPrefix(a, b) {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** True when `current` keeps every message of `previous` as it was (it only appends). */
function appendsOnly(previous, current) {
  if (JSON.stringify(previous.tools ?? []) !== JSON.stringify(current.tools ?? [])) return false;
  return previous.messages.every((message, index) => JSON.stringify(message) === JSON.stringify(current.messages[index]));
}

const turns = script();
let nextTurn = 0;
let previousView = '';
const measured = [];
const server = await startFixtureServer((request) => {
  const body = request.body;
  const view = cacheView(body);
  const input = tokens(view);
  const cached = previousView ? tokens(view.slice(0, commonPrefix(previousView, view))) : 0;
  previousView = view;
  const summary = body.tool_choice === 'none';
  measured.push({ body, summary, input, cached });
  const turn = summary ? { text: 'SUMMARY: the agent listed src, read the modules one by one and the three large generated files; next it writes the refactor plan.' } : (turns[nextTurn++] ?? { text: 'done' });
  return sse(turn, measured.length, { input, cached });
});

let outcome;
try {
  const cwd = await workspace();
  const home = await mkdtemp(join(tmpdir(), 'cairn-compaction-home-'));
  const { Agent } = createCairn({ plugins: [{ name: 'openai', providers: [createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-bench' })] }, fsToolsPlugin] });
  const agent = await Agent.create({
    model: 'openai/gpt-4o',
    local: { cwd, store: createMemoryStore(), settingSources: [] },
    env: { ...process.env, CAIRN_HOME: home },
    retry: { maxAttempts: 1 },
    maxSteps: 80,
    compaction: { maxTokens: budget },
  });
  outcome = await (await agent.send('Read every module of src and plan the refactor.')).wait();
  await agent.close();
} finally {
  await server.close();
}

const steps = measured.filter((entry) => !entry.summary);
const stepUncached = [];
let rewroteHistory = 0;
let uncachedInRewrites = 0;
let previousStep;
for (const entry of steps) {
  const uncached = entry.input - entry.cached;
  stepUncached.push(uncached);
  if (previousStep && !appendsOnly(previousStep.body, entry.body)) {
    rewroteHistory++;
    uncachedInRewrites += uncached;
  }
  previousStep = entry;
}
const reuse = measured.slice(1).map((entry) => entry.cached / entry.input);
const totalUncached = stepUncached.reduce((sum, value) => sum + value, 0);
const summaries = measured.filter((entry) => entry.summary);
console.log(
  JSON.stringify({
    benchmark: 'compaction-long-run',
    budget,
    stepRequests: steps.length,
    summaryCalls: summaries.length,
    rewroteHistory,
    uncachedShareInRewrites: round(totalUncached ? uncachedInRewrites / totalUncached : 0, 3),
    prefixReuse: { mean: round(reuse.reduce((sum, value) => sum + value, 0) / reuse.length, 3), min: round(Math.min(...reuse), 3) },
    uncachedPerStep: { mean: Math.round(totalUncached / steps.length), median: Math.round(median(stepUncached)), max: Math.max(...stepUncached), total: totalUncached },
    totalInput: steps.reduce((sum, entry) => sum + entry.input, 0),
    maxRequestTokens: Math.max(...measured.map((entry) => entry.input)),
    summaryPrefixReuse: summaries.map((entry) => round(entry.cached / entry.input, 3)),
    finished: outcome?.status === 'finished',
    status: outcome?.status,
    ...(outcome?.error ? { errorCode: outcome.error.code } : {}),
    perStep: steps.map((entry) => [entry.input, entry.input - entry.cached]),
  }),
);
if (outcome?.status !== 'finished') process.exitCode = 1;
