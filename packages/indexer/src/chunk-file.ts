import { languageForPath } from './languages.js';
import { lineWindowChunks, splitLines } from './line-chunks.js';
import { parse } from './parser-pool.js';
import { syntaxChunks } from './syntax-chunks.js';
import type { Chunk } from './types.js';

export interface ChunkFileOptions {
  /** `lines` forces line windows (used by the evaluation to compare strategies). */
  strategy?: 'syntax' | 'lines';
  maxChars?: number;
  minChars?: number;
}

/** Chunks of one file: tree-sitter when the language has a grammar, line windows otherwise or on failure. */
export async function chunkFile(path: string, text: string, options: ChunkFileOptions = {}): Promise<Chunk[]> {
  const lines = splitLines(text);
  const language = options.strategy === 'lines' ? undefined : languageForPath(path);
  if (language) {
    let tree: Awaited<ReturnType<typeof parse>>;
    try {
      tree = await parse(language, text);
    } catch {
      tree = undefined;
    }
    if (tree) {
      try {
        const sizes = { ...(options.maxChars ? { maxChars: options.maxChars } : {}), ...(options.minChars ? { minChars: options.minChars } : {}) };
        return syntaxChunks(path, lines, tree.rootNode, sizes);
      } catch {
        // fall through to line windows
      } finally {
        tree.delete();
      }
    }
  }
  return lineWindowChunks(path, lines);
}
