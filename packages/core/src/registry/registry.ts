import { ConfigurationError } from '../spec/errors/index.js';
import type { EmbeddingModelV1 } from '../spec/embedding-model/v1/index.js';
import type { LanguageModelV1 } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { CairnPlugin } from '../spec/plugin/v1/index.js';
import type { ModelCatalogEntry, ModelSelection, ProviderSettings, ProviderV1 } from '../spec/provider/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { type AutoChoice, isRouterModelId, optimizeForParameter, routeAutoModel } from './auto-router.js';
import { isProviderConfigured, locateModel, tryLocateModel } from './model-id.js';
import { type CallParams, parseModelParams } from './model-params.js';
import { validateMode } from './validate-mode.js';

export interface ResolvedModel {
  model: LanguageModelV1;
  provider: ProviderV1;
  /** `provider/model`: the provider found for the id, aliases resolved to the catalog id. */
  id: string;
  catalog?: ModelCatalogEntry;
  /** Set when the selection was the router (`auto-smart`, `auto`): what it optimized for and why it chose `id`. */
  auto?: Pick<AutoChoice, 'optimizeFor' | 'reason'>;
  /**
   * The selection's params checked against the catalog and parsed by type, for
   * `LanguageModelV1CallOptions.params`; the router's own `optimize_for` is not among them.
   */
  callParams?: CallParams;
}

export interface ResolveModelOptions {
  providers?: Record<string, ProviderSettings | undefined>;
  /** Key for the selected model's provider (AgentOptions.apiKey). */
  apiKey?: string;
  env?: Record<string, string | undefined>;
  /** The selection's params, checked against the catalog (`callParams`); the router reads `optimize_for` from them. */
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
  /**
   * `provider/model`, a catalog id or alias without the provider (`gpt-5.2`), or the router
   * (`auto-smart`, `auto`). Throws a ConfigurationError naming close matches for an unknown id.
   */
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
      if (isRouterModelId(modelId)) return resolveAuto([...providerMap.values()], options);
      const { provider, localId, entry: catalog } = locateModel(modelId, providerMap, options);
      const id = `${provider.id}/${localId}`;
      // Parameters first: a wrong one is the caller's to fix, whatever the provider says about keys.
      const callParams = parseModelParams(options.params, catalog ? (catalog.params ?? []) : undefined, id);
      const settings = { ...(options.providers?.[provider.id] ?? {}) };
      if (options.apiKey && !settings.apiKey) settings.apiKey = options.apiKey;
      const model = provider.languageModel(localId, { settings, env: options.env ?? process.env });
      return { model, provider, id, ...(catalog ? { catalog } : {}), ...(callParams ? { callParams } : {}) };
    },
    resolveEmbeddingModel(modelId, options = {}) {
      const { provider, localId } = splitModelId(modelId, providerMap);
      if (!provider.embeddingModel) throw new ConfigurationError(`Provider "${provider.id}" has no embedding models.`);
      const settings = { ...(options.providers?.[provider.id] ?? {}) };
      return provider.embeddingModel(localId, { settings, env: options.env ?? process.env });
    },
    listModels(options = {}) {
      return [...providerMap.values()].filter((provider) => isProviderConfigured(provider, options)).flatMap((provider) => provider.models?.() ?? []);
    },
    catalogEntry(modelId) {
      return tryLocateModel(modelId, providerMap)?.entry;
    },
  };
  for (const plugin of plugins) registry.use(plugin);
  return registry;
}

/**
 * The router: picks a catalog model of a configured provider; the result is that concrete model (its
 * id is what the run reports), with `optimize_for` added to the catalog entry's params so the
 * selection validates; the chosen model's own params are accepted too. An `apiKey` is refused: it
 * belongs to one provider, and the router may pick another.
 */
function resolveAuto(providers: ProviderV1[], options: ResolveModelOptions): ResolvedModel {
  if (options.apiKey) {
    throw new ConfigurationError(
      'apiKey cannot be used with the router (auto-smart, auto): it picks among the configured providers, and a key belongs to one of them. Give each provider its key as providers.<id>.apiKey or its key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY), or choose a model of the key\'s provider.',
    );
  }
  const env = options.env ?? process.env;
  const choice = routeAutoModel(providers, { ...(options.providers ? { providers: options.providers } : {}), env, ...(options.params ? { params: options.params } : {}) });
  const id = `${choice.provider.id}/${choice.entry.id}`;
  const catalog = { ...choice.entry, params: [...(choice.entry.params ?? []), optimizeForParameter] };
  const { [optimizeForParameter.id]: _routerOnly, ...modelParams } = parseModelParams(options.params, catalog.params, id) ?? {};
  const settings = { ...(options.providers?.[choice.provider.id] ?? {}) };
  const model = choice.provider.languageModel(choice.entry.id, { settings, env });
  const callParams = Object.keys(modelParams).length ? { callParams: modelParams } : {};
  return { model, provider: choice.provider, id, catalog, auto: { optimizeFor: choice.optimizeFor, reason: choice.reason }, ...callParams };
}

function splitModelId(modelId: string, providers: Map<string, ProviderV1>): { provider: ProviderV1; localId: string } {
  const slash = modelId.indexOf('/');
  if (slash <= 0 || slash === modelId.length - 1) {
    throw new ConfigurationError(
      `Embedding model "${modelId}" is not of the form "provider/model" (for example "openai/text-embedding-3-small", "google/gemini-embedding-001"). Known providers: ${[...providers.keys()].join(', ') || 'none registered'}.`,
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
