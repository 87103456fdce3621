import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EmbeddingModelV1 } from '@cairn/core';
import { afterEach } from 'vitest';
import type { CodebaseIndex } from '../src/index.js';
import { codeTokens } from '../src/tokenize.js';

/** Lists a test file fills with its indexes and workspace removals: after each test, the indexes are closed, then the workspaces removed. */
export function closeAfterEach(): { indexes: CodebaseIndex[]; cleanups: Array<() => Promise<void>> } {
  const indexes: CodebaseIndex[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const index of indexes.splice(0)) index.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return { indexes, cleanups };
}

/** A temp workspace and a temp CAIRN_HOME, removed by `cleanup`. */
export async function tempWorkspace(files: Record<string, string>): Promise<{ root: string; home: string; write(path: string, text: string): Promise<void>; cleanup(): Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), 'cairn-indexer-'));
  const root = join(base, 'workspace');
  const home = join(base, 'home');
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };
  await mkdir(root, { recursive: true });
  for (const [path, text] of Object.entries(files)) await write(path, text);
  return { root, home, write, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/**
 * A deterministic local embedding model: hashed bag of identifier tokens, L2-normalised. Texts that
 * share words get similar vectors, which is all the tests need. Records every call.
 */
export function hashedBagOfWordsModel(options: { dimensions?: number; declareDimensions?: boolean; modelId?: string; maxEmbeddingsPerCall?: number; failFirstCalls?: number; error?: () => Error } = {}): EmbeddingModelV1 & { calls: string[][] } {
  const dimensions = options.dimensions ?? 64;
  const calls: string[][] = [];
  let failures = options.failFirstCalls ?? 0;
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: options.modelId ?? 'hashed-bow',
    ...(options.declareDimensions === false ? {} : { dimensions }),
    maxEmbeddingsPerCall: options.maxEmbeddingsPerCall ?? 8,
    calls,
    async doEmbed({ values }) {
      calls.push(values);
      if (failures > 0) {
        failures--;
        throw options.error?.() ?? new Error('embedding failed');
      }
      return { embeddings: values.map((value) => embed(value, dimensions)) };
    },
  };
}

function embed(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of codeTokens(text)) {
    let hash = 2166136261;
    for (let index = 0; index < token.length; index++) hash = Math.imul(hash ^ token.charCodeAt(index), 16777619);
    vector[Math.abs(hash) % dimensions] = (vector[Math.abs(hash) % dimensions] ?? 0) + 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
