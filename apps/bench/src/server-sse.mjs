// The agent server's event stream (`GET /v1/runs/{id}/events`, docs/server-api.md) against following
// the same runs in process with the SDK's `run.storedEvents()` (what the server's route iterates
// itself), against the built packages (`pnpm build`, or build core, sdk and server):
// - latency: for each event a client follows live, the time from its store append (the wrapped
//   `store.runEvents.append` resolving) to its arrival at the SSE client (fetch + stream reader,
//   by `id:`), against the time to the in-process iterator; p50/p95/max, added ms and ratio;
// - throughput: 20 agents with one run each, 20 SSE clients following them at once; events
//   delivered / wall time, against the same 20 runs followed with `run.storedEvents()`; and whether
//   every client got every event of its run exactly once (its ids against `store.runEvents.list`).
// Server, SQLite store (temporary CAIRN_HOME), clients and the fake model (`startChatCompletionsServer`,
// zero latency, a long text per turn) share one process. A gate in front of the model holds its
// requests until every client follows its run, so the model's events are all appended live.
// Ratios are reported, never asserted. Prints one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { createSqliteStore } from '@cairn/store-sqlite';
import { median, percentile, round } from './stats.mjs';

// A hung stream fails the benchmark instead of holding `pnpm bench`.
setTimeout(() => {
  console.error('server-sse: timed out after 120 s');
  process.exit(1);
}, 120_000).unref();

const latencyRounds = Number(process.env.BENCH_ROUNDS ?? 5);
const concurrentRounds = Number(process.env.BENCH_CONCURRENT_ROUNDS ?? 3);
const streams = Number(process.env.BENCH_STREAMS ?? 20);
const text = 'x '.repeat(2000);
const model = 'openai/gpt-4.1-mini';

const home = mkdtempSync(join(tmpdir(), 'cairn-bench-sse-home-'));
const cwd = mkdtempSync(join(tmpdir(), 'cairn-bench-sse-cwd-'));
const fake = await startChatCompletionsServer(() => ({ text }));
const gate = await startGate(new URL(fake.url));
Object.assign(process.env, { CAIRN_HOME: home, OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: gate.url, OPENAI_API: 'chat' });

// The built packages, as a user of the server and of the SDK loads them.
const { startCairnServer } = await import(new URL('../../../packages/server/dist/index.js', import.meta.url).href);
const { createCairn, registry } = await import(new URL('../../../packages/sdk/dist/index.js', import.meta.url).href);

const store = createSqliteStore({ path: join(home, 'agents.db') });
/** `${runId} ${offset}` -> performance.now() when the append holding it resolved. */
const appendedAt = new Map();
const append = store.runEvents.append.bind(store.runEvents);
store.runEvents.append = async (runId, events) => {
  const result = await append(runId, events);
  const now = performance.now();
  for (let offset = result.lastOffset - events.length + 1; offset <= result.lastOffset; offset++) appendedAt.set(`${runId} ${offset}`, now);
  return result;
};

const server = await startCairnServer({ store, port: 0, roots: [cwd], home, chatPage: false, token: 'bench-token-0123456789' });
const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
const { Agent } = createCairn({ registry, defaultStore: () => store });

async function api(method, path, body) {
  const response = await fetch(server.url + path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * The SSE clients run in a worker thread (their own event loop, as a client in another process would
 * have), so parsing the streams does not delay the server's writes. Arrival times cross over as
 * `performance.timeOrigin + performance.now()` (one clock for both threads).
 */
const clientCode = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ url, authorization, runId }) => {
  try {
    const response = await fetch(url, { headers: { authorization } });
    if (!response.ok) throw new Error('events of ' + runId + ': ' + response.status);
    parentPort.postMessage({ runId, open: true });
    const arrivals = [];
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let ended = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const at = performance.timeOrigin + performance.now();
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\\n\\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: ?(\\d+)$/m.exec(block);
        if (id) arrivals.push(Number(id[1]), at);
        if (/^event: ?end$/m.test(block)) ended = true;
      }
    }
    if (!ended) throw new Error('the stream of ' + runId + ' closed without an end event');
    parentPort.postMessage({ runId, arrivals });
  } catch (error) {
    parentPort.postMessage({ runId, error: String(error?.stack ?? error) });
  }
});`;
const clients = new Worker(clientCode, { eval: true });
clients.unref();
clients.on('error', (error) => {
  for (const client of following.values()) client.failed(error);
});
const following = new Map();
clients.on('message', (message) => {
  const client = following.get(message.runId);
  if (message.open) return client.opened();
  following.delete(message.runId);
  if (message.error) return client.failed(new Error(message.error));
  const arrivals = [];
  for (let index = 0; index < message.arrivals.length; index += 2) arrivals.push({ offset: message.arrivals[index], at: message.arrivals[index + 1] - performance.timeOrigin });
  client.ended(arrivals);
});

/** Follow a run's SSE stream from the start; resolves once it is open, with `done` for its end. */
function followSse(runId) {
  return new Promise((opened, failed) => {
    const done = new Promise((ended, failedLater) => {
      following.set(runId, {
        opened: () => opened({ done }),
        ended,
        failed: (error) => {
          failed(error);
          failedLater(error);
        },
      });
    });
    done.catch(() => undefined);
    clients.postMessage({ url: `${server.url}/v1/runs/${runId}/events`, authorization: headers.authorization, runId });
  });
}

/** Follow a run in process with `run.storedEvents()`; resolves at once, with `done` for its end. */
function followInProcess(run) {
  const arrivals = [];
  const done = (async () => {
    for await (const stored of run.storedEvents()) arrivals.push({ offset: stored.offset, at: performance.now() });
    return arrivals;
  })();
  return Promise.resolve({ done });
}

/** Every event of a run exactly once, in order: the client's offsets against the store's. */
async function exactlyOnce(runId, arrivals) {
  const stored = [];
  let afterOffset = 0;
  for (;;) {
    const page = await store.runEvents.list(runId, { afterOffset, limit: 1000 });
    if (page.events.length === 0) break;
    stored.push(...page.events.map((event) => event.offset));
    afterOffset = page.nextOffset;
  }
  const got = arrivals.map((arrival) => arrival.offset);
  return { ok: got.length === stored.length && got.every((offset, index) => offset === stored[index]), got: got.length, stored: stored.length, duplicates: got.length - new Set(got).size };
}

/** The server's agents (over HTTP) and the in-process ones, each with a way to start a run and follow it. */
const subjects = {
  sse: {
    createAgent: async () => (await api('POST', '/v1/agents', { model, local: { cwd } })).agent.agentId,
    send: async (agentId) => (await api('POST', `/v1/agents/${agentId}/runs`, { text: 'write a long text' })).id,
    follow: (runId) => followSse(runId),
  },
  inProcess: {
    handles: new Map(),
    runs: new Map(),
    async createAgent() {
      const agent = await Agent.create({ model, local: { cwd } });
      this.handles.set(agent.agentId, agent);
      return agent.agentId;
    },
    async send(agentId) {
      const run = await this.handles.get(agentId).send('write a long text');
      this.runs.set(run.id, run);
      return run.id;
    },
    follow(runId) {
      return followInProcess(this.runs.get(runId));
    },
  },
};

/**
 * One round: `agents.length` runs started with the model's requests held, a client following each,
 * then the model released. Returns wall time (release to the last client's end), the live events'
 * latencies (appended after the release) and the exactly-once checks.
 */
async function followRound(subject, agents) {
  gate.hold();
  const runIds = await Promise.all(agents.map((agentId) => subject.send(agentId)));
  const clients = await Promise.all(runIds.map((runId) => subject.follow(runId)));
  const released = performance.now();
  gate.release();
  const results = await Promise.all(clients.map((client) => client.done));
  const wallMs = performance.now() - released;
  const latencies = [];
  let events = 0;
  const checks = [];
  for (const [index, arrivals] of results.entries()) {
    events += arrivals.length;
    checks.push(await exactlyOnce(runIds[index], arrivals));
    for (const { offset, at } of arrivals) {
      const appended = appendedAt.get(`${runIds[index]} ${offset}`);
      if (appended !== undefined && appended >= released) latencies.push(at - appended);
    }
  }
  return { wallMs, events, latencies, checks };
}

const summarise = (values) => ({ events: values.length, p50Ms: round(percentile(values, 50), 2), p95Ms: round(percentile(values, 95), 2), maxMs: round(Math.max(...values), 2) });

try {
  const names = ['sse', 'inProcess'];
  const latencyAgents = Object.fromEntries(await Promise.all(names.map(async (name) => [name, [await subjects[name].createAgent()]])));
  // Warm-up: one run of each (module and statement caches, the HTTP connection pool).
  for (const name of names) await followRound(subjects[name], latencyAgents[name]);

  // 1. Latency: one run at a time, the two subjects interleaved (order alternating).
  const latency = { sse: [], inProcess: [] };
  const checks = { sse: [], inProcess: [] };
  for (let index = 0; index < latencyRounds; index++) {
    for (const name of index % 2 ? [...names].reverse() : names) {
      const result = await followRound(subjects[name], latencyAgents[name]);
      latency[name].push(...result.latencies);
      checks[name].push(...result.checks);
    }
  }

  // 2. Throughput: `streams` agents, one run each, all followed at once.
  const concurrentAgents = Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await Promise.all(Array.from({ length: streams }, () => subjects[name].createAgent()))])),
  );
  const throughput = { sse: [], inProcess: [] };
  for (let index = 0; index < concurrentRounds; index++) {
    for (const name of index % 2 ? [...names].reverse() : names) {
      const result = await followRound(subjects[name], concurrentAgents[name]);
      throughput[name].push({ eventsPerSecond: result.events / (result.wallMs / 1000), events: result.events, wallMs: result.wallMs });
      checks[name].push(...result.checks);
    }
  }
  if (fake.problems.length) throw new Error(`invalid model requests: ${fake.problems.slice(0, 3).join('; ')}`);

  const latencySummary = { sse: summarise(latency.sse), inProcess: summarise(latency.inProcess) };
  const perSecond = (name) => round(median(throughput[name].map((sample) => sample.eventsPerSecond)), 0);
  const throughputSummary = Object.fromEntries(
    names.map((name) => [name, { eventsPerSecond: perSecond(name), eventsPerRound: throughput[name][0].events, wallMs: round(median(throughput[name].map((sample) => sample.wallMs)), 1) }]),
  );
  const exactly = (name) => ({ runs: checks[name].length, allExactlyOnce: checks[name].every((check) => check.ok), failures: checks[name].filter((check) => !check.ok) });
  const ratios = {
    latencyP50: round(latencySummary.sse.p50Ms / latencySummary.inProcess.p50Ms, 2),
    latencyP95: round(latencySummary.sse.p95Ms / latencySummary.inProcess.p95Ms, 2),
    throughput: round(throughputSummary.sse.eventsPerSecond / throughputSummary.inProcess.eventsPerSecond, 2),
  };
  const added = { p50Ms: round(latencySummary.sse.p50Ms - latencySummary.inProcess.p50Ms, 2), p95Ms: round(latencySummary.sse.p95Ms - latencySummary.inProcess.p95Ms, 2) };
  const sseExact = exactly('sse');
  const targets = [
    { measure: 'SSE latency, store append to client, p50 (vs in-process `run.storedEvents()`)', aim: '', measured: `${latencySummary.sse.p50Ms} ms vs ${latencySummary.inProcess.p50Ms} ms (+${added.p50Ms} ms, ${ratios.latencyP50}x)`, met: true },
    { measure: 'SSE latency, store append to client, p95 (vs in-process)', aim: '', measured: `${latencySummary.sse.p95Ms} ms vs ${latencySummary.inProcess.p95Ms} ms (+${added.p95Ms} ms, ${ratios.latencyP95}x)`, met: true },
    { measure: `SSE events/s, ${streams} concurrent streams (vs in-process)`, aim: '', measured: `${throughputSummary.sse.eventsPerSecond} vs ${throughputSummary.inProcess.eventsPerSecond} (${ratios.throughput}x)`, met: true },
    { measure: 'SSE: every client got every event of its run exactly once', aim: 'all', measured: `${sseExact.allExactlyOnce ? 'yes' : 'no'} (${sseExact.runs} runs)`, met: sseExact.allExactlyOnce },
  ];
  console.log(
    JSON.stringify({
      benchmark: 'server-sse',
      subject: 'packages/server/dist (built), GET /v1/runs/{id}/events, SQLite store; baseline run.storedEvents() in process',
      textChars: text.length,
      latencyRounds,
      concurrentRounds,
      streams,
      latency: latencySummary,
      addedLatency: added,
      throughput: throughputSummary,
      ratios,
      exactlyOnce: { sse: sseExact, inProcess: exactly('inProcess') },
      targets,
    }),
  );
  if (!sseExact.allExactlyOnce || !exactly('inProcess').allExactlyOnce) process.exitCode = 1;
} finally {
  for (const agent of subjects.inProcess.handles.values()) await agent.close();
  await server.close();
  await gate.stop();
  await fake.close();
  await store.close?.();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
// Everything above is closed, but a handle of the closed agents can keep the loop alive for a
// while; the result is written (stdout to a pipe or file is synchronous), so end here.
process.exit();

/** A proxy in front of the model that holds requests while closed (`hold()`), and lets them through at `release()`. */
async function startGate(upstream) {
  let opened = Promise.resolve();
  let release = () => undefined;
  const proxy = createServer((incoming, outgoing) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', async () => {
      await opened;
      const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, path: incoming.url.replace(/^\/v1/, upstream.pathname), method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', (error) => outgoing.destroy(error));
      forwarded.end(Buffer.concat(chunks));
    });
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${proxy.address().port}/v1`,
    hold() {
      opened = new Promise((resolve) => (release = resolve));
    },
    release() {
      release();
    },
    stop: () => new Promise((resolve) => {
      proxy.close(() => resolve());
      proxy.closeAllConnections();
    }),
  };
}
