import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveWorkerOptions, type StartWorkerOptions } from '../src/worker-options.js';

const base = { store: {} as StartWorkerOptions['store'], openAgent: async () => ({}) as never };

describe('worker options', () => {
  it('defaults: one run at a time, clones under the temp folder, reaping every 2 s, 30 s of grace', () => {
    expect(resolveWorkerOptions(base)).toEqual({ concurrency: 1, workDir: join(tmpdir(), 'cairn-workers'), reapIntervalMs: 2000, shutdownGraceMs: 30_000, graphileSchema: 'graphile_worker' });
  });

  it('refuses what cannot work, naming the option and the fix', () => {
    expect(() => resolveWorkerOptions({ ...base, concurrency: 0 })).toThrow('Invalid concurrency 0: use a whole number from 1 to 1000 (default 1).');
    expect(() => resolveWorkerOptions({ ...base, concurrency: 1.5 })).toThrow('Invalid concurrency 1.5');
    expect(() => resolveWorkerOptions({ ...base, reapIntervalMs: -1 })).toThrow('Invalid reapIntervalMs -1: use a whole number from 10 to 3600000 ms (default 2000 ms).');
    expect(() => resolveWorkerOptions({ ...base, shutdownGraceMs: Number.NaN })).toThrow('Invalid shutdownGraceMs NaN');
    expect(() => resolveWorkerOptions({ ...base, graphileSchema: 'pg_catalog' })).toThrow('Invalid graphileSchema "pg_catalog"');
    expect(() => resolveWorkerOptions({ ...base, workDir: '' })).toThrow('Invalid workDir');
    expect(() => resolveWorkerOptions({ ...base, connectionString: 'postgres://x', pool: {} as never })).toThrow('Pass either connectionString or pool to startWorker, not both');
    expect(() => resolveWorkerOptions({ store: base.store } as StartWorkerOptions)).toThrow('startWorker needs openAgent(agentId, { cwd })');
    expect(() => resolveWorkerOptions({ openAgent: base.openAgent } as unknown as StartWorkerOptions)).toThrow('startWorker needs the store');
  });
});
