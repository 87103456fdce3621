import { mkdirSync, statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { EmbeddingModelV1 } from '@cairn/core';
import { canonicalWorkspaceRoot, IgnoreRules, isInsideRoot, toPosix } from '@cairn/core/workspace-files';
import type { ChunkFileOptions } from './chunk-file.js';
import { chunkWorkerUrl } from './chunk-worker-url.js';
import { ChunkPool, defaultChunkWorkers } from './chunk-workers.js';
import { embeddingModelKey } from './embed-chunks.js';
import { WorkspaceRoles } from './file-role.js';
import { type EmbedPendingResult, embedPending } from './embed-pending.js';
import { contentHash, merkleTree } from './hashing.js';
import { IndexStore, type FileRecord } from './index-store.js';
import { clearScanState, readScanState, saveScanState, type ScanState, stateListings, writeScanState } from './scan-state.js';
import { applyPrepared, type PreparedFile, prepareFiles } from './prepare-files.js';
import { loadRulesFor, type ScanResult, type SkipReason, scanWorkspace } from './scan-workspace.js';
import { searchChunks } from './search-chunks.js';
import { type FileCounts, skippedSummary, type TreeSync, unchangedTree } from './tree-sync.js';
import { compareTree, firstFileOfFolders, statePath } from './tree-check.js';
import type { CodebaseIndex, CreateIndexOptions, IndexProgress, IndexStats, SearchOptions, SearchResult, SyncOptions, SyncResult } from './types.js';

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
  private roles: WorkspaceRoles | undefined;
  private rules: IgnoreRules | undefined;
  private readonly maxFileBytes: number;
  private readonly model: EmbeddingModelV1 | undefined;

  constructor(readonly cwd: string, readonly dbPath: string, private readonly store: IndexStore, private readonly options: CreateIndexOptions) {
    this.maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
    this.model = options.embeddingModel;
    this.chunkOptions = { ...(options.chunking === 'lines' ? { strategy: 'lines' as const } : {}), ...options.chunkSize };
    this.chunkPool = new ChunkPool(options.parseWorkers ?? defaultChunkWorkers(), chunkWorkerUrl);
  }

  private readonly chunkPool: ChunkPool;

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

  private get limits(): { maxFileBytes: number; maxFiles: number } {
    return { maxFileBytes: this.maxFileBytes, maxFiles: this.options.maxFiles ?? 100_000 };
  }

  sync(syncOptions: SyncOptions = {}): Promise<SyncResult> {
    return this.exclusive(() => this.syncNow(syncOptions));
  }

  /**
   * `sync()` inside the writer queue. `rootHashNow` false leaves the Merkle root (a read of the whole
   * files table) to whoever asks for it next.
   */
  private async syncNow(syncOptions: SyncOptions, rootHashNow = true): Promise<SyncResult> {
    const signal = syncOptions.abortSignal;
    const limits = this.limits;
    const state = readScanState(this.store, limits);
    // The common cases, a tree exactly as the last sync left it or with files edited in place, cost
    // one stat per folder and file (and reading the edited files): no walk, no files table.
    const diff = state ? compareTree(this.cwd, state) : undefined;
    let tree: TreeSync | undefined;
    if (state && diff?.kind === 'same') tree = unchangedTree(state);
    else if (state && diff?.kind === 'edited') tree = await this.applyEdits(state, diff.files, signal);
    tree ??= await this.scanAndApply(state, limits, signal);
    if (!tree.scan) this.progress({ phase: 'scan', files: tree.totalFiles, totalFiles: tree.totalFiles, chunks: 0, embedded: 0 });
    const { counts, skips, totalFiles } = tree;
    const embedding = await this.embedPending(signal);
    const rootHash = this.rootHash(tree.unchanged, rootHashNow);
    if (tree.scan && (!tree.unchanged || tree.scan.foldersRead > 0)) writeScanState(this.store, tree.scan, limits, skips);
    this.progress({ phase: 'done', files: totalFiles, totalFiles, chunks: counts.chunks, embedded: embedding.embedded });
    const skipped = skippedSummary(tree.tooLarge, skips, tree.sizeOf);
    return {
      ...counts, skippedFiles: skipped.total, skipped: skipped.counts, largestSkipped: skipped.largest,
      embedded: embedding.embedded, rootHash, ...(embedding.error ? { embeddingError: embedding.error, embeddingPending: embedding.pending } : {}),
    };
  }

  /**
   * The Merkle root over (path, hash), stored in `meta`. '' there means "not computed since the last
   * change": reading the files table of a 13 000-file tree and hashing it costs about 100 ms, which
   * `updateFiles` and a `searchFresh` after an edit leave to the next `sync()` or `stats()`.
   */
  private rootHash(unchanged: boolean, computeNow: boolean): string {
    const stored = this.store.getMeta('root_hash');
    if (unchanged && stored) return stored;
    if (!computeNow) {
      if (stored) this.store.setMeta('root_hash', '');
      return '';
    }
    const rootHash = merkleTree(this.store.files().values()).root;
    if (rootHash !== stored) this.store.setMeta('root_hash', rootHash);
    return rootHash;
  }

  /**
   * The tree differs from the state only in files edited in place: read those again and bring the
   * state's numbers up to date, in one transaction — no walk, no files table. Undefined when one of
   * them crosses the size limit or was or becomes binary / unreadable / gone (the skipped lists
   * change): the caller walks instead.
   */
  private async applyEdits(state: ScanState, files: number[], signal?: AbortSignal): Promise<TreeSync | undefined> {
    const firstFiles = firstFileOfFolders(state);
    const paths = files.map((file) => statePath(state, firstFiles, file));
    if (paths.some((path, index) => path in state.skippedWhenRead || (state.fileStats[2 * (files[index] as number)] as number) > state.maxFileBytes)) return undefined;
    const prepared = await this.prepareFiles(paths, this.store.filesByPaths(paths));
    if (prepared.some((item) => item.type === 'remove')) return undefined;
    signal?.throwIfAborted();
    let indexedFiles = 0;
    let chunks = 0;
    prepared.forEach((item, index) => {
      if (item.type === 'remove') return;
      const file = files[index] as number;
      // A file written in the last moments is recorded with mtime -1 (trustedMtime): read again next time.
      state.fileStats[2 * file] = item.record.size;
      state.fileStats[2 * file + 1] = item.record.mtimeMs;
      if (item.type === 'write') {
        indexedFiles++;
        chunks += item.chunks.length;
      }
    });
    this.store.transaction(() => {
      this.applyPrepared(prepared);
      saveScanState(this.store, state);
      this.store.setMeta('root_hash', '');
    });
    const tree = unchangedTree(state);
    return { ...tree, unchanged: false, counts: { ...tree.counts, indexedFiles, unchangedFiles: tree.counts.unchangedFiles - indexedFiles, chunks } };
  }

  /**
   * `sync()` then `search()` in one turn of the writer queue, leaving the Merkle root to the next
   * `sync()` or `stats()`: the answer never predates the tree, and an unchanged tree costs one stat
   * per folder and file before the query. With an embedding model, chunks still without a vector
   * are embedded first (sync does that).
   */
  searchFresh(query: string, options: SearchOptions = {}): Promise<SearchResult[]> {
    const syncOptions = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    return this.exclusive(async () => {
      await this.syncNow(syncOptions, false);
      return this.search(query, options);
    });
  }

  /** Walk the tree (reusing the state's listings of unchanged folders) and apply what changed. */
  private async scanAndApply(state: ScanState | undefined, limits: { maxFileBytes: number; maxFiles: number }, signal?: AbortSignal): Promise<TreeSync> {
    const scan = await scanWorkspace(this.cwd, {
      ...limits,
      ...(state ? { previousFolders: stateListings(state) } : {}),
      ...(signal ? { abortSignal: signal } : {}),
      onFile: (count) => this.progress({ phase: 'scan', files: count, totalFiles: 0, chunks: 0, embedded: 0 }),
    });
    this.rules = scan.rules;
    const totalFiles = scan.files.length;
    this.progress({ phase: 'scan', files: totalFiles, totalFiles, chunks: 0, embedded: 0 });
    // Found binary or unreadable when read (this sync or, unchanged since, an earlier one).
    const skips = new Map<string, SkipReason>();
    const unchanged = state !== undefined && scan.unchanged;
    let counts: FileCounts;
    if (unchanged) {
      for (const [path, reason] of Object.entries(state.skippedWhenRead)) skips.set(path, reason);
      counts = { indexedFiles: 0, removedFiles: 0, unchangedFiles: totalFiles - skips.size, chunks: 0 };
    } else {
      // An interrupted sync must not leave a state that claims the index matches the tree.
      if (state) clearScanState(this.store);
      counts = await this.syncChangedFiles(scan, skips, signal);
    }
    const sizes = skips.size > 0 ? new Map(scan.files.map((file) => [file.path, file.size])) : new Map<string, number>();
    return { unchanged, totalFiles, counts, skips, tooLarge: scan.tooLarge, sizeOf: (path) => sizes.get(path) ?? 0, scan };
  }

  /** Compare the scan with the files table; read, chunk and write what changed, in batches. */
  private async syncChangedFiles(scan: ScanResult, skips: Map<string, SkipReason>, signal?: AbortSignal): Promise<FileCounts> {
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
    let unchanged = totalFiles - changed.length - skips.size;
    let indexedFiles = 0;
    let chunkCount = 0;
    const batchSize = this.options.batchSize ?? 64;
    const prepareBatch = (start: number) => {
      const preparing = this.prepareFiles(changed.slice(start, start + batchSize).map((file) => file.path), stored);
      preparing.catch(() => undefined); // awaited below; a stop in between must not leave it unhandled
      return preparing;
    };
    let next = changed.length > 0 ? prepareBatch(0) : undefined;
    for (let start = 0; start < changed.length; start += batchSize) {
      signal?.throwIfAborted();
      const batch = await (next as Promise<PreparedFile[]>);
      // The workers chunk the next batch while this one is written (SQLite runs on this thread).
      next = start + batchSize < changed.length ? prepareBatch(start + batchSize) : undefined;
      this.store.transaction(() => this.applyPrepared(batch));
      for (const item of batch) {
        if (item.type === 'write') {
          indexedFiles++;
          chunkCount += item.chunks.length;
        } else if (item.type === 'touch') unchanged++;
        else if (item.reason) skips.set(item.path, item.reason);
      }
      this.progress({ phase: 'chunk', files: totalFiles - changed.length + Math.min(changed.length, start + batchSize), totalFiles, chunks: chunkCount, embedded: 0 });
    }
    return { indexedFiles, removedFiles: removed.length, unchangedFiles: unchanged, chunks: chunkCount };
  }

  /** Read, hash and chunk files (async, outside any transaction); the chunking runs in the worker pool. */
  private prepareFiles(paths: string[], stored: Map<string, FileRecord>): Promise<PreparedFile[]> {
    return prepareFiles(paths, stored, { cwd: this.cwd, maxFileBytes: this.maxFileBytes, chunkPool: this.chunkPool, chunkOptions: this.chunkOptions });
  }

  private applyPrepared(batch: PreparedFile[]): void {
    // The file's role (source, test, docs, ...) ranks its chunks.
    this.roles ??= new WorkspaceRoles(this.cwd);
    applyPrepared(this.store, batch, this.roles);
  }

  private embedPending(signal?: AbortSignal): Promise<EmbedPendingResult> {
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
      // Computed by the next sync() or stats(): about 100 ms on a 13 000-file tree, after every edit.
      this.store.setMeta('root_hash', '');
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
      // The files are still on disk: the next sync must see them as new, not as unchanged.
      if (targets.length > 0) clearScanState(this.store);
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
      ...(searchOptions.onEmbeddingError ? { onEmbeddingError: searchOptions.onEmbeddingError } : {}),
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
    // Not stored: a sync may be writing, and a root of half its files must never be kept.
    const rootHash = this.store.getMeta('root_hash') || merkleTree(this.store.files().values()).root;
    return { dbPath: this.dbPath, ...counts, bytesOnDisk, rootHash, ...(model ? { embeddingModel: model } : {}) };
  }

  close(): void {
    this.closed = true;
    for (const stop of [...this.watchers]) stop();
    // Let a write in progress finish before the database goes away.
    const release = () => {
      this.store.close();
      void this.chunkPool.close();
    };
    if (this.pendingWrites === 0) release();
    else void this.queue.finally(release);
  }
}
