import { ConfigurationError } from '../spec/errors/index.js';
import type { EmbeddingModelV1 } from '../spec/embedding-model/v1/index.js';
import type { McpConnector } from '../spec/mcp/v1/index.js';
import type { LanguageModelV1 } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { CairnPlugin, StoreFactory } from '../spec/plugin/v1/index.js';
import type { ModelCatalogEntry, ModelSelection, ProviderSettings, ProviderV1 } from '../spec/provider/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { type AutoChoice, isRouterModelId, optimizeForParameter, routeAutoModel } from './auto-router.js';
import { fallbackAgentMode, fallbackStores } from './fallbacks.js';
import { isProviderConfigured, locateModel, tryLocateModel } from './model-id.js';
import { type CallParams, parseModelParams } from './model-params.js';
import { planMcpRegistration, planRegistration, type Registered, type RegisteredSlots } from './plugin-registration.js';
import { hostEnv } from '../util/host-env.js';

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

/**
 * Where providers, tool packs, stores and modes are contributed and looked up: the only way plugins
 * enter. Ids are unique: a plugin that registers an id an earlier plugin registered must declare
 * it in `replaces` (see CairnPlugin).
 */
export interface Registry {
  /**
   * Add a plugin. Throws a ConfigurationError, changing nothing, for an invalid mode or tool, an id
   * another plugin registered (unless `replaces` names it) and a `replaces` entry that replaces
   * nothing. The same plugin object a second time is a no-op.
   */
  use(plugin: CairnPlugin): Registry;
  readonly plugins: readonly CairnPlugin[];
  provider(id: string): ProviderV1 | undefined;
  providers(): ProviderV1[];
  tools(): ToolDefinition[];
  /** A registered mode; for `agent` without one, the built-in fallback agent mode. */
  mode(id: string): ModeDefinition | undefined;
  /** The modes in effect: the registered ones, after the fallback agent mode when no plugin registered `agent`. */
  modes(): ModeDefinition[];
  /** The factory registered under a store name; `memory` is always there (a plugin may register its own). */
  store(name: string): StoreFactory | undefined;
  /** The names `store(name)` knows, for messages that list the choices. */
  storeNames(): string[];
  /** The MCP connector (`CairnPlugin.mcp`, from `@cairn/tools-mcp`): one per registry, undefined when none is registered. */
  mcp(): McpConnector | undefined;
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
  const slots: RegisteredSlots = { providers: new Map(), modes: new Map(), stores: new Map(), tools: new Map() };
  const valuesOf = <T>(slot: keyof RegisteredSlots): T[] => [...slots[slot].values()].map((entry) => entry.value as T);
  const lookup = <T>(slot: keyof RegisteredSlots, key: string): T | undefined => (slots[slot].get(key) as Registered<T> | undefined)?.value;
  // Provider lookups (model ids) read a plain map, as before.
  const providerMap = new Map<string, ProviderV1>();
  let mcp: Registered<McpConnector> | undefined;

  const registry: Registry = {
    use(plugin) {
      if (!plugin || typeof plugin.name !== 'string' || !plugin.name) throw new ConfigurationError('registry.use(plugin) needs a plugin object with a name.');
      if (registered.includes(plugin)) return registry;
      const contributions = planRegistration(plugin, slots);
      const connector = planMcpRegistration(plugin, mcp);
      if (connector) mcp = { value: connector, plugin };
      for (const { slot, key, value } of contributions) {
        // Map.set on an existing key keeps its place: a replacement is listed where the original was.
        slots[slot].set(key, { value, plugin });
        if (slot === 'providers') providerMap.set(key, value as ProviderV1);
      }
      registered.push(plugin);
      return registry;
    },
    get plugins() {
      return registered;
    },
    provider: (id) => providerMap.get(id),
    providers: () => [...providerMap.values()],
    tools: () => valuesOf<ToolDefinition>('tools'),
    mode: (id) => lookup<ModeDefinition>('modes', id) ?? (id === fallbackAgentMode.id ? fallbackAgentMode : undefined),
    modes: () => {
      const modes = valuesOf<ModeDefinition>('modes');
      return slots.modes.has(fallbackAgentMode.id) ? modes : [fallbackAgentMode, ...modes];
    },
    store: (name) => lookup<StoreFactory>('stores', name) ?? (Object.hasOwn(fallbackStores, name) ? fallbackStores[name] : undefined),
    storeNames: () => [...new Set([...slots.stores.keys(), ...Object.keys(fallbackStores)])],
    mcp: () => mcp?.value,
    resolveModel(modelId, options = {}) {
      if (isRouterModelId(modelId)) return resolveAuto([...providerMap.values()], options);
      const { provider, localId, entry: catalog } = locateModel(modelId, providerMap, options);
      const id = `${provider.id}/${localId}`;
      // Parameters first: a wrong one is the caller's to fix, whatever the provider says about keys.
      const callParams = parseModelParams(options.params, catalog ? (catalog.params ?? []) : undefined, id);
      const settings = { ...(options.providers?.[provider.id] ?? {}) };
      if (options.apiKey && !settings.apiKey) settings.apiKey = options.apiKey;
      const model = provider.languageModel(localId, { settings, env: options.env ?? hostEnv() });
      return { model, provider, id, ...(catalog ? { catalog } : {}), ...(callParams ? { callParams } : {}) };
    },
    resolveEmbeddingModel(modelId, options = {}) {
      const { provider, localId } = splitModelId(modelId, providerMap);
      if (!provider.embeddingModel) throw new ConfigurationError(`Provider "${provider.id}" has no embedding models.`);
      const settings = { ...(options.providers?.[provider.id] ?? {}) };
      return provider.embeddingModel(localId, { settings, env: options.env ?? hostEnv() });
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
  const env = options.env ?? hostEnv();
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
