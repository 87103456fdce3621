import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelCatalogEntry, ProviderSettings, ProviderV1 } from '../spec/provider/v1/index.js';
import { closeMatches } from './close-matches.js';
import { hostEnv } from '../util/host-env.js';

/** Where a model id points: its provider, the id to build it with, and its catalog entry if known. */
export interface ModelLocation {
  provider: ProviderV1;
  localId: string;
  entry?: ModelCatalogEntry;
}

export interface ProviderConfigurationOptions {
  providers?: Record<string, ProviderSettings | undefined>;
  env?: Record<string, string | undefined>;
}

/** The router's ids, shown in suggestions. */
const routerIds = ['auto-smart', 'auto'];

/** True when the provider can be used with these settings; a provider that cannot tell counts as configured. */
export function isProviderConfigured(provider: ProviderV1, options: ProviderConfigurationOptions): boolean {
  return provider.isConfigured?.({ settings: options.providers?.[provider.id] ?? {}, env: options.env ?? hostEnv() }) ?? true;
}

/** The provider's catalog entry with this id, else the one with this alias. */
export function findCatalogEntry(provider: ProviderV1, localId: string): ModelCatalogEntry | undefined {
  const models = provider.models?.() ?? [];
  return models.find((entry) => entry.id === localId) ?? models.find((entry) => entry.aliases?.includes(localId));
}

/**
 * Finds the provider of a model id: `provider/model` (any model id the provider takes), or a catalog
 * id or alias without the provider (`gpt-5.2`, `claude-sonnet-4-5`). A bare id in the catalogs of
 * several providers goes to the one that is configured; otherwise the error lists the choices.
 */
export function locateModel(modelId: string, providers: Map<string, ProviderV1>, options: ProviderConfigurationOptions = {}): ModelLocation {
  const slash = modelId.indexOf('/');
  const provider = slash > 0 ? providers.get(modelId.slice(0, slash)) : undefined;
  if (provider) {
    const localId = modelId.slice(slash + 1);
    if (!localId) throw new ConfigurationError(`Model "${modelId}" names no model after the provider. Write it as "${provider.id}/<model>", or list the models with Cairn.models.list().`);
    const entry = findCatalogEntry(provider, localId);
    return { provider, localId: entry?.id ?? localId, ...(entry ? { entry } : {}) };
  }
  const matches = catalogMatches(modelId, providers);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) return configuredMatch(modelId, matches, options);
  throw unknownModelError(modelId, providers, slash > 0 ? modelId.slice(0, slash) : undefined);
}

/** The location of a model id, or undefined when it is unknown or ambiguous. */
export function tryLocateModel(modelId: string, providers: Map<string, ProviderV1>, options: ProviderConfigurationOptions = {}): ModelLocation | undefined {
  try {
    return locateModel(modelId, providers, options);
  } catch (error) {
    if (error instanceof ConfigurationError) return undefined;
    throw error;
  }
}

function catalogMatches(modelId: string, providers: Map<string, ProviderV1>): ModelLocation[] {
  return [...providers.values()].flatMap((provider) => {
    const entry = findCatalogEntry(provider, modelId);
    return entry ? [{ provider, localId: entry.id, entry }] : [];
  });
}

function configuredMatch(modelId: string, matches: ModelLocation[], options: ProviderConfigurationOptions): ModelLocation {
  const configured = matches.filter((match) => isProviderConfigured(match.provider, options));
  if (configured.length === 1) return configured[0]!;
  const choices = matches.map((match) => `"${match.provider.id}/${match.localId}"`).join(', ');
  const why = configured.length === 0 ? 'none of them is configured' : 'several of them are configured';
  throw new ConfigurationError(`Model "${modelId}" is in the catalogs of several providers and ${why}. Choose one: ${choices}.`);
}

function unknownModelError(modelId: string, providers: Map<string, ProviderV1>, unknownPrefix: string | undefined): ConfigurationError {
  const known = [...providers.keys()].join(', ') || 'none registered';
  const suggestions = suggestModels(modelId, providers);
  const didYouMean = suggestions.length ? ` Did you mean ${suggestions.map((id) => `"${id}"`).join(', ')}?` : '';
  if (unknownPrefix) {
    return new ConfigurationError(
      `Unknown model provider "${unknownPrefix}" in "${modelId}". Known providers: ${known}.${didYouMean} Register its plugin with registry.use(...) or fix the model id.`,
    );
  }
  return new ConfigurationError(
    `Unknown model "${modelId}": no registered provider's catalog has it.${didYouMean} List the models of the configured providers with Cairn.models.list() (or \`cairn models\`). ` +
      `A model outside the catalogs needs its provider, as "provider/model" (for example "ollama/qwen3"; known providers: ${known}).`,
  );
}

/** Qualified ids close to a mistyped one, matched on the bare and the qualified forms. */
function suggestModels(modelId: string, providers: Map<string, ProviderV1>): string[] {
  const suggestionByName = new Map<string, string>(routerIds.map((id) => [id, id]));
  for (const provider of providers.values()) {
    for (const entry of provider.models?.() ?? []) {
      for (const name of [entry.id, ...(entry.aliases ?? [])]) {
        suggestionByName.set(name, `${provider.id}/${entry.id}`);
        suggestionByName.set(`${provider.id}/${name}`, `${provider.id}/${entry.id}`);
      }
    }
  }
  const names = closeMatches(modelId, suggestionByName.keys(), 20);
  return [...new Set(names.map((name) => suggestionByName.get(name)!))].slice(0, 5);
}
