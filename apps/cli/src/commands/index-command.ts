import type { EmbeddingModelV1 } from '@cairn/core';
import { createIndex, type IndexProgress, type SyncResult } from '@cairn/indexer';

export interface IndexCommandOptions {
  cwd: string;
  json?: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  isTTY: boolean;
  /** Index location; default `$CAIRN_HOME` or `~/.cairn`. */
  home?: string;
  /** Vectors too when configured; BM25 only otherwise. */
  embeddingModel?: EmbeddingModelV1;
}

const phaseLabels: Record<IndexProgress['phase'], string> = { scan: 'Scanning', chunk: 'Indexing', embed: 'Embedding', done: 'Done' };

function progressLine(progress: IndexProgress): string {
  if (progress.phase === 'scan') return `${phaseLabels.scan} ${progress.files} files`;
  if (progress.phase === 'embed') return `${phaseLabels.embed} ${progress.embedded}/${progress.chunks} chunks`;
  return `${phaseLabels[progress.phase]} ${progress.files}/${progress.totalFiles} files, ${progress.chunks} chunks`;
}

function bar(fraction: number, width = 24): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

const skipLabels = { tooLarge: 'too large', binary: 'binary', unreadable: 'unreadable' } as const;

/** `Skipped 3 files (2 too large, 1 binary): dist/app.js (2.1 MB, too large), ...` — the largest three. */
function skippedLine(result: SyncResult): string {
  const counts = (Object.keys(skipLabels) as Array<keyof typeof skipLabels>).filter((reason) => result.skipped[reason] > 0).map((reason) => `${result.skipped[reason]} ${skipLabels[reason]}`);
  const largest = result.largestSkipped.slice(0, 3).map((file) => `${file.path} (${formatBytes(file.bytes)}, ${skipLabels[file.reason]})`);
  return `Skipped ${result.skippedFiles} file${result.skippedFiles === 1 ? '' : 's'} (${counts.join(', ')}): ${largest.join(', ')}${result.skippedFiles > largest.length ? ', ...' : ''}\n`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** What failed, what was kept, and that running again resumes (the exit code is 1). */
function embeddingFailureLine(error: string, vectors: number, pending: number): string {
  const kept = vectors > 0 ? `the ${vectors} vectors made are kept` : 'no vectors were made';
  return `Embeddings failed: ${error}\nKeyword search works and ${kept}; ${pending} chunks still need one. Run cairn index again to embed only those.\n`;
}

/** `cairn index`: build or update the workspace index. Progress goes to stderr, the summary to stdout. */
export async function runIndexCommand(options: IndexCommandOptions): Promise<number> {
  let lastPlainPhase = '';
  let lastPlainAt = 0;
  const onProgress = (progress: IndexProgress) => {
    if (options.json) return;
    if (options.isTTY) {
      const fraction = progress.phase === 'embed' ? progress.embedded / Math.max(1, progress.chunks) : progress.files / Math.max(1, progress.totalFiles);
      options.stderr.write(`\r\x1b[2K${bar(progress.phase === 'scan' ? 0 : fraction)} ${progressLine(progress)}`);
      return;
    }
    // Plain lines: one per phase change, then at most one every two seconds.
    const now = Date.now();
    if (progress.phase !== lastPlainPhase || now - lastPlainAt > 2000) {
      if (progress.phase !== 'done') options.stderr.write(`${progressLine(progress)}\n`);
      lastPlainPhase = progress.phase;
      lastPlainAt = now;
    }
  };
  let index: Awaited<ReturnType<typeof createIndex>> | undefined;
  try {
    const started = performance.now();
    index = await createIndex({
      cwd: options.cwd, onProgress,
      ...(options.home ? { home: options.home } : {}),
      ...(options.embeddingModel ? { embeddingModel: options.embeddingModel } : {}),
    });
    const result = await index.sync();
    const stats = await index.stats();
    const seconds = (performance.now() - started) / 1000;
    if (options.isTTY && !options.json) options.stderr.write('\r\x1b[2K');
    if (options.json) {
      options.stdout.write(`${JSON.stringify({ ...result, files: stats.files, totalChunks: stats.chunks, vectors: stats.vectors, bytesOnDisk: stats.bytesOnDisk, seconds: Number(seconds.toFixed(3)) })}\n`);
    } else {
      options.stdout.write(
        `Indexed ${stats.files} files (${result.indexedFiles} updated, ${result.removedFiles} removed, ${result.unchangedFiles} unchanged), ` +
          `${stats.chunks} chunks${stats.vectors ? `, ${stats.vectors} vectors` : ''} in ${seconds.toFixed(1)} s.\n`,
      );
      if (result.skippedFiles > 0) options.stdout.write(skippedLine(result));
    }
    if (result.embeddingError) {
      options.stderr.write(embeddingFailureLine(result.embeddingError, stats.vectors, result.embeddingPending ?? 0));
      return 1;
    }
    return 0;
  } catch (error) {
    if (options.isTTY && !options.json) options.stderr.write('\r\x1b[2K');
    options.stderr.write(`cairn index: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    index?.close();
  }
}
