import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type ChunkFileOptions, chunkFile } from './chunk-file.js';
import type { Chunk } from './types.js';

export interface ChunkRequest {
  id: number;
  path: string;
  text: string;
  options: ChunkFileOptions;
}

export type ChunkResponse = { id: number; chunks: Chunk[] } | { id: number; error: string };

/** Below this many files a batch is chunked on the calling thread: a worker's start-up (grammars) costs more. */
export const sequentialBatchFiles = 16;

/** Default pool size: one worker per core the process may use, at most 8. */
export function defaultChunkWorkers(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

interface PooledWorker {
  worker: Worker;
  pending: Map<number, { resolve(chunks: Chunk[]): void; reject(error: Error): void }>;
}

/**
 * Tree-sitter parsing and chunking in worker threads (53 % of a full index on one core before).
 * Workers start on the first batch large enough, each file goes to the worker with the fewest files
 * in flight, and results are the same `chunkFile` output as on the calling thread. Idle workers are
 * unref'd, so an index that is never closed does not keep a process alive.
 */
export class ChunkPool {
  private readonly workers: PooledWorker[] = [];
  private nextId = 0;
  private closed = false;
  /** Files chunked in worker threads so far (for tests and benchmarks). */
  workerTasks = 0;

  constructor(
    readonly size: number,
    private readonly workerUrl: () => Promise<URL>,
  ) {}

  /** Chunks of each file, in order. Sequential for tiny batches or a pool of size 0. */
  async chunkAll(files: Array<{ path: string; text: string }>, options: ChunkFileOptions): Promise<Chunk[][]> {
    if (this.size === 0 || files.length < sequentialBatchFiles) {
      const results: Chunk[][] = [];
      for (const file of files) results.push(await chunkFile(file.path, file.text, options));
      return results;
    }
    await this.start();
    return Promise.all(files.map((file) => this.dispatch(file, options)));
  }

  private async start(): Promise<void> {
    if (this.workers.length > 0) return;
    if (this.closed) throw new Error('The index is closed.');
    const url = await this.workerUrl();
    for (let index = this.workers.length; index < this.size; index++) this.workers.push(this.spawn(url));
  }

  private spawn(url: URL): PooledWorker {
    const pooled: PooledWorker = { worker: new Worker(url), pending: new Map() };
    pooled.worker.unref();
    pooled.worker.on('message', (response: ChunkResponse) => {
      const task = pooled.pending.get(response.id);
      if (!task) return;
      pooled.pending.delete(response.id);
      if (pooled.pending.size === 0) pooled.worker.unref();
      if ('error' in response) task.reject(new Error(response.error));
      else {
        this.workerTasks++;
        task.resolve(response.chunks);
      }
    });
    // A crashed worker fails its files; the next batch starts a fresh one.
    const fail = (error: Error) => {
      for (const task of pooled.pending.values()) task.reject(error);
      pooled.pending.clear();
      const position = this.workers.indexOf(pooled);
      if (position >= 0) this.workers.splice(position, 1);
    };
    pooled.worker.on('error', fail);
    pooled.worker.on('exit', (code) => fail(new Error(`A chunk worker exited (code ${code}).`)));
    return pooled;
  }

  private dispatch(file: { path: string; text: string }, options: ChunkFileOptions): Promise<Chunk[]> {
    const pooled = this.workers.reduce((best, candidate) => (candidate.pending.size < best.pending.size ? candidate : best));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // While a file is in flight the worker keeps the process alive, or an await on it could end it.
      if (pooled.pending.size === 0) pooled.worker.ref();
      pooled.pending.set(id, { resolve, reject });
      pooled.worker.postMessage({ id, path: file.path, text: file.text, options } satisfies ChunkRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((pooled) => pooled.worker.terminate()));
  }
}
