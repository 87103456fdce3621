import { existsSync } from 'node:fs';
import { defineTool, type EmbeddingModelV1, ToolError, type ToolResultContent } from '@cairn/core';
import { resolveWorkspacePath } from '@cairn/core/node';
import type { CodebaseIndex, SearchResult } from '@cairn/indexer';

export interface CodebaseSearchInput {
  query: string;
  target_directories?: string[];
}

export interface CodebaseSearchToolOptions {
  /** Where the index files live; default `$CAIRN_HOME` or `~/.cairn`. */
  home?: string;
  embeddingModel?: EmbeddingModelV1;
  /** Results per call (default 10). */
  limit?: number;
  /** A search re-syncs (stat-based, incremental) when the last sync is older than this (default 30 s). */
  resyncAfterMs?: number;
}

interface OpenIndex {
  index: Promise<CodebaseIndex>;
  /** The embedding model the index was opened with ('' = keyword only). */
  modelKey: string;
  lastSync: number;
  syncing?: Promise<unknown>;
  /** The last sync's embedding failure, reported with the results until a sync succeeds. */
  embeddingError?: string;
}

const modelKeyOf = (model: EmbeddingModelV1 | undefined) => (model ? `${model.provider}:${model.modelId}:${model.dimensions ?? ''}` : '');

/**
 * The agent's embedding model for the index: `toolSettings.semSearch.embeddingModel`, which the
 * runtime resolves from `toolSettings.semSearch.embeddings` or `index.embeddings` of settings.json,
 * else the factory's. `error`: the configured model could not be resolved.
 */
function configuredModel(settings: Record<string, unknown> | undefined, fallback: EmbeddingModelV1 | undefined): { model?: EmbeddingModelV1; error?: string } {
  const scoped = settings?.semSearch as { embeddingModel?: EmbeddingModelV1; embeddingError?: string } | undefined;
  if (scoped?.embeddingError) return { error: scoped.embeddingError };
  const model = scoped?.embeddingModel ?? fallback;
  return model ? { model } : {};
}

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What you are looking for, in words or identifiers, e.g. "where are auth tokens refreshed".' },
    target_directories: { type: 'array', items: { type: 'string' }, description: 'Only search these folders (workspace-relative).' },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/** Why the results are keyword-only (or only partly by meaning), said once after them. */
function embeddingNoticeOf(configError: string | undefined, syncError: string | undefined): string | undefined {
  if (configError) return `(Search by meaning is off, these are keyword results: ${configError})`;
  if (syncError) return `(Some code has no embedding yet, so search by meaning is partial; the next search retries: ${syncError})`;
  return undefined;
}

function withNotice(result: ToolResultContent, notice: string | undefined): ToolResultContent {
  return notice ? { ...result, content: [...result.content, { type: 'text', text: notice }] } : result;
}

/**
 * One result for the model: `path:start-end (symbol) [role]`, then the matched lines numbered from
 * the snippet's first line, so the model can read or edit around them without opening the chunk.
 */
function formatResult(result: SearchResult): string {
  const role = result.role && result.role !== 'source' ? ` [${result.role}]` : '';
  const header = `${result.path}:${result.startLine}-${result.endLine}${result.symbol ? ` (${result.symbol})` : ''}${role}`;
  const first = result.snippetLine ?? result.startLine;
  const lines = result.snippet.split('\n').map((line, index) => `${first + index}: ${line}`);
  return `${header}\n${lines.join('\n')}`;
}

/**
 * `codebase_search` backed by `@cairn/indexer`. The first call in a workspace builds (or opens) the
 * index and syncs it; later calls re-sync at most every `resyncAfterMs`, and `notifyFilesChanged`
 * re-indexes files the agent edited at once.
 */
export function createCodebaseSearchTool(options: CodebaseSearchToolOptions = {}) {
  const open = new Map<string, OpenIndex>();
  const resyncAfterMs = options.resyncAfterMs ?? 30_000;

  // One index per workspace (one SQLite file): a different model reopens it, and its first sync re-embeds.
  const indexFor = (cwd: string, model: EmbeddingModelV1 | undefined): OpenIndex => {
    let entry = open.get(cwd);
    const modelKey = modelKeyOf(model);
    if (entry && entry.modelKey !== modelKey) {
      void entry.index.then((index) => index.close(), () => undefined);
      entry = undefined;
    }
    if (!entry) {
      entry = {
        // The indexer (tree-sitter, SQLite) loads at the first search, not when the tool pack is imported.
        index: import('@cairn/indexer').then(({ createIndex }) => createIndex({ cwd, ...(options.home ? { home: options.home } : {}), ...(model ? { embeddingModel: model } : {}) })),
        modelKey,
        lastSync: 0,
      };
      open.set(cwd, entry);
    }
    return entry;
  };

  const tool = defineTool<CodebaseSearchInput>({
    id: 'semSearch',
    name: 'codebase_search',
    description:
      'Find code by meaning: returns the most relevant functions/classes/sections of the workspace for a natural-language ' +
      'or identifier query, each as "path:startLine-endLine (symbol)" with a snippet. Use it to locate where something is ' +
      'implemented before reading files; use grep for exact text.',
    inputSchema: { jsonSchema: schema as never },
    readOnly: true,
    category: 'search',
    timeoutMs: 120_000,
    isEnabled: ({ cwd, settings }) => settings?.enabled !== false && existsSync(cwd),
    paths: (input) => input.target_directories ?? ['.'],
    async execute(input, context): Promise<ToolResultContent> {
      if (typeof input.query !== 'string' || !input.query.trim()) throw new ToolError('query is required: describe the code you are looking for.');
      const directories: string[] = [];
      for (const directory of input.target_directories ?? []) {
        const resolved = await resolveWorkspacePath(context.cwd, directory, { allowRoot: true });
        if (context.isPathDenied(resolved.absolute, 'read')) throw new ToolError(`Searching ${directory} is denied by the permission rules.`);
        if (resolved.relative) directories.push(resolved.relative);
      }
      const configured = configuredModel(context.settings, options.embeddingModel);
      const entry = indexFor(context.cwd, configured.model);
      const index = await entry.index;
      if (Date.now() - entry.lastSync > resyncAfterMs) {
        entry.syncing ??= index
          .sync({ abortSignal: context.signal })
          .then((result) => {
            entry.embeddingError = result.embeddingError;
          })
          .finally(() => {
            entry.lastSync = Date.now();
            entry.syncing = undefined;
          });
        await entry.syncing;
      }
      const limit = typeof context.settings?.limit === 'number' ? context.settings.limit : (options.limit ?? 10);
      let queryError: string | undefined;
      const onEmbeddingError = (message: string) => {
        queryError = message;
      };
      const results = (await index.search(input.query, { limit: limit * 2, targetDirectories: directories, abortSignal: context.signal, onEmbeddingError }))
        .filter((result) => !context.isPathDenied(`${context.cwd}/${result.path}`, 'read'))
        .slice(0, limit);
      const embeddingNotice = embeddingNoticeOf(configured.error ?? queryError, entry.embeddingError);
      if (results.length === 0) return withNotice({ content: [{ type: 'text', text: 'No matching code found. Try other words, an identifier, or grep for exact text.' }] }, embeddingNotice);
      const text = results.map(formatResult).join('\n\n');
      return withNotice({
        content: [{ type: 'text', text }],
        structuredContent: results.map(({ path, startLine, endLine, score, symbol, role, snippetLine, scoreParts }) => ({
          path, startLine, endLine, score, ...(symbol ? { symbol } : {}), ...(role ? { role } : {}), ...(snippetLine ? { snippetLine } : {}), ...(scoreParts ? { scoreParts } : {}),
        })),
      }, embeddingNotice);
    },
  });

  /** Re-index files changed by the agent's own tools (call from `recordFileChange`). No-op before the first search. */
  const notifyFilesChanged = async (cwd: string, paths: string[]): Promise<void> => {
    const entry = open.get(cwd);
    if (!entry) return;
    await (await entry.index).updateFiles(paths);
  };

  const close = async (): Promise<void> => {
    for (const entry of open.values()) (await entry.index).close();
    open.clear();
  };

  return { tool, notifyFilesChanged, close };
}

const defaultInstance = createCodebaseSearchTool();
export const codebaseSearchTool = defaultInstance.tool;
export const notifyFilesChanged = defaultInstance.notifyFilesChanged;
