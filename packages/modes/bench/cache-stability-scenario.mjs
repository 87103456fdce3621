// The cache-stability scenario shared by the test and the benchmark: a 20-request scripted
// conversation through the real OpenAI Chat adapter against a local fixture server, recording every
// request body on the wire. Plain ESM so it runs from sources (vitest) and from dist (node).
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { startFixtureServer } from '@cairn/core/testing';
import { createOpenAI } from '@cairn/provider-openai';
import { fsToolsPlugin } from '@cairn/tools-fs';
import { planningToolsPlugin } from '@cairn/tools-planning';
import { shellToolsPlugin } from '@cairn/tools-shell';
import { countTokens } from 'gpt-tokenizer';

const chunk = (delta, finish = null) => ({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] });

/** An OpenAI Chat SSE body for one scripted turn. */
export function sseFor(turn, index) {
  const events = [chunk({ role: 'assistant', content: turn.text ?? '' })];
  (turn.toolCalls ?? []).forEach((call, callIndex) => {
    events.push(chunk({ tool_calls: [{ index: callIndex, id: `call_${index}_${callIndex}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] }));
  });
  events.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  events.push({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [], usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 } });
  return { headers: { 'content-type': 'text/event-stream' }, body: `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n` };
}

const read = (path) => ({ name: 'read_file', args: { path } });
const list = (path) => ({ name: 'list_dir', args: { path } });
const glob = (pattern) => ({ name: 'glob_file_search', args: { pattern } });
const todo = (id, status) => ({ name: 'todo_write', args: { merge: true, todos: [{ id, content: `step ${id}`, status }] } });
const plan = {
  name: 'create_plan',
  args: { name: 'Refactor', overview: 'Split utils.', plan: '## Steps\n1. Move helpers.\n2. Update imports.', todos: [{ id: 'move', content: 'Move helpers', dependencies: [] }, { id: 'imports', content: 'Update imports', dependencies: ['move'] }] },
};

/**
 * The sends of each scenario: `[mode option, user text, turns]`; every turn is one model request.
 * 20 requests in total per scenario.
 */
export const scenarios = {
  agent: [
    [undefined, 'Rename helper() to assist() everywhere', [{ toolCalls: [list('src'), glob('**/*.ts')] }, { toolCalls: [read('src/a.ts'), read('src/b.ts')] }, { toolCalls: [todo('1', 'in_progress')] }, { toolCalls: [{ name: 'search_replace', args: { path: 'src/a.ts', old_string: 'helper', new_string: 'assist', replace_all: true } }] }, { toolCalls: [{ name: 'search_replace', args: { path: 'src/b.ts', old_string: 'helper', new_string: 'assist', replace_all: true } }] }, { toolCalls: [read('src/a.ts')] }, { toolCalls: [todo('1', 'completed')] }, { text: 'Renamed in two files.' }]],
    [undefined, 'Now add a README section', [{ toolCalls: [read('README.md')] }, { toolCalls: [{ name: 'write', args: { path: 'README.md', contents: '# Demo\n\n## Helpers\nassist()\n' } }] }, { toolCalls: [read('README.md')] }, { text: 'Added.' }]],
    [undefined, 'Also document src/b.ts', [{ toolCalls: [read('src/b.ts')] }, { toolCalls: [{ name: 'edit_file', args: { path: 'src/b.ts', instructions: 'add a doc comment', code_edit: '/** b */\n// ... existing code ...' } }] }, { toolCalls: [read('src/b.ts')] }, { toolCalls: [list('.')] }, { toolCalls: [glob('*.md')] }, { toolCalls: [read('README.md')] }, { toolCalls: [todo('2', 'completed')] }, { text: 'Documented.' }]],
  ],
  readOnly: (mode) => [
    [undefined, 'How is helper() used?', [{ toolCalls: [list('src'), glob('**/*.ts')] }, { toolCalls: [read('src/a.ts'), read('src/b.ts')] }, { toolCalls: [todo('1', 'in_progress')] }, { toolCalls: [read('README.md')] }, { toolCalls: [list('.')] }, { toolCalls: [glob('*.md')] }, { toolCalls: [todo('1', 'completed')] }, { text: 'helper() is used in a.ts and b.ts.' }]],
    [undefined, 'And where is it defined?', [{ toolCalls: [read('src/a.ts')] }, { toolCalls: [glob('src/*.ts')] }, { toolCalls: [read('src/b.ts')] }, { text: 'In a.ts.' }]],
    [undefined, 'What would renaming it take?', [{ toolCalls: [read('src/a.ts')] }, { toolCalls: [read('src/b.ts')] }, { toolCalls: [list('src')] }, { toolCalls: [glob('**/*')] }, { toolCalls: [read('README.md')] }, { toolCalls: mode === 'plan' ? [plan] : [todo('2', 'completed')] }, { toolCalls: [todo('3', 'completed')] }, { text: 'Two edits.' }]],
  ],
  planThenAgent: [
    [undefined, 'Plan splitting the helpers', [{ toolCalls: [list('src'), glob('**/*.ts')] }, { toolCalls: [read('src/a.ts'), read('src/b.ts')] }, { toolCalls: [read('README.md')] }, { toolCalls: [plan] }, { text: 'The plan awaits your approval.' }]],
    ['agent', 'go', [{ toolCalls: [todo('move', 'in_progress')] }, { toolCalls: [read('src/a.ts')] }, { toolCalls: [{ name: 'write', args: { path: 'src/helpers.ts', contents: 'export const assist = () => 1;\n' } }] }, { toolCalls: [todo('move', 'completed')] }, { toolCalls: [{ name: 'search_replace', args: { path: 'src/b.ts', old_string: 'helper', new_string: 'assist', replace_all: true } }] }, { toolCalls: [todo('imports', 'completed')] }, { toolCalls: [read('src/b.ts')] }, { text: 'Done.' }]],
    [undefined, 'Check it once more', [{ toolCalls: [read('src/helpers.ts')] }, { toolCalls: [glob('src/*.ts')] }, { toolCalls: [read('src/b.ts')] }, { toolCalls: [list('src')] }, { toolCalls: [read('README.md')] }, { toolCalls: [list('.')] }, { text: 'All good.' }]],
  ],
};

async function workspace() {
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-cache-'));
  await mkdir(join(cwd, 'src'));
  await writeFile(join(cwd, 'src/a.ts'), 'export function helper() {\n  return 1;\n}\n');
  await writeFile(join(cwd, 'src/b.ts'), "import { helper } from './a';\nexport const b = helper() + 1;\n");
  await writeFile(join(cwd, 'README.md'), '# Demo\n');
  return cwd;
}

function commonPrefix(a, b) {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/**
 * Per request from the second on: the share of the request, in characters and in o200k tokens,
 * that is a byte-identical prefix of the previous request. `cache` order serialises the recorded
 * wire body as providers cache it (tools, then system and messages); `wire` is the JSON as sent
 * (OpenAI Chat puts `messages` before `tools`).
 */
export function prefixShares(bodies) {
  const views = bodies.map((body) => ({ cache: JSON.stringify({ tools: body.tools ?? [], messages: body.messages }), wire: JSON.stringify(body) }));
  return views.slice(1).map((view, index) => {
    const previous = views[index];
    const prefix = commonPrefix(previous.cache, view.cache);
    const wirePrefix = commonPrefix(previous.wire, view.wire);
    const tokens = countTokens(view.cache);
    return {
      request: index + 2,
      chars: view.cache.length,
      charShare: prefix / view.cache.length,
      tokenShare: countTokens(view.cache.slice(0, prefix)) / tokens,
      // How much of the previous request (what a provider cached) this one reuses: 1 unless something before the end changed.
      previousReused: prefix / Math.max(1, previous.cache.length - 2),
      wireCharShare: wirePrefix / view.wire.length,
    };
  });
}

/**
 * Run one scenario and return the recorded request bodies and the per-request prefix shares.
 * `modesPlugin` is passed in so the test can use the sources and the benchmark the build.
 */
export async function runCacheScenario(name, modesPlugin, options = {}) {
  const startMode = options.mode ?? (name === 'planThenAgent' ? 'plan' : 'agent');
  const sends = name === 'readOnly' ? scenarios.readOnly(startMode) : scenarios[name];
  const turns = sends.flatMap(([, , sendTurns]) => sendTurns);
  const server = await startFixtureServer((_request, index) => sseFor(turns[Math.min(index, turns.length - 1)], index));
  try {
    const cwd = await workspace();
    const { Agent } = createCairn({ plugins: [{ name: 'openai', providers: [createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })] }, fsToolsPlugin, shellToolsPlugin, planningToolsPlugin, modesPlugin] });
    const home = await mkdtemp(join(tmpdir(), 'cairn-cache-home-'));
    const agent = await Agent.create({
      model: 'openai/gpt-4o',
      mode: startMode,
      local: { cwd, store: createMemoryStore() },
      env: { ...process.env, CAIRN_HOME: home },
      retry: { maxAttempts: 1 },
      ...(options.stableToolList ? { stableToolList: true } : {}),
    });
    for (const [mode, text] of sends) {
      const result = await (await agent.send(text, mode ? { mode } : {})).wait();
      if (result.status !== 'finished') throw new Error(`scenario ${name}/${startMode}: run ended ${result.status}: ${result.error?.message}`);
    }
    const bodies = server.requests.map((request) => request.body);
    return { bodies, shares: prefixShares(bodies) };
  } finally {
    await server.close();
  }
}
