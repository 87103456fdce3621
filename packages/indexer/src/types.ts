import type { EmbeddingModelV1 } from '@cairn/core';
import type { FileRole } from './file-role.js';

/** The kind of syntactic unit a chunk was cut at; `lines` for line-window chunks. */
export type ChunkKind =
  | 'function' | 'method' | 'class' | 'interface' | 'enum' | 'type' | 'module' | 'impl' | 'constructor' | 'variable' | 'block' | 'lines';

export interface Chunk {
  /** Posix path relative to the workspace root. */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  /** 1-based, inclusive. */
  endLine: number;
  symbol?: string;
  /** Every name the chunk defines (its `symbol` first); indexed in the weighted symbol column. */
  definedSymbols?: string[];
  kind: ChunkKind;
  text: string;
}

export interface IndexProgress {
  phase: 'scan' | 'chunk' | 'embed' | 'done';
  /** Files processed so far in this phase (scan: files seen). */
  files: number;
  totalFiles: number;
  chunks: number;
  embedded: number;
}

export interface SearchResult {
  /** Posix path relative to the workspace root. */
  path: string;
  startLine: number;
  endLine: number;
  /**
   * Higher is better: (BM25 relevance relative to the best hit + name-coverage bonus), or with
   * vectors the reciprocal-rank fusion of that order and the vector order; times the file role's
   * weight (source 1, tests / docs / generated below).
   */
  score: number;
  /** The defined name the query matched best (a merged helper, a class member), else the chunk's main name. */
  symbol?: string;
  kind?: ChunkKind;
  /** What the file is for: source, test, spec, fixture, benchmark, generated, vendored or docs. */
  role?: FileRole;
  /** The chunk's lines that match the query best (a few lines, not the whole chunk). */
  snippet: string;
  /** 1-based line of the snippet's first line. */
  snippetLine?: number;
  /** The evidence behind `score`: BM25 relative to the best hit (0..1), name coverage, and cosine similarity when vectors were used. */
  scoreParts?: { bm25: number; name: number; vector?: number };
}

export interface SearchOptions {
  limit?: number;
  /** Workspace-relative folders (or files) to search in; empty = everywhere. */
  targetDirectories?: string[];
  abortSignal?: AbortSignal;
  /**
   * Called when the query could not be embedded (the embedding server is down, say): the search
   * still answers, from keywords only, and this says why vectors were left out.
   */
  onEmbeddingError?: (message: string) => void;
}

export interface SyncOptions {
  abortSignal?: AbortSignal;
}

export interface SyncResult {
  /** Files whose chunks were (re)written. */
  indexedFiles: number;
  removedFiles: number;
  unchangedFiles: number;
  /** Files of the workspace that are not indexed: `skipped.tooLarge + skipped.binary + skipped.unreadable`. */
  skippedFiles: number;
  /** Why: over `maxFileBytes`, a NUL byte in the first 8 KiB, or could not be opened (permissions). */
  skipped: { tooLarge: number; binary: number; unreadable: number };
  /** The largest skipped files (at most 5), largest first. */
  largestSkipped: SkippedFile[];
  chunks: number;
  embedded: number;
  /**
   * Set when the embedding model failed: keyword search still works, the vectors made before the
   * failure are kept, and the next sync embeds only the chunks still without one.
   */
  embeddingError?: string;
  /** With `embeddingError`: how many chunks still have no vector. */
  embeddingPending?: number;
  rootHash: string;
}

export interface SkippedFile {
  path: string;
  bytes: number;
  reason: 'tooLarge' | 'binary' | 'unreadable';
}

export interface IndexStats {
  dbPath: string;
  files: number;
  chunks: number;
  vectors: number;
  cachedEmbeddings: number;
  bytesOnDisk: number;
  rootHash: string;
  embeddingModel?: string;
}

export interface CreateIndexOptions {
  cwd: string;
  /** Where `index/` lives; default `$CAIRN_HOME` or `~/.cairn`. */
  home?: string;
  embeddingModel?: EmbeddingModelV1;
  onProgress?: (progress: IndexProgress) => void;
  /** Files larger than this are skipped (default 1 MiB). */
  maxFileBytes?: number;
  /** Stop scanning after this many files (default 100 000). */
  maxFiles?: number;
  /** Files chunked per transaction (default 64). */
  batchSize?: number;
  /**
   * Worker threads that parse and chunk files (default: \`os.availableParallelism()\`, at most 8);
   * 0 chunks on the calling thread. Batches under 16 files are always chunked on the calling thread.
   */
  parseWorkers?: number;
  /** `lines` cuts every file into line windows (for evaluations); default `syntax` (tree-sitter). */
  chunking?: 'syntax' | 'lines';
  /** Syntax chunk budget in characters (default max 2400 ≈ 600 tokens, siblings under 530 merged). */
  chunkSize?: { maxChars?: number; minChars?: number };
  /** Backoff for retryable embedding errors. */
  embeddingRetry?: { maxRetries?: number; initialDelayMs?: number };
}

export interface CodebaseIndex {
  readonly cwd: string;
  readonly dbPath: string;
  sync(options?: SyncOptions): Promise<SyncResult>;
  search(query: string, options?: SearchOptions): Promise<SearchResult[]>;
  /**
   * `sync()` then `search()` in one go, so the results always reflect the tree as it is now; the
   * Merkle root is left to the next `sync()` or `stats()` (about 100 ms on a large tree). What
   * `cairn search` runs.
   */
  searchFresh(query: string, options?: SearchOptions): Promise<SearchResult[]>;
  /** Re-index these files now (workspace-relative or absolute); missing files are removed. */
  updateFiles(paths: string[]): Promise<{ indexedFiles: number; removedFiles: number }>;
  removeFiles(paths: string[]): Promise<number>;
  /**
   * Keep the index fresh by polling: an incremental `sync()` every `intervalMs` (default 5 s; a sync
   * of an unchanged tree only stats files). Returns a function that stops it; `close()` stops it too.
   */
  watch(options?: { intervalMs?: number; onError?: (error: unknown) => void }): () => void;
  stats(): Promise<IndexStats>;
  close(): void;
}
