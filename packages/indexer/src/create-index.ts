import { mkdirSync, statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { EmbeddingModelV1 } from '@cairn/core';
import { canonicalWorkspaceRoot, IgnoreRules, isInsideRoot, toPosix } from '@cairn/core/node';
import { type ChunkFileOptions, chunkFile } from './chunk-file.js';
import { embeddingModelKey } from './embed-chunks.js';
import { embeddingInput, embedPending } from './embed-pending.js';
import { contentHash, merkleTree } from './hashing.js';
import { IndexStore, type FileRecord } from './index-store.js';
import { loadRulesFor, readTextFile, scanWorkspace } from './scan-workspace.js';
import { searchChunks } from './search-chunks.js';
import type { Chunk, CodebaseIndex, CreateIndexOptions, IndexProgress, IndexStats, SearchOptions, SearchResult, SyncOptions, SyncResult } from './types.js';

/** `$CAIRN_HOME/index/<hash of the canonical workspace path>.sqlite`. */
export function indexDatabasePath(canonicalRoot: string, home?: string): string {
  const base = home ?? process.env.CAIRN_HOME ?? join(homedir(), '.cairn');
  return join(base, 'index', `${contentHash(canonicalRoot).slice(0, 24)}.sqlite`);
}

export async function createIndex(options: CreateIndexOptions): Promise<CodebaseIndex> {
  const root = await canonicalWorkspaceRoot(options.cwd);
  const dbPath = indexDatabasePath(root, options.home);
  mkdirSync(join(dbPath, '..'), { recursive: true });
  return new WorkspaceIndex(root, dbPath, new IndexStore(dbPath), options);
}

class WorkspaceIndex implements CodebaseIndex {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private pendingWrites = 0;
  private readonly watchers = new Set<() => void>();
  private rules: IgnoreRules | undefined;
  private readonly maxFileBytes: number;
  private readonly model: EmbeddingModelV1 | undefined;

  constructor(readonly cwd: string, readonly dbPath: string, private readonly store: IndexStore, private readonly options: CreateIndexOptions) {
    this.maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
    this.model = options.embeddingModel;
    this.chunkOptions = { ...(options.chunking === 'lines' ? { strategy: 'lines' as const } : {}), ...options.chunkSize };
  }

  private readonly chunkOptions: ChunkFileOptions;

  /** Writers run one at a time, so a sync never writes a file's older content over an update. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The index is closed.'));
    this.pendingWrites++;
    const run = this.queue.then(work, work).finally(() => {
      this.pendingWrites--;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private progress(progress: IndexProgress): void {
    // A throwing listener stops the run; batches already committed stay usable.
    this.options.onProgress?.(progress);
  }

  sync(syncOptions: SyncOptions = {}): Promise<SyncResult> {
    return this.exclusive(async () => {
      const signal = syncOptions.abortSignal;
      const scan = await scanWorkspace(this.cwd, {
        maxFileBytes: this.maxFileBytes,
        maxFiles: this.options.maxFiles ?? 100_000,
        ...(signal ? { abortSignal: signal } : {}),
        onFile: (count) => this.progress({ phase: 'scan', files: count, totalFiles: 0, chunks: 0, embedded: 0 }),
      });
      this.rules = scan.rules;
      const stored = this.store.files();
      const seen = new Set(scan.files.map((file) => file.path));
      const removed = [...stored.keys()].filter((path) => !seen.has(path));
      this.store.transaction(() => {
        for (const path of removed) this.store.removeFile(path);
      });
      const changed = scan.files.filter((file) => {
        const previous = stored.get(file.path);
        return !previous || previous.size !== file.size || previous.mtimeMs !== file.mtimeMs;
      });
      const totalFiles = scan.files.length;
      this.progress({ phase: 'scan', files: totalFiles, totalFiles, chunks: 0, embedded: 0 });
      let unchanged = totalFiles - changed.length;
      let indexedFiles = 0;
      let skipped = scan.skipped;
      let chunkCount = 0;
      const batchSize = this.options.batchSize ?? 64;
      for (let start = 0; start < changed.length; start += batchSize) {
        signal?.throwIfAborted();
        const batch = await this.prepareFiles(changed.slice(start, start + batchSize).map((file) => file.path), stored);
        this.store.transaction(() => this.applyPrepared(batch));
        for (const item of batch) {
          if (item.type === 'write') {
            indexedFiles++;
            chunkCount += item.chunks.length;
          } else if (item.type === 'touch') unchanged++;
          else skipped++;
        }
        this.progress({ phase: 'chunk', files: unchanged + indexedFiles + skipped - scan.skipped, totalFiles, chunks: chunkCount, embedded: 0 });
      }
      const embedding = await this.embedPending(signal);
      const rootHash = merkleTree(this.store.files().values()).root;
      this.store.setMeta('root_hash', rootHash);
      this.progress({ phase: 'done', files: totalFiles, totalFiles, chunks: chunkCount, embedded: embedding.embedded });
      return {
        indexedFiles, removedFiles: removed.length, unchangedFiles: unchanged, skippedFiles: skipped, chunks: chunkCount,
        embedded: embedding.embedded, rootHash, ...(embedding.error ? { embeddingError: embedding.error } : {}),
      };
    });
  }

  /** Read, hash and chunk files (async, outside any transaction). */
  private async prepareFiles(paths: string[], stored: Map<string, FileRecord>): Promise<PreparedFile[]> {
    const prepared: PreparedFile[] = [];
    for (const path of paths) {
      const read = await readTextFile(join(this.cwd, path), this.maxFileBytes);
      if (!read) {
        prepared.push({ type: 'remove', path });
        continue;
      }
      const record: FileRecord = { path, hash: contentHash(read.text), size: read.size, mtimeMs: read.mtimeMs };
      if (stored.get(path)?.hash === record.hash) {
        prepared.push({ type: 'touch', record });
        continue;
      }
      const chunks = (await chunkFile(path, read.text, this.chunkOptions)).map((chunk) => ({ ...chunk, contentHash: contentHash(embeddingInput(chunk)) }));
      prepared.push({ type: 'write', record, chunks });
    }
    return prepared;
  }

  private applyPrepared(batch: PreparedFile[]): void {
    for (const item of batch) {
      if (item.type === 'write') this.store.writeFile(item.record, item.chunks);
      else if (item.type === 'touch') this.store.touchFile(item.record);
      else this.store.removeFile(item.path);
    }
  }

  private embedPending(signal?: AbortSignal): Promise<{ embedded: number; error?: string }> {
    return embedPending(this.store, this.model, {
      ...(signal ? { abortSignal: signal } : {}),
      ...(this.options.embeddingRetry ? { retry: this.options.embeddingRetry } : {}),
      onProgress: (progress) => this.progress(progress),
    });
  }

  private toRelative(inputPath: string): string | undefined {
    const absolute = resolve(this.cwd, inputPath);
    if (!isInsideRoot(this.cwd, absolute) || absolute === this.cwd) return undefined;
    return toPosix(relative(this.cwd, absolute));
  }

  updateFiles(paths: string[]): Promise<{ indexedFiles: number; removedFiles: number }> {
    return this.exclusive(async () => {
      this.rules ??= await IgnoreRules.load(this.cwd);
      const rules = this.rules;
      const stored = this.store.files();
      const toIndex: string[] = [];
      const toRemove: string[] = [];
      for (const inputPath of paths) {
        const path = this.toRelative(inputPath);
        if (!path) continue;
        await loadRulesFor(rules, path);
        const stats = await lstat(join(this.cwd, path)).catch(() => undefined);
        if (!stats?.isFile() || rules.ignores(path, false)) {
          if (stored.has(path)) toRemove.push(path);
        } else toIndex.push(path);
      }
      const prepared = await this.prepareFiles(toIndex, stored);
      for (const path of toRemove) prepared.push({ type: 'remove', path });
      this.store.transaction(() => this.applyPrepared(prepared));
      await this.embedPending();
      this.store.setMeta('root_hash', merkleTree(this.store.files().values()).root);
      return {
        indexedFiles: prepared.filter((item) => item.type === 'write').length,
        removedFiles: prepared.filter((item) => item.type === 'remove' && stored.has(item.path)).length,
      };
    });
  }

  removeFiles(paths: string[]): Promise<number> {
    return this.exclusive(async () => {
      const stored = this.store.files();
      const targets = paths.map((path) => this.toRelative(path)).filter((path): path is string => path !== undefined && stored.has(path));
      this.store.transaction(() => {
        for (const path of targets) this.store.removeFile(path);
      });
      return targets.length;
    });
  }

  async search(query: string, searchOptions: SearchOptions = {}): Promise<SearchResult[]> {
    const filters = this.pathFilters(searchOptions.targetDirectories ?? []);
    if (!filters) return [];
    const model = this.model && this.store.hasVectors && this.store.getMeta('embedding_model') === embeddingModelKey(this.model) ? this.model : undefined;
    return searchChunks(this.store, query, {
      limit: searchOptions.limit ?? 10,
      pathPrefixes: filters,
      ...(model ? { embeddingModel: model } : {}),
      ...(searchOptions.abortSignal ? { abortSignal: searchOptions.abortSignal } : {}),
      ...(this.options.embeddingRetry ? { retry: this.options.embeddingRetry } : {}),
    });
  }

  /** Workspace-relative prefixes; `[]` = no filter (also when the root is one of them); undefined = a folder outside. */
  private pathFilters(directories: string[]): string[] | undefined {
    const prefixes: string[] = [];
    for (const directory of directories) {
      const trimmed = directory.replace(/\/+$/, '');
      if (resolve(this.cwd, trimmed || '.') === this.cwd) return [];
      const relativePath = this.toRelative(trimmed);
      if (relativePath === undefined) return undefined;
      prefixes.push(relativePath);
    }
    return prefixes;
  }

  watch(watchOptions: { intervalMs?: number; onError?: (error: unknown) => void } = {}): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running || this.closed) return;
      running = true;
      this.sync()
        .catch((error) => watchOptions.onError?.(error))
        .finally(() => {
          running = false;
        });
    }, watchOptions.intervalMs ?? 5000);
    // Polling must never keep a CLI process alive on its own.
    timer.unref();
    const stop = () => {
      clearInterval(timer);
      this.watchers.delete(stop);
    };
    this.watchers.add(stop);
    return stop;
  }

  async stats(): Promise<IndexStats> {
    const counts = this.store.counts();
    let bytesOnDisk = 0;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        bytesOnDisk += statSync(this.dbPath + suffix).size;
      } catch {
        // no such file (no WAL yet)
      }
    }
    const model = this.store.getMeta('embedding_model');
    return { dbPath: this.dbPath, ...counts, bytesOnDisk, rootHash: this.store.getMeta('root_hash') ?? '', ...(model ? { embeddingModel: model } : {}) };
  }

  close(): void {
    this.closed = true;
    for (const stop of [...this.watchers]) stop();
    // Let a write in progress finish before the database goes away.
    if (this.pendingWrites === 0) this.store.close();
    else void this.queue.finally(() => this.store.close());
  }
}

type PreparedFile =
  | { type: 'write'; record: FileRecord; chunks: Array<Chunk & { contentHash: string }> }
  | { type: 'touch'; record: FileRecord }
  | { type: 'remove'; path: string };
