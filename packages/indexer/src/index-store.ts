import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FileRole } from './file-role.js';
import { pathTokens, tokenizeForIndex } from './tokenize.js';
import type { Chunk, ChunkKind } from './types.js';

export interface FileRecord {
  path: string;
  hash: string;
  size: number;
  mtimeMs: number;
}

export interface StoredChunk {
  id: number;
  path: string;
  startLine: number;
  endLine: number;
  symbol: string | null;
  kind: ChunkKind;
  contentHash: string;
  text: string;
  role: FileRole;
}

/** What re-ranking needs of a chunk, without its text. */
export interface ChunkNames {
  path: string;
  symbol: string | null;
  /** Every name the chunk defines, its symbol first. */
  names: string[];
  role: FileRole;
}

/**
 * better-sqlite3's compiled addon where its install puts it. Without this option it finds the file
 * through the `bindings` package, which probes a dozen paths: about 4 ms of every `cairn search`.
 * Undefined (the package's own lookup) when it is elsewhere.
 */
let nativeBinding: string | null | undefined;
function sqliteAddon(): string | undefined {
  if (nativeBinding === undefined) {
    try {
      const path = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
      nativeBinding = existsSync(path) ? path : null;
    } catch {
      nativeBinding = null;
    }
  }
  return nativeBinding ?? undefined;
}

// 2: the symbol column holds every name a chunk defines, not only its main symbol.
// 3: chunks carry their file's role (source, test, docs, ...) and every name they define.
const schemaVersion = '3';
// Column weights for bm25(): body text, path, symbol. A name the chunk defines is the strongest
// evidence: symbol weight 10 (from 3) lifted chunk-level recall@10 on both evaluation corpora by
// about 0.02; the path at 2 or 4 made no clear difference (docs/indexer.md).
const bm25Weights = '1.0, 2.0, 10.0';

/**
 * The SQLite file behind one workspace index. `chunks` holds the text and line ranges,
 * `chunks_fts` (contentless FTS5, rowid = chunk id) the identifier-aware tokens in three columns
 * (text, path, symbol) for weighted BM25, `embedding_cache` vectors by chunk content hash and
 * model, and `chunk_vectors` (sqlite-vec vec0) the vectors of the current chunks for KNN.
 */
export class IndexStore {
  readonly db: Database.Database;
  private vectorDimensions: number | undefined;

  constructor(readonly path: string) {
    const addon = sqliteAddon();
    this.db = new Database(path, addon ? { nativeBinding: addon } : {});
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // sqlite-vec scans vectors through the page cache; memory-mapping keeps KNN fast.
    this.db.pragma('mmap_size = 268435456');
    this.migrate();
    const dimensions = this.getMeta('vector_dimensions');
    this.vectorDimensions = dimensions ? Number(dimensions) : undefined;
    if (this.vectorDimensions !== undefined) this.loadVectorExtension();
  }

  private vectorExtensionLoaded = false;

  /**
   * sqlite-vec, for the `vec0` table. Loaded only for an index that has vectors (or is given a
   * model): a keyword search does not pay for resolving and loading the extension. Every use of
   * `chunk_vectors` comes after this (the others are guarded by `vectorDimensions`).
   */
  private loadVectorExtension(): void {
    if (this.vectorExtensionLoaded) return;
    (createRequire(import.meta.url)('sqlite-vec') as typeof import('sqlite-vec')).load(this.db);
    this.vectorExtensionLoaded = true;
  }

  private migrate(): void {
    const version = this.db.prepare(`select name from sqlite_master where name = 'meta'`).get() ? this.getMeta('schema_version') : undefined;
    if (version && version !== schemaVersion) {
      // Dropping a vec0 table needs its module.
      this.loadVectorExtension();
      // An index is a cache: a file from another schema is rebuilt, never migrated.
      this.db.exec('drop table if exists files; drop table if exists chunks; drop table if exists chunks_fts; drop table if exists embedding_cache; drop table if exists chunk_vectors; drop table if exists meta;');
    }
    this.db.exec(`
      create table if not exists meta (key text primary key, value text not null);
      create table if not exists files (path text primary key, hash text not null, size integer not null, mtime_ms real not null);
      create table if not exists chunks (
        id integer primary key, path text not null, start_line integer not null, end_line integer not null,
        symbol text, kind text not null, content_hash text not null, text text not null,
        role text not null default 'source', names text);
      create index if not exists chunks_by_path on chunks(path);
      create index if not exists chunks_role on chunks(id, role);
      create virtual table if not exists chunks_fts using fts5(
        tokens, path_tokens, symbol_tokens, content='', contentless_delete=1,
        tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'");
      create table if not exists embedding_cache (content_hash text not null, model text not null, vector blob not null, primary key (content_hash, model));
    `);
    this.setMeta('schema_version', schemaVersion);
  }

  getMeta(key: string): string | undefined {
    return (this.db.prepare('select value from meta where key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('insert into meta(key, value) values (?, ?) on conflict(key) do update set value = excluded.value').run(key, value);
  }

  files(): Map<string, FileRecord> {
    const rows = this.db.prepare('select path, hash, size, mtime_ms as mtimeMs from files').all() as FileRecord[];
    return new Map(rows.map((row) => [row.path, row]));
  }

  /** The rows of these files (those that have one). */
  filesByPaths(paths: string[]): Map<string, FileRecord> {
    const select = this.db.prepare('select path, hash, size, mtime_ms as mtimeMs from files where path = ?');
    const rows = new Map<string, FileRecord>();
    for (const path of paths) {
      const row = select.get(path) as FileRecord | undefined;
      if (row) rows.set(path, row);
    }
    return rows;
  }

  /** Replace a file's chunks and its row; call inside `transaction` so both land together. */
  writeFile(file: FileRecord, chunks: Array<Chunk & { contentHash: string }>, role: FileRole = 'source'): void {
    this.deleteChunks(file.path);
    const insertChunk = this.db.prepare('insert into chunks(path, start_line, end_line, symbol, kind, content_hash, text, role, names) values (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const insertFts = this.db.prepare('insert into chunks_fts(rowid, tokens, path_tokens, symbol_tokens) values (?, ?, ?, ?)');
    const filePathTokens = pathTokens(file.path);
    for (const chunk of chunks) {
      const names = chunk.definedSymbols ?? (chunk.symbol ? [chunk.symbol] : []);
      const { lastInsertRowid } = insertChunk.run(chunk.path, chunk.startLine, chunk.endLine, chunk.symbol ?? null, chunk.kind, chunk.contentHash, chunk.text, role, names.length > 1 ? JSON.stringify(names) : null);
      insertFts.run(lastInsertRowid, tokenizeForIndex(chunk.text), filePathTokens, tokenizeForIndex(names.join(' ')));
    }
    this.db.prepare('insert into files(path, hash, size, mtime_ms) values (?, ?, ?, ?) on conflict(path) do update set hash = excluded.hash, size = excluded.size, mtime_ms = excluded.mtime_ms')
      .run(file.path, file.hash, file.size, file.mtimeMs);
  }

  /** Refresh size/mtime of a file whose content hash did not change. */
  touchFile(file: FileRecord): void {
    this.db.prepare('update files set size = ?, mtime_ms = ? where path = ?').run(file.size, file.mtimeMs, file.path);
  }

  removeFile(path: string): void {
    this.deleteChunks(path);
    this.db.prepare('delete from files where path = ?').run(path);
  }

  private deleteChunks(path: string): void {
    const ids = this.db.prepare('select id from chunks where path = ?').pluck().all(path) as number[];
    if (ids.length === 0) return;
    const deleteFts = this.db.prepare('delete from chunks_fts where rowid = ?');
    const deleteVector = this.vectorDimensions ? this.db.prepare('delete from chunk_vectors where rowid = ?') : undefined;
    for (const id of ids) {
      deleteFts.run(id);
      deleteVector?.run(BigInt(id));
    }
    this.db.prepare('delete from chunks where path = ?').run(path);
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /** Make sure the vector table matches the model; a different model or size starts it over. */
  useEmbeddingModel(modelKey: string, dimensions: number): void {
    if (this.getMeta('embedding_model') === modelKey && this.vectorDimensions === dimensions) return;
    this.loadVectorExtension();
    this.transaction(() => {
      this.db.exec('drop table if exists chunk_vectors');
      this.db.exec(`create virtual table chunk_vectors using vec0(embedding float[${Math.trunc(dimensions)}] distance_metric=cosine)`);
      this.setMeta('embedding_model', modelKey);
      this.setMeta('vector_dimensions', String(dimensions));
    });
    this.vectorDimensions = dimensions;
  }

  /** Forget all vectors (a new model whose size is only known after its first call). */
  dropVectors(): void {
    this.loadVectorExtension();
    this.transaction(() => {
      this.db.exec('drop table if exists chunk_vectors');
      this.db.prepare("delete from meta where key in ('embedding_model', 'vector_dimensions')").run();
    });
    this.vectorDimensions = undefined;
  }

  get dimensions(): number | undefined {
    return this.vectorDimensions;
  }

  get hasVectors(): boolean {
    return this.vectorDimensions !== undefined;
  }

  /** Chunks that have no vector yet, as (id, content hash, text). */
  chunksWithoutVectors(): Array<{ id: number; contentHash: string; path: string; symbol: string | null; text: string }> {
    if (!this.vectorDimensions) return this.db.prepare('select id, content_hash as contentHash, path, symbol, text from chunks order by id').all() as never;
    return this.db.prepare('select c.id, c.content_hash as contentHash, c.path, c.symbol, c.text from chunks c where not exists (select 1 from chunk_vectors v where v.rowid = c.id) order by c.id').all() as never;
  }

  cachedVector(contentHash: string, model: string): Float32Array | undefined {
    const row = this.db.prepare('select vector from embedding_cache where content_hash = ? and model = ?').get(contentHash, model) as { vector: Buffer } | undefined;
    return row ? new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)) : undefined;
  }

  cacheVector(contentHash: string, model: string, vector: Float32Array): void {
    this.db.prepare('insert or replace into embedding_cache(content_hash, model, vector) values (?, ?, ?)').run(contentHash, model, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
  }

  setChunkVector(chunkId: number, vector: Float32Array): void {
    // The chunk may have been replaced by a concurrent update since it was selected.
    if (!this.db.prepare('select 1 from chunks where id = ?').get(chunkId)) return;
    this.db.prepare('insert or replace into chunk_vectors(rowid, embedding) values (?, ?)').run(BigInt(chunkId), vector);
  }

  chunksByIds(ids: number[]): Map<number, StoredChunk> {
    if (ids.length === 0) return new Map();
    const rows = this.db.prepare(`select id, path, start_line as startLine, end_line as endLine, symbol, kind, content_hash as contentHash, text, role from chunks where id in (${ids.map(() => '?').join(',')})`).all(...ids) as StoredChunk[];
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Names and role of each chunk (for re-ranking without loading chunk texts). */
  namesByIds(ids: number[]): Map<number, ChunkNames> {
    if (ids.length === 0) return new Map();
    const rows = this.db.prepare(`select id, path, symbol, names, role from chunks where id in (${ids.map(() => '?').join(',')})`).all(...ids) as Array<{ id: number; path: string; symbol: string | null; names: string | null; role: FileRole }>;
    return new Map(rows.map((row) => [row.id, { path: row.path, symbol: row.symbol, names: row.names ? (JSON.parse(row.names) as string[]) : row.symbol ? [row.symbol] : [], role: row.role }]));
  }

  rolesByIds(ids: number[]): Map<number, FileRole> {
    if (ids.length === 0) return new Map();
    const rows = this.db.prepare(`select id, role from chunks where id in (${ids.map(() => '?').join(',')})`).all(...ids) as Array<{ id: number; role: FileRole }>;
    return new Map(rows.map((row) => [row.id, row.role]));
  }

  /**
   * BM25 over the three token columns, symbol and path weighted above body text; `sourceOnly`
   * keeps chunks of source files (the pool's reserved share, so tests cannot crowd it out).
   */
  searchText(match: string, limit: number, pathPrefixes: string[], sourceOnly = false): Array<{ id: number; score: number }> {
    const { clause, values } = pathClause(pathPrefixes);
    const filters = [clause, sourceOnly ? `c.role = 'source'` : ''].filter(Boolean);
    // A chunk's role sits after its text in the row, often on an overflow page: the covering index
    // (id, role) answers the role-only filter without reading chunk texts (37 -> 20 ms for 22 600
    // matches on a 1M-line tree). SQLite picks it only with ANALYZE statistics, hence INDEXED BY.
    const join = filters.length === 0 ? '' : clause ? 'join chunks c on c.id = f.rowid' : 'join chunks c indexed by chunks_role on c.id = f.rowid';
    return this.db.prepare(`select f.rowid as id, bm25(chunks_fts, ${bm25Weights}) as score from chunks_fts f
      ${join} where chunks_fts match ? ${filters.map((filter) => `and ${filter}`).join(' ')} order by score limit ?`)
      .all(match, ...values, limit) as Array<{ id: number; score: number }>;
  }

  searchVectors(vector: Float32Array, k: number): Array<{ id: number; distance: number }> {
    if (!this.vectorDimensions) return [];
    return (this.db.prepare('select rowid as id, distance from chunk_vectors where embedding match ? and k = ? order by distance').all(vector, k) as Array<{ id: number | bigint; distance: number }>)
      .map((row) => ({ id: Number(row.id), distance: row.distance }));
  }

  counts(): { files: number; chunks: number; vectors: number; cachedEmbeddings: number } {
    const count = (sql: string) => Number(this.db.prepare(sql).pluck().get());
    return {
      files: count('select count(*) from files'),
      chunks: count('select count(*) from chunks'),
      vectors: this.vectorDimensions ? count('select count(*) from chunk_vectors') : 0,
      cachedEmbeddings: count('select count(*) from embedding_cache'),
    };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** `path = dir or path like 'dir/%'` for each prefix, with LIKE wildcards escaped. */
export function pathClause(prefixes: string[]): { clause: string; values: string[] } {
  if (prefixes.length === 0) return { clause: '', values: [] };
  const parts: string[] = [];
  const values: string[] = [];
  for (const prefix of prefixes) {
    parts.push(`(c.path = ? or c.path like ? escape '\\')`);
    values.push(prefix, `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}/%`);
  }
  return { clause: `(${parts.join(' or ')})`, values };
}
