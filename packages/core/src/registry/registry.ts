import { ConfigurationError } from '../spec/errors/index.js';
import type { EmbeddingModelV1 } from '../spec/embedding-model/v1/index.js';
import type { LanguageModelV1 } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { CairnPlugin } from '../spec/plugin/v1/index.js';
import type { ModelCatalogEntry, ModelSelection, ProviderSettings, ProviderV1 } from '../spec/provider/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { type AutoChoice, autoModelId, optimizeForParameter, routeAutoModel } from './auto-router.js';
import { validateMode } from './validate-mode.js';

export interface ResolvedModel {
  model: LanguageModelV1;
  provider: ProviderV1;
  /** `provider/model` as the user wrote it (aliases resolved to the catalog id). */
  id: string;
  catalog?: ModelCatalogEntry;
  /** Set when the selection was `auto`: what the router optimized for and why it chose `id`. */
  auto?: Pick<AutoChoice, 'optimizeFor' | 'reason'>;
}

export interface ResolveModelOptions {
  providers?: Record<string, ProviderSettings | undefined>;
  /** Key for the selected model's provider (AgentOptions.apiKey). */
  apiKey?: string;
  env?: Record<string, string | undefined>;
  /** The selection's params; `auto` reads `optimize_for` from them. */
  params?: ModelSelection['params'];
}

/** Where providers, tool packs, stores and modes are contributed and looked up. */
export interface Registry {
  use(plugin: CairnPlugin): Registry;
  readonly plugins: readonly CairnPlugin[];
  provider(id: string): ProviderV1 | undefined;
  providers(): ProviderV1[];
  tools(): ToolDefinition[];
  mode(id: string): ModeDefinition | undefined;
  modes(): ModeDefinition[];
  store(name: string): ((options: { home: string }) => AgentStore) | undefined;
  resolveModel(modelId: string, options?: ResolveModelOptions): ResolvedModel;
  resolveEmbeddingModel(modelId: string, options?: ResolveModelOptions): EmbeddingModelV1;
  /** Catalog entries of every provider that is configured (key present or none needed). */
  listModels(options?: ResolveModelOptions): ModelCatalogEntry[];
  catalogEntry(modelId: string): ModelCatalogEntry | undefined;
}

export function createRegistry(plugins: CairnPlugin[] = []): Registry {
  const registered: CairnPlugin[] = [];
  const providerMap = new Map<string, ProviderV1>();
  const toolMap = new Map<string, ToolDefinition>();
  const modeMap = new Map<string, ModeDefinition>();
  const storeMap = new Map<string, (options: { home: string }) => AgentStore>();

  const registry: Registry = {
    use(plugin) {
      if (!plugin || typeof plugin.name !== 'string') throw new ConfigurationError('registry.use(plugin) needs a plugin object with a name.');
      for (const provider of plugin.providers ?? []) providerMap.set(provider.id, provider);
      for (const tool of plugin.tools ?? []) {
        const existing = toolMap.get(tool.name);
        if (existing && existing !== tool) {
          throw new ConfigurationError(`Plugin "${plugin.name}" registers tool "${tool.name}", which another plugin already registered. Tool names must be unique.`);
        }
        toolMap.set(tool.name, tool);
      }
      for (const mode of plugin.modes ?? []) modeMap.set(validateMode(mode, plugin.name).id, mode);
      for (const [name, factory] of Object.entries(plugin.stores ?? {})) storeMap.set(name, factory);
      registered.push(plugin);
      return registry;
    },
    get plugins() {
      return registered;
    },
    provider: (id) => providerMap.get(id),
    providers: () => [...providerMap.values()],
    tools: () => [...toolMap.values()],
    mode: (id) => modeMap.get(id),
    modes: () => [...modeMap.values()],
    store: (name) => storeMap.get(name),
    resolveModel(modelId, options = {}) {
      if (modelId === autoModelId) return resolveAuto([...providerMap.values()], options);
      const { provider, localId } = splitModelId(modelId, providerMap);
      const catalog = findCatalogEntry(provider, localId);
      const settings = { ...(options.providers?.[provider.id] ?? {}) };
      if (options.apiKey && !settings.apiKey) settings.apiKey = options.apiKey;
      const model = provider.languageModel(catalog?.id ?? localId, { settings, env: options.env ?? process.env });
      return { model, provider, id: `${provider.id}/${catalog?.id ?? localId}`, ...(catalog ? { catalog } : {}) };
    },
    resolveEmbeddingModel(modelId, options = {}) {
      const { provider, localId } = splitModelId(modelId, providerMap);
      if (!provider.embeddingModel) throw new ConfigurationError(`Provider "${provider.id}" has no embedding models.`);
      const settings = { ...(options.providers?.[provider.id] ?? {}) };
      return provider.embeddingModel(localId, { settings, env: options.env ?? process.env });
    },
    listModels(options = {}) {
      const env = options.env ?? process.env;
      return [...providerMap.values()]
        .filter((provider) => provider.isConfigured?.({ settings: options.providers?.[provider.id] ?? {}, env }) ?? true)
        .flatMap((provider) => provider.models?.() ?? []);
    },
    catalogEntry(modelId) {
      try {
        const { provider, localId } = splitModelId(modelId, providerMap);
        return findCatalogEntry(provider, localId);
      } catch {
        return undefined;
      }
    },
  };
  for (const plugin of plugins) registry.use(plugin);
  return registry;
}

/**
 * `auto`: the router picks a catalog model of a configured provider; the result is that concrete
 * model (its id is what the run reports), with `optimize_for` added to the catalog entry's params so
 * the selection validates. `apiKey` is not applied: it belongs to one provider, and auto may pick another.
 */
function resolveAuto(providers: ProviderV1[], options: ResolveModelOptions): ResolvedModel {
  const env = options.env ?? process.env;
  const choice = routeAutoModel(providers, { ...(options.providers ? { providers: options.providers } : {}), env, ...(options.params ? { params: options.params } : {}) });
  const settings = { ...(options.providers?.[choice.provider.id] ?? {}) };
  const model = choice.provider.languageModel(choice.entry.id, { settings, env });
  const catalog = { ...choice.entry, params: [...(choice.entry.params ?? []), optimizeForParameter] };
  return { model, provider: choice.provider, id: `${choice.provider.id}/${choice.entry.id}`, catalog, auto: { optimizeFor: choice.optimizeFor, reason: choice.reason } };
}

function splitModelId(modelId: string, providers: Map<string, ProviderV1>): { provider: ProviderV1; localId: string } {
  const slash = modelId.indexOf('/');
  if (slash <= 0 || slash === modelId.length - 1) {
    throw new ConfigurationError(
      `Model "${modelId}" is not of the form "provider/model" (for example "openai/gpt-5.2", "anthropic/claude-sonnet-4-5", "ollama/qwen3"). Known providers: ${[...providers.keys()].join(', ') || 'none registered'}.`,
    );
  }
  const providerId = modelId.slice(0, slash);
  const provider = providers.get(providerId);
  if (!provider) {
    throw new ConfigurationError(
      `Unknown model provider "${providerId}" in "${modelId}". Known providers: ${[...providers.keys()].join(', ') || 'none registered'}. Register its plugin with registry.use(...) or fix the model id.`,
    );
  }
  return { provider, localId: modelId.slice(slash + 1) };
}

function findCatalogEntry(provider: ProviderV1, localId: string): ModelCatalogEntry | undefined {
  const models = provider.models?.() ?? [];
  return models.find((entry) => entry.id === localId) ?? models.find((entry) => entry.aliases?.includes(localId));
}
