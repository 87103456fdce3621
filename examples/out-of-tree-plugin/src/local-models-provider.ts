import { ConfigurationError, type LanguageModelV1, type ModelCatalogEntry, type ProviderV1 } from '@cairn/core';

export interface LocalModelsProviderOptions {
  /** The provider id, the part before "/" in model ids. Default `local`. */
  id?: string;
  /** The models this provider serves, by model id: any `LanguageModelV1` (an in-process runtime, a test's scripted model). */
  models: Record<string, LanguageModelV1>;
  /** Context window the catalog reports for every model. Default 32,000 tokens. */
  contextWindow?: number;
}

/**
 * A provider for models that run in this process: no key, no network. It shows the whole provider
 * contract a third party implements: building models by id, a catalog, and saying it is configured.
 */
export function createLocalModelsProvider(options: LocalModelsProviderOptions): ProviderV1 {
  const id = options.id ?? 'local';
  const ids = Object.keys(options.models);
  if (ids.length === 0) throw new ConfigurationError(`Provider "${id}" needs at least one model in options.models.`);
  const catalog: ModelCatalogEntry[] = ids.map((modelId) => ({
    id: modelId,
    provider: id,
    contextWindow: options.contextWindow ?? 32_000,
    maxOutputTokens: 4_000,
    capabilities: { tools: true, images: false, reasoning: false },
  }));
  return {
    specificationVersion: 'v1',
    id,
    name: 'Local models',
    languageModel(modelId) {
      const model = options.models[modelId];
      if (!model) throw new ConfigurationError(`Provider "${id}" has no model "${modelId}". Its models: ${ids.join(', ')}.`);
      return model;
    },
    models: () => catalog,
    // Nothing to configure: the models are already here.
    isConfigured: () => true,
  };
}
