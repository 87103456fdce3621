import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkFile } from '../src/chunk-file.js';
import { chunkWorkerUrl } from '../src/chunk-worker-url.js';
import { ChunkPool, sequentialBatchFiles } from '../src/chunk-workers.js';
import { createIndex } from '../src/index.js';
import { tempWorkspace } from './helpers.js';

// Parsing in worker threads must change nothing but the speed: the same chunks, in the same order,
// as chunkFile on the calling thread, for every language the corpus has.

const require = createRequire(import.meta.url);

/** Real files: zod's TypeScript sources, ramda's JavaScript, and a few hand-written other languages. */
function corpus(): Array<{ path: string; text: string }> {
  const zod = join(dirname(require.resolve('zod/package.json')), 'src', 'v4', 'core');
  const files = readdirSync(zod, { recursive: true })
    .map(String)
    .filter((path) => path.endsWith('.ts'))
    .sort()
    .slice(0, 40)
    .map((path) => ({ path: `zod/${path}`, text: readFileSync(join(zod, path), 'utf8') }));
  files.push(
    { path: 'tool/run.py', text: 'class Runner:\n    def run(self, job):\n        return job()\n\n\ndef main():\n    Runner().run(print)\n' },
    { path: 'tool/main.go', text: 'package main\n\ntype Store struct{}\n\nfunc (s *Store) Get(key string) string { return key }\n\nfunc main() {}\n' },
    { path: 'tool/lib.rs', text: 'pub struct Pool;\n\nimpl Pool {\n    pub fn acquire(&self) -> u32 { 1 }\n}\n' },
    { path: 'tool/notes.md', text: '# Notes\n\nPlain text gets line windows.\n' },
  );
  return files;
}

const pools: ChunkPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

describe('ChunkPool', () => {
  it('returns what chunkFile returns on the calling thread, and ran in worker threads', async () => {
    const files = corpus();
    expect(files.length).toBeGreaterThan(sequentialBatchFiles);
    const sequential = [];
    for (const file of files) sequential.push(await chunkFile(file.path, file.text, {}));
    const pool = new ChunkPool(2, chunkWorkerUrl);
    pools.push(pool);
    expect(await pool.chunkAll(files, {})).toEqual(sequential);
    expect(pool.workerTasks).toBe(files.length);
    // Options reach the workers: a smaller budget cuts more chunks, exactly as on this thread.
    const small = [];
    for (const file of files) small.push(await chunkFile(file.path, file.text, { maxChars: 600, minChars: 100 }));
    expect(await pool.chunkAll(files, { maxChars: 600, minChars: 100 })).toEqual(small);
    expect(small.flat().length).toBeGreaterThan(sequential.flat().length);
  });

  it('chunks a tiny batch on the calling thread', async () => {
    const pool = new ChunkPool(2, chunkWorkerUrl);
    pools.push(pool);
    const files = corpus().slice(0, sequentialBatchFiles - 1);
    expect(await pool.chunkAll(files, {})).toHaveLength(files.length);
    expect(pool.workerTasks).toBe(0);
  });
});

describe('createIndex with parse workers', () => {
  it('writes the same chunks as with parseWorkers: 0', async () => {
    const files = Object.fromEntries(corpus().map((file) => [file.path, file.text]));
    const rows: unknown[][] = [];
    for (const parseWorkers of [0, 2]) {
      const workspace = await tempWorkspace(files);
      try {
        const index = await createIndex({ cwd: workspace.root, home: workspace.home, parseWorkers, batchSize: 20 });
        const result = await index.sync();
        expect(result.indexedFiles).toBe(Object.keys(files).length);
        index.close();
        const db = new Database(index.dbPath, { readonly: true });
        rows.push(db.prepare('select path, start_line, end_line, symbol, kind, content_hash, text from chunks order by path, start_line').all());
        db.close();
      } finally {
        await workspace.cleanup();
      }
    }
    expect(rows[0]?.length).toBeGreaterThan(100);
    expect(rows[1]).toEqual(rows[0]);
  });
});

