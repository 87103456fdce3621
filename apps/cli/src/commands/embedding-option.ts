import type { EmbeddingModelV1 } from '@cairn/core';
import { cairnHome, loadIndexSettings, resolveSettingSources } from '@cairn/core/index-settings';

export interface EmbeddingFlags {
  embeddings?: string;
  embeddingsBaseUrl?: string;
}

/**
 * The embedding model of `cairn index` / `cairn search`: `--embeddings provider/model` (with
 * `--embeddings-base-url` for an OpenAI-compatible server), else `index.embeddings` of
 * `.cairn/settings.json` or `$CAIRN_HOME/settings.json`; none = keyword search only. The SDK (and
 * with it every provider) loads only when a model is configured, so plain searches stay fast.
 */
export async function embeddingModelFor(flags: EmbeddingFlags, cwd: string, env: Record<string, string | undefined>): Promise<EmbeddingModelV1 | undefined> {
  if (flags.embeddingsBaseUrl && !flags.embeddings) {
    throw new Error('--embeddings-base-url needs --embeddings <provider/model>, e.g. --embeddings openai/nomic-embed-text --embeddings-base-url http://localhost:8080/v1');
  }
  const home = cairnHome(env);
  const setting = flags.embeddings ?? (await loadIndexSettings({ root: cwd, home, sources: resolveSettingSources(undefined) })).embeddings;
  if (setting === undefined) return undefined;
  const { resolveEmbeddingModel } = await import('@cairn/sdk');
  return resolveEmbeddingModel(setting, { ...(flags.embeddingsBaseUrl ? { baseURL: flags.embeddingsBaseUrl } : {}), env });
}

/** The model, or `null` after writing the one-line reason (the caller exits with 2). */
export async function embeddingModelOrReport(command: string, flags: EmbeddingFlags, cwd: string, io: { env: Record<string, string | undefined>; stderr: NodeJS.WritableStream }): Promise<EmbeddingModelV1 | undefined | null> {
  try {
    return await embeddingModelFor(flags, cwd, io.env);
  } catch (error) {
    io.stderr.write(`cairn ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return null;
  }
}
