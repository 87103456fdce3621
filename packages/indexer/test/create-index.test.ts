import { mkdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProviderError } from '@cairn/core';
import { describe, expect, it, vi } from 'vitest';
import { createIndex } from '../src/index.js';
import type { IndexProgress } from '../src/index.js';
import { closeAfterEach, hashedBagOfWordsModel, tempWorkspace } from './helpers.js';

const files = {
  'src/auth/login.ts': 'export function validateUserPassword(user: string, password: string) {\n  return hashPassword(password) === lookupHash(user);\n}\n',
  'src/auth/token.ts': 'export class TokenIssuer {\n  issueAccessToken(subject: string) {\n    return sign({ sub: subject });\n  }\n}\n',
  'src/db/connection_pool.py': 'class ConnectionPool:\n    def acquire_connection(self):\n        return self.free.pop()\n',
  'docs/guide.md': '# Guide\n\nHow to rotate the signing keys.\n',
  'README.md': 'Demo project.\n',
};

const { indexes, cleanups } = closeAfterEach();

async function setUp(extra: Record<string, string> = {}, options: Partial<Parameters<typeof createIndex>[0]> = {}) {
  const workspace = await tempWorkspace({ ...files, ...extra });
  cleanups.push(workspace.cleanup);
  const index = await createIndex({ cwd: workspace.root, home: workspace.home, ...options });
  indexes.push(index);
  return { workspace, index };
}

describe('createIndex', () => {
  it('stores one SQLite file per workspace under home/index and finds identifiers by their parts', async () => {
    const { workspace, index } = await setUp();
    expect(index.dbPath.startsWith(join(workspace.home, 'index'))).toBe(true);
    const result = await index.sync();
    expect(result).toMatchObject({ indexedFiles: 5, removedFiles: 0 });
    const [top] = await index.search('validate user password');
    expect(top).toMatchObject({ path: 'src/auth/login.ts', startLine: 1, endLine: 3, symbol: 'validateUserPassword', kind: 'function' });
    expect((await index.search('acquireConnection'))[0]?.path).toBe('src/db/connection_pool.py');
    expect((await index.search('connection pool'))[0]?.path).toBe('src/db/connection_pool.py');
    const stats = await index.stats();
    expect(stats).toMatchObject({ files: 5 });
    expect(stats.bytesOnDisk).toBeGreaterThan(0);
  });

  it('re-indexes only changed files and drops deleted and renamed ones', async () => {
    const { workspace, index } = await setUp();
    await index.sync();
    const second = await index.sync();
    expect(second).toMatchObject({ indexedFiles: 0, unchangedFiles: 5 });

    await workspace.write('src/auth/login.ts', 'export function checkSecondFactor(code: string) {\n  return code.length === 6;\n}\n');
    await rm(join(workspace.root, 'docs/guide.md'));
    await rename(join(workspace.root, 'src/auth/token.ts'), join(workspace.root, 'src/auth/issuer.ts'));
    const third = await index.sync();
    expect(third).toMatchObject({ indexedFiles: 2, removedFiles: 2, unchangedFiles: 2 });
    expect(await index.search('validateUserPassword')).toEqual([]);
    expect(await index.search('rotate')).toEqual([]);
    expect((await index.search('second factor'))[0]?.path).toBe('src/auth/login.ts');
    expect((await index.search('issueAccessToken')).map((hit) => hit.path)).toEqual(['src/auth/issuer.ts']);
    expect((await index.stats()).files).toBe(4);
  });

  it('ranks the function a description names above code that only repeats its words', async () => {
    const repeats = Array.from({ length: 12 }, (_, i) => `  const decade${i} = date.getFullYear(); // the decade of the date, given a date`).join('\n');
    const { index } = await setUp({
      'src/format/tables.ts': `export function renderTables(date: Date) {\n${repeats}\n  return date;\n}\n`,
      'src/getDecade.ts': 'export function getDecade(value: Date): number {\n  return Math.floor(value.getFullYear() / 10) * 10;\n}\n',
    });
    await index.sync();
    const results = await index.search('Get the decade of the given date', { limit: 3 });
    expect(results[0]).toMatchObject({ path: 'src/getDecade.ts', symbol: 'getDecade' });
    expect(results.map((result) => result.path)).toContain('src/format/tables.ts');
  });

  it('a touched file with the same content is not re-chunked', async () => {
    const { workspace, index } = await setUp();
    const before = await index.sync();
    const later = new Date(Date.now() + 5000);
    await utimes(join(workspace.root, 'README.md'), later, later);
    const after = await index.sync();
    expect(after).toMatchObject({ indexedFiles: 0, unchangedFiles: 5 });
    expect(after.rootHash).toBe(before.rootHash);
  });

  it('honours ignore files, size and binary limits, and never follows symbolic links', async () => {
    const outside = await tempWorkspace({ 'secret.ts': 'export const outsideSecretValue = 1;\n' });
    cleanups.push(outside.cleanup);
    const { workspace, index } = await setUp({
      '.gitignore': 'build/\n',
      'build/out.js': 'function builtArtifact() {}\n',
      'src/.cursorignore': 'private.ts\n',
      'src/private.ts': 'export const cursorIgnoredThing = 1;\n',
      'node_modules/pkg/index.js': 'function dependencyCode() {}\n',
      'big.txt': `${'large file content '.repeat(1000)}\n`,
      'image.bin': 'binaryMarker\u0000\u0001\u0002',
    }, { maxFileBytes: 10_000 });
    await symlink(outside.root, join(workspace.root, 'linked-folder'));
    await symlink(join(outside.root, 'secret.ts'), join(workspace.root, 'linked-file.ts'));
    await symlink(workspace.root, join(workspace.root, 'src/loop'));
    await index.sync();
    for (const query of ['builtArtifact', 'cursorIgnoredThing', 'dependencyCode', 'large file content', 'binaryMarker', 'outsideSecretValue']) {
      expect(await index.search(query), query).toEqual([]);
    }
    // The five project files plus .gitignore and src/.cursorignore themselves.
    expect((await index.stats()).files).toBe(7);
  });

  it('finds new code right after updateFiles, and removes files given that are gone', async () => {
    const { workspace, index } = await setUp();
    await index.sync();
    await workspace.write('src/feature/rate_limiter.go', 'package feature\n\nfunc AllowRequestBurst(n int) bool {\n\treturn n < 10\n}\n');
    expect(await index.updateFiles(['src/feature/rate_limiter.go'])).toEqual({ indexedFiles: 1, removedFiles: 0 });
    expect((await index.search('allow request burst'))[0]).toMatchObject({ path: 'src/feature/rate_limiter.go', symbol: 'AllowRequestBurst', startLine: 1, endLine: 5 });
    await rm(join(workspace.root, 'src/feature/rate_limiter.go'));
    expect(await index.updateFiles([join(workspace.root, 'src/feature/rate_limiter.go'), '../outside.ts'])).toEqual({ indexedFiles: 0, removedFiles: 1 });
    expect(await index.search('AllowRequestBurst')).toEqual([]);
    expect(await index.removeFiles(['README.md'])).toBe(1);
  });

  it('limits results to target directories', async () => {
    const { index } = await setUp({ 'lib/auth.ts': 'export function validateUserPassword() { return true; }\n' });
    await index.sync();
    expect((await index.search('validateUserPassword')).map((hit) => hit.path).sort()).toEqual(['lib/auth.ts', 'src/auth/login.ts']);
    expect((await index.search('validateUserPassword', { targetDirectories: ['lib/'] })).map((hit) => hit.path)).toEqual(['lib/auth.ts']);
    expect((await index.search('validateUserPassword', { targetDirectories: ['./src'] })).map((hit) => hit.path)).toEqual(['src/auth/login.ts']);
    expect(await index.search('validateUserPassword', { targetDirectories: ['../elsewhere'] })).toEqual([]);
    // The root among the targets means everywhere.
    expect(await index.search('validateUserPassword', { targetDirectories: ['lib', '.'] })).toHaveLength(2);
  });

  it('an interrupted run leaves a usable index that the next sync completes', async () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`gen/file${String(index).padStart(2, '0')}.ts`, `export function generatedHandler${index}() { return ${index}; }\n`]));
    let chunkEvents = 0;
    const progress: IndexProgress[] = [];
    const { workspace, index } = await setUp(many, {
      batchSize: 10,
      onProgress: (event) => {
        progress.push(event);
        if (event.phase === 'chunk' && ++chunkEvents === 2) throw new Error('interrupted');
      },
    });
    await expect(index.sync()).rejects.toThrow('interrupted');
    const partial = (await index.stats()).files;
    expect(partial).toBe(20);
    expect((await index.search('generatedHandler0'))[0]?.path).toBe('gen/file00.ts');
    index.close();
    const resumed = await createIndex({ cwd: workspace.root, home: workspace.home });
    indexes.push(resumed);
    const result = await resumed.sync();
    expect(result.indexedFiles).toBe(35 - 20);
    expect((await resumed.stats()).files).toBe(35);
    expect(progress.some((event) => event.phase === 'scan' && event.totalFiles === 35)).toBe(true);
  });
});

describe('limits and aborts', () => {
  it('stops scanning at maxFiles', async () => {
    const { index } = await setUp({}, { maxFiles: 3 });
    await index.sync();
    expect((await index.stats()).files).toBe(3);
  });

  it('an aborted sync keeps the batches it committed', async () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`gen/f${String(index).padStart(2, '0')}.ts`, `export const abortValue${index} = ${index};\n`]));
    const controller = new AbortController();
    const { index } = await setUp(many, {
      batchSize: 5,
      onProgress: (event) => {
        if (event.phase === 'chunk') controller.abort(new Error('stop now'));
      },
    });
    await expect(index.sync({ abortSignal: controller.signal })).rejects.toThrow('stop now');
    expect((await index.stats()).files).toBe(5);
  });
});

describe('embeddings', () => {
  it('embeds in batches, fuses vector and BM25 ranks, and never embeds an unchanged chunk twice', async () => {
    const model = hashedBagOfWordsModel({ maxEmbeddingsPerCall: 2 });
    const { workspace, index } = await setUp({}, { embeddingModel: model });
    const first = await index.sync();
    expect(first.embedded).toBe(5);
    expect(model.calls.every((values) => values.length <= 2)).toBe(true);
    const embeddedValues = model.calls.flat().length;
    expect(embeddedValues).toBe(5);
    const stats = await index.stats();
    expect(stats).toMatchObject({ vectors: 5, cachedEmbeddings: 5, embeddingModel: 'test:hashed-bow:64' });

    const hits = await index.search('issue access token');
    expect(hits[0]?.path).toBe('src/auth/token.ts');
    // Fused scores are reciprocal ranks: at most 2 / (60 + 1).
    expect(hits[0]?.score).toBeLessThanOrEqual(2 / 61);

    // Unchanged tree, a rename, and a file restored to earlier content: no new embedding calls for those chunks.
    model.calls.length = 0;
    await index.sync();
    await rename(join(workspace.root, 'docs/guide.md'), join(workspace.root, 'docs/keys.md'));
    await index.sync();
    const original = files['src/auth/login.ts'];
    await workspace.write('src/auth/login.ts', 'export const changed = 1;\n');
    await index.sync();
    expect(model.calls.flat()).toEqual(['changed\nexport const changed = 1;']);
    await workspace.write('src/auth/login.ts', original);
    await index.updateFiles(['src/auth/login.ts']);
    // Only the query embeddings of the searches below may call the model from here on.
    expect(model.calls.flat()).toHaveLength(1);
    expect((await index.stats()).vectors).toBe(5);
  });

  it('switching to a model of another size (not declared up front) rebuilds the vectors', async () => {
    const first = hashedBagOfWordsModel({ dimensions: 16, declareDimensions: false });
    const { workspace, index } = await setUp({}, { embeddingModel: first });
    await index.sync();
    expect(await index.stats()).toMatchObject({ vectors: 5, embeddingModel: 'test:hashed-bow' });
    index.close();
    const second = hashedBagOfWordsModel({ dimensions: 32, declareDimensions: false, modelId: 'bigger' });
    const reopened = await createIndex({ cwd: workspace.root, home: workspace.home, embeddingModel: second });
    indexes.push(reopened);
    await reopened.sync();
    expect(await reopened.stats()).toMatchObject({ vectors: 5, embeddingModel: 'test:bigger' });
    expect((await reopened.search('issue access token'))[0]?.path).toBe('src/auth/token.ts');
  });

  it('retries retryable errors with backoff and keeps BM25 working when the model fails', async () => {
    const flaky = hashedBagOfWordsModel({ failFirstCalls: 2, error: () => new ProviderError('overloaded', { provider: 'test', status: 503 }) });
    const { index } = await setUp({}, { embeddingModel: flaky, embeddingRetry: { initialDelayMs: 1 } });
    const result = await index.sync();
    expect(result.embeddingError).toBeUndefined();
    expect(result.embedded).toBe(5);

    const broken = hashedBagOfWordsModel({ failFirstCalls: 100, error: () => new ProviderError('bad key', { provider: 'test', status: 401 }) });
    const second = await setUp({}, { embeddingModel: broken, embeddingRetry: { initialDelayMs: 1 } });
    const failed = await second.index.sync();
    expect(failed.embeddingError).toBe('bad key');
    expect(broken.calls).toHaveLength(1);
    expect((await second.index.stats()).vectors).toBe(0);
  });
});

describe('workspace identity', () => {
  it('two indexes of the same folder share one database file', async () => {
    const { workspace, index } = await setUp();
    await mkdir(join(workspace.root, 'sub'), { recursive: true });
    await writeFile(join(workspace.root, 'sub/x.ts'), 'export const x = 1;\n');
    const again = await createIndex({ cwd: `${workspace.root}/sub/..`, home: workspace.home });
    indexes.push(again);
    expect(again.dbPath).toBe(index.dbPath);
  });
});

describe('watch', () => {
  it('polls with incremental syncs until stopped', async () => {
    const { workspace, index } = await setUp();
    await index.sync();
    const errors: unknown[] = [];
    const stop = index.watch({ intervalMs: 20, onError: (error) => errors.push(error) });
    await workspace.write('src/new-feature.ts', 'export function freshlyWatchedFunction() {}\n');
    await vi.waitFor(async () => expect((await index.search('freshlyWatchedFunction'))[0]?.path).toBe('src/new-feature.ts'), { timeout: 5000, interval: 20 });
    stop();
    expect(errors).toEqual([]);
  });
});
