import type { EmbeddingModelV1 } from '@cairn/core';
import { createIndex, type SearchResult } from '@cairn/indexer';

export interface SearchCommandOptions {
  cwd: string;
  limit: number;
  json: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  home?: string;
  embeddingModel?: EmbeddingModelV1;
}

/** `path:start-end  symbol`, with the role when the file is not source (`[test]`, `[docs]`). */
function resultLine(result: SearchResult): string {
  const role = result.role && result.role !== 'source' ? `  [${result.role}]` : '';
  return `${result.path}:${result.startLine}-${result.endLine}${result.symbol ? `  ${result.symbol}` : ''}${role}`;
}

/**
 * `cairn search "query"`: answers from an index that is up to date (incremental, so cheap when
 * nothing changed; the query runs while the tree is checked) and prints the best chunks, `path:startLine-endLine  symbol` per line (the matched name, and the
 * file's role when it is not source) or a JSON array with the snippet and the score parts.
 */
export async function runSearchCommand(query: string, options: SearchCommandOptions): Promise<number> {
  if (!query.trim()) {
    options.stderr.write('cairn search: give a query, e.g. cairn search "where is the config loaded"\n');
    return 2;
  }
  let index: Awaited<ReturnType<typeof createIndex>> | undefined;
  try {
    index = await createIndex({
      cwd: options.cwd,
      ...(options.home ? { home: options.home } : {}),
      ...(options.embeddingModel ? { embeddingModel: options.embeddingModel } : {}),
    });
    const onEmbeddingError = (message: string) => options.stderr.write(`Search by meaning is unavailable, these are keyword results: ${message}\n`);
    // The query runs while the tree is checked; a changed tree is re-indexed and asked again.
    const results = await index.searchFresh(query, { limit: Math.max(1, options.limit), onEmbeddingError });
    if (options.json) {
      const rows = results.map(({ path, startLine, endLine, score, symbol, kind, role, snippet, snippetLine, scoreParts }) => ({
        path, startLine, endLine, score, ...(symbol ? { symbol } : {}), ...(kind ? { kind } : {}), ...(role ? { role } : {}),
        snippet, ...(snippetLine ? { snippetLine } : {}), ...(scoreParts ? { scoreParts } : {}),
      }));
      options.stdout.write(`${JSON.stringify(rows)}\n`);
    } else if (results.length === 0) {
      options.stderr.write('No matching code found.\n');
    } else {
      for (const result of results) options.stdout.write(`${resultLine(result)}\n`);
    }
    return 0;
  } catch (error) {
    options.stderr.write(`cairn search: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    index?.close();
  }
}
