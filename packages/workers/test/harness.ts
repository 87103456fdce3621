import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentOptions, RunEvent } from '@cairn/core';
import { type ChatCompletionsServer, type ChatCompletionsTurn, startChatCompletionsServer } from '@cairn/core/testing';
import { type AgentApi, createCairn } from '@cairn/core/node';
import { registry } from '@cairn/sdk';
import { createPostgresStore, type PostgresStore } from '@cairn/store-postgres';
import { type FreshSchema, freshSchema } from '@cairn/store-postgres/testing';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';
import { createRunQueue, type RunQueue, type RunQueueOptions } from '../src/run-queue.js';
import type { StartWorkerOptions } from '../src/worker-options.js';
import { startWorker, type Worker } from '../src/worker.js';
import type { WorkerLogger } from '../src/logger.js';

type Body = Record<string, any>;

export const model = 'openai/gpt-4.1-mini';

/** The user's own words of the newest user message, out of the context blocks the runtime wraps them in. */
export function lastUserText(body: Body): string {
  const user = [...body.messages].reverse().find((message: { role: string }) => message.role === 'user');
  const content = user?.content;
  const raw = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('\n') : '';
  return /<user_query>\n([\s\S]*?)\n<\/user_query>/.exec(raw)?.[1] ?? raw;
}

/** The tool results the model is answering now: those after the newest assistant turn (earlier runs' results do not count). */
export function toolResults(body: Body): string[] {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const results: string[] = [];
  for (let index = messages.length - 1; index >= 0 && messages[index]?.role === 'tool'; index--) results.unshift(String(messages[index]?.content));
  return results;
}

/** A logger that keeps what a worker reports, so a test can show it when it fails. */
export function memoryLogger(): WorkerLogger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  return { lines, error: keep('error'), warn: keep('warn'), info: keep('info') };
}

/**
 * A world of processes sharing one PostgreSQL, in one test process: each `cairn()` is what one
 * process would have (its own createCairn, so its own lease owner), each store is its own
 * instance and pool, and the model is the fake OpenAI-compatible server answering `route`.
 */
export interface World {
  url: string;
  storeSchema: string;
  graphileSchema: string;
  server: ChatCompletionsServer;
  /** Answers of the fake model for the current test (last user text and the request body). */
  route: (text: string, body: Body) => ChatCompletionsTurn;
  env: Record<string, string | undefined>;
  cwd: string;
  /** `local` options every process gives its agents (e.g. the sandbox for shell commands). */
  local: Record<string, unknown>;
  openStore(): Promise<PostgresStore>;
  queue(options?: Partial<RunQueueOptions>): Promise<RunQueue>;
  /** A process's Agent API. */
  cairn(options?: { leaseTtlMs?: number }): AgentApi;
  /** A background agent as a sending process creates it. */
  sender(queue: RunQueue, options?: Partial<AgentOptions>): Promise<{ agent: Awaited<ReturnType<AgentApi['create']>>; store: PostgresStore }>;
  /** A worker process: its own store instance and Agent API; `openAgent` resumes agents with the world's env. */
  worker(options?: Partial<StartWorkerOptions> & { leaseTtlMs?: number }): Promise<Worker & { store: PostgresStore; logger: ReturnType<typeof memoryLogger> }>;
  sql<R extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<R[]>;
}

export function useWorld(url: string): () => World {
  let world: World | undefined;
  const closers: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    const schemas: FreshSchema[] = [await freshSchema(url), await freshSchema(url)];
    closers.push(async () => {
      for (const schema of schemas) await schema.drop();
    });
    const admin = new pg.Pool({ connectionString: url, max: 2 });
    closers.push(() => admin.end());
    const current: World = {
      url,
      storeSchema: schemas[0]!.schema,
      graphileSchema: schemas[1]!.schema,
      route: () => ({ text: 'ok' }),
      server: await startChatCompletionsServer((body) => current.route(lastUserText(body), body)),
      env: {},
      local: {},
      cwd: await mkdtemp(join(tmpdir(), 'cairn-workers-agent-')),
      async openStore() {
        const store = await createPostgresStore({ connectionString: url, schema: current.storeSchema, poolSize: 4 });
        closers.push(() => store.close());
        return store;
      },
      async queue(options = {}) {
        const queue = await createRunQueue({ connectionString: url, graphileSchema: current.graphileSchema, ...options });
        closers.push(() => queue.close());
        return queue;
      },
      cairn(options = {}) {
        return createCairn({ registry, ...(options.leaseTtlMs ? { leaseTtlMs: options.leaseTtlMs } : {}) }).Agent;
      },
      async sender(queue, options = {}) {
        const store = await current.openStore();
        const agent = await current.cairn().create({ model, background: queue, env: current.env, retry: { maxAttempts: 1 }, ...options, local: { cwd: current.cwd, store, ...current.local, ...options.local } });
        closers.push(() => agent.close());
        return { agent, store };
      },
      async worker(options = {}) {
        const store = await current.openStore();
        const Agent = current.cairn(options.leaseTtlMs ? { leaseTtlMs: options.leaseTtlMs } : {});
        const logger = memoryLogger();
        const worker = await startWorker({
          connectionString: url,
          store,
          graphileSchema: current.graphileSchema,
          reapIntervalMs: 200,
          logger,
          openAgent: (agentId, { cwd }) => Agent.resume(agentId, { env: current.env, retry: { maxAttempts: 1 }, local: { store, ...current.local, ...(cwd ? { cwd } : {}) } }),
          ...options,
        });
        closers.push(() => worker.stop({ graceMs: 0 }));
        return Object.assign(worker, { store, logger });
      },
      async sql(text, values = []) {
        return (await admin.query(text, values)).rows;
      },
    };
    const home = await mkdtemp(join(tmpdir(), 'cairn-workers-home-'));
    current.env = { ...process.env, HOME: home, CAIRN_HOME: join(home, '.cairn'), OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: current.server.url, OPENAI_API: 'chat' };
    closers.push(() => current.server.close());
    world = current;
  });
  afterEach(async () => {
    // Last opened, first closed: workers stop before the stores and schemas they use go away.
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    world = undefined;
  });
  return () => {
    if (!world) throw new Error('The world exists inside tests only.');
    return world;
  };
}

export { processesWith } from '../../../scripts/testing/processes.js';

/** Every event of a run's log so far. */
export async function loggedEvents(store: PostgresStore, runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (let afterOffset = 0; ; ) {
    const page = await store.runEvents.list(runId, { afterOffset, limit: 1000 });
    if (page.events.length === 0) return events;
    events.push(...page.events.map((stored) => stored.event));
    afterOffset = page.nextOffset;
  }
}

/** Polls `read` until `done` holds (or fails the test after `timeoutMs`, showing the last value). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
