// Conversation durability benchmarks against the built packages (run `pnpm build` first):
// resume time of a long conversation, and store size growth per turn, for SQLite and JSONL.
// Usage: node bench/resume.bench.mjs [--backend sqlite|jsonl] [--turns 1000]; prints one JSON line
// per backend (both unless --backend is given).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { createJsonlStore } from '@cairn/store-jsonl';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../dist/index.js';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const backends = option('backend', 'sqlite,jsonl').split(',');
const turns = Number(option('turns', '1000'));
const sampleEvery = Math.max(1, Math.floor(turns / 10));
for (const backend of backends) console.log(JSON.stringify(await measure(backend)));

async function measure(backend) {
  const root = mkdtempSync(join(tmpdir(), `cairn-bench-resume-${backend}-`));
  const location = backend === 'sqlite' ? join(root, 'agents.db') : join(root, 'store');
  const open = () => (backend === 'sqlite' ? createSqliteStore({ path: location }) : createJsonlStore({ dir: location }));
  const fileSize = (path) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  /** Bytes on disk: the JSONL files, or the SQLite file with its WAL folded in (checkpointed first). */
  function bytesOnDisk() {
    if (backend === 'jsonl') return readdirSync(location).reduce((sum, name) => sum + fileSize(join(location, name)), 0);
    const database = new Database(location);
    try {
      database.pragma('wal_checkpoint(TRUNCATE)');
      const { page_count: pages } = database.prepare('PRAGMA page_count').get();
      const { freelist_count: free } = database.prepare('PRAGMA freelist_count').get();
      const { page_size: pageSize } = database.prepare('PRAGMA page_size').get();
      return (pages - free) * pageSize;
    } finally {
      database.close();
    }
  }
  const elapsed = (startedAt) => Math.round((performance.now() - startedAt) * 100) / 100;

  // One user question and an answer of ~60 words per turn, streamed as word deltas like a real model.
  const answer = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
  const cairnWith = (model) => createCairn({ plugins: [{ name: 'bench', providers: [scriptedProvider({ 'scripted-model': model })] }] });

  try {
    const cwd = mkdtempSync(join(root, 'workspace-'));
    let store = open();
    const writer = cairnWith(scriptedModel([{ text: answer }], { repeatLast: true }));
    const agent = await writer.Agent.create({ model: 'scripted/scripted-model', local: { cwd, store } });
    const samples = [{ turn: 0, bytes: bytesOnDisk() }];
    const startedAt = performance.now();
    for (let turn = 1; turn <= turns; turn++) {
      const result = await (await agent.send(`Question ${turn}: what is next?`)).wait();
      if (result.status !== 'finished') throw new Error(`turn ${turn} ended ${result.status}`);
      if (turn % sampleEvery === 0) samples.push({ turn, bytes: bytesOnDisk() });
    }
    const writeMs = elapsed(startedAt);
    await agent.close();
    await store.close?.();

    // Resume in a fresh store handle and a fresh Cairn, as a new process would.
    let begin = performance.now();
    store = open();
    const model = scriptedModel([{ text: 'resumed' }]);
    const reader = cairnWith(model);
    const resumed = await reader.Agent.resume(agent.agentId, { local: { cwd, store } });
    const resumeMs = elapsed(begin);
    begin = performance.now();
    const messages = await reader.Agent.messages.listModelMessages(agent.agentId, { store });
    const messagesListMs = elapsed(begin);
    // The next send loads the whole conversation before the model call.
    begin = performance.now();
    let firstModelCallMs = 0;
    const run = await resumed.send('And now?', { onDelta: () => (firstModelCallMs ||= elapsed(begin)) });
    await run.wait();
    const firstSendMs = elapsed(begin);
    await resumed.close();
    await store.close?.();

    const growth = samples.slice(1).map((sample, index) => ({
      turns: `${samples[index].turn + 1}-${sample.turn}`,
      bytesPerTurn: Math.round((sample.bytes - samples[index].bytes) / (sample.turn - samples[index].turn)),
    }));
    return {
          benchmark: 'conversation-resume',
          backend,
          turns,
          messages: messages.length,
          writeTurnsPerSecond: Math.round(turns / (writeMs / 1000)),
          resumeMs,
          messagesListMs,
          firstDeltaAfterResumeMs: firstModelCallMs,
          firstSendAfterResumeMs: firstSendMs,
          bytesOnDisk: samples.at(-1).bytes,
          bytesPerTurn: Math.round((samples.at(-1).bytes - samples[0].bytes) / turns),
          growth,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
