import type { WorkspaceConfig } from '../config/workspace-config.js';
import { parseEmbeddingSetting, resolveEmbeddingSetting } from '../registry/embedding-setting.js';
import type { Registry } from '../registry/registry.js';
import type { AgentOptions } from './agent-options.js';

/**
 * The embedding model of `codebase_search`'s index, handed to the tool as
 * `toolSettings.semSearch.embeddingModel`: the agent's `toolSettings.semSearch.embeddings`, else
 * `index.embeddings` of the settings files. A setting that cannot be resolved (a missing key, an
 * unknown provider) becomes `embeddingError`, which the tool reports with keyword results, so a
 * broken embedding setting never stops a run.
 */
export function withIndexEmbeddings(toolSettings: Record<string, unknown>, config: WorkspaceConfig, registry: Registry, options: Pick<AgentOptions, 'providers' | 'env'>): Record<string, unknown> {
  const semSearch = (typeof toolSettings.semSearch === 'object' && toolSettings.semSearch !== null ? toolSettings.semSearch : {}) as Record<string, unknown>;
  const inline = semSearch.embeddings;
  const fromFile = config.index?.embeddings;
  if (inline === undefined && fromFile === undefined && !config.index?.error) return toolSettings;
  try {
    if (inline === undefined && config.index?.error) throw new Error(config.index.error);
    const setting = inline !== undefined ? parseEmbeddingSetting(inline, 'toolSettings.semSearch.embeddings') : fromFile!;
    const embeddingModel = resolveEmbeddingSetting(registry, setting, { ...(options.providers ? { providers: options.providers } : {}), env: options.env ?? process.env });
    return { ...toolSettings, semSearch: { ...semSearch, embeddingModel } };
  } catch (error) {
    return { ...toolSettings, semSearch: { ...semSearch, embeddingError: error instanceof Error ? error.message : String(error) } };
  }
}
