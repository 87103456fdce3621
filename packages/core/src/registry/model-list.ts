import { ConfigurationError } from '../spec/errors/index.js';
import type {
  CatalogParameterDefinition, ModelCatalogEntry, ModelListItem, ModelListOptions, ModelParameterDefinition, ModelVariant, ProviderV1,
} from '../spec/provider/v1/index.js';
import { autoCandidates, autoModelId, chooseAutoModel, type OptimizeFor, optimizeForParameter, routerModelId } from './auto-router.js';
import { isProviderConfigured, tryLocateModel } from './model-id.js';
import { valueTexts } from './model-params.js';

const listOptionNames = new Set(['providers', 'env', 'apiKey']);

/**
 * `Cairn.models.list()`: the router (when a configured provider has a model it can route to) and
 * the catalog models of every configured provider, ids qualified as `provider/model`. Every id and
 * alias listed resolves, with the same options, to the model it is listed under.
 */
export function modelListItems(providers: ProviderV1[], options: ModelListOptions = {}): ModelListItem[] {
  checkListOptions(options);
  const byId = new Map(providers.map((provider) => [provider.id, provider]));
  const router = routerItem(providers, options);
  const models = providers
    .filter((provider) => isProviderConfigured(provider, options))
    .flatMap((provider) => (provider.models?.() ?? []).map((entry) => catalogItem(provider, entry, byId, options)));
  return router ? [router, ...models] : models;
}

function checkListOptions(options: ModelListOptions): void {
  const unknown = Object.keys(options).filter((name) => !listOptionNames.has(name));
  if (unknown.length) throw new ConfigurationError(`Cairn.models.list() has no option ${unknown.map((name) => `"${name}"`).join(', ')}. Its options: providers, env.`);
  if (options.apiKey !== undefined) {
    throw new ConfigurationError(
      'Cairn.models.list() takes no apiKey: the catalog spans several providers, each with its own key. Pass providers: { <provider>: { apiKey } } (for example providers.openai.apiKey), or set the provider\'s key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY).',
    );
  }
}

function catalogItem(provider: ProviderV1, entry: ModelCatalogEntry, providers: Map<string, ProviderV1>, options: ModelListOptions): ModelListItem {
  const displayName = entry.displayName ?? entry.id;
  const parameters = (entry.params ?? []).flatMap((definition) => listedParameter(definition) ?? []);
  const unlisted = (entry.params ?? []).filter((definition) => !listedParameter(definition));
  const aliases = [entry.id, ...(entry.aliases ?? []).flatMap((alias) => [alias, `${provider.id}/${alias}`])].filter((name) => {
    const location = tryLocateModel(name, providers, options);
    return location?.provider === provider && location.localId === entry.id;
  });
  const variants = variantsOf(displayName, entry.params ?? []);
  return {
    id: `${provider.id}/${entry.id}`,
    displayName,
    description: describeEntry(provider, entry, unlisted),
    ...(aliases.length ? { aliases } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(variants.length ? { variants } : {}),
  };
}

/**
 * A catalog parameter as listed: its values as strings, the default first (a selection without the
 * parameter gets it). A number without a list of values cannot be listed that way: undefined.
 */
function listedParameter(definition: CatalogParameterDefinition): ModelParameterDefinition | undefined {
  const texts = valueTexts(definition);
  if (!texts?.length) return undefined;
  const defaultText = definition.default === undefined ? undefined : String(definition.default);
  const ordered = defaultText !== undefined && texts.includes(defaultText) ? [defaultText, ...texts.filter((text) => text !== defaultText)] : texts;
  return {
    id: definition.id,
    ...(definition.displayName ? { displayName: definition.displayName } : {}),
    values: ordered.map((value) => {
      const name = definition.valueDisplayNames?.[value];
      return { value, ...(name ? { displayName: name } : {}) };
    }),
  };
}

/** Presets for a model with one listed parameter: one per value, the default marked. More parameters: none (too many combinations to be useful). */
function variantsOf(displayName: string, definitions: CatalogParameterDefinition[], describe?: (value: string) => string | undefined): ModelVariant[] {
  const listed = definitions.flatMap((definition) => {
    const parameter = listedParameter(definition);
    return parameter ? [{ definition, parameter }] : [];
  });
  if (listed.length !== 1) return [];
  const { definition, parameter } = listed[0]!;
  const parameterName = parameter.displayName ?? parameter.id;
  return parameter.values.map(({ value, displayName: valueName }) => {
    const description = describe?.(value);
    return {
      params: [{ id: parameter.id, value }],
      displayName: `${displayName} (${parameterName}: ${valueName ?? value})`,
      ...(description ? { description } : {}),
      ...(definition.default !== undefined && String(definition.default) === value ? { isDefault: true } : {}),
    };
  });
}

function describeEntry(provider: ProviderV1, entry: ModelCatalogEntry, unlisted: CatalogParameterDefinition[]): string {
  const abilities = (['tools', 'images', 'reasoning'] as const).filter((ability) => entry.capabilities[ability]);
  const parts = [
    `${provider.name ?? provider.id} model: ${Math.round(entry.contextWindow / 1000)}k-token context, up to ${Math.round(entry.maxOutputTokens / 1000)}k output tokens${abilities.length ? `; ${abilities.join(', ')}` : ''}.`,
  ];
  if (entry.pricing) parts.push(`$${entry.pricing.inputPerMillion} input / $${entry.pricing.outputPerMillion} output per million tokens.`);
  const endOfLife = entry.providerHints?.endOfLife;
  if (typeof endOfLife === 'string') parts.push(`End of life: ${endOfLife}.`);
  for (const definition of unlisted) parts.push(`Also takes "${definition.id}" (a ${definition.type}${definition.description ? `: ${definition.description}` : ''}).`);
  return parts.join(' ');
}

/** The router as a model: listed only when it has something to route to. */
function routerItem(providers: ProviderV1[], options: ModelListOptions): ModelListItem | undefined {
  const candidates = autoCandidates(providers, options);
  const now = new Date();
  const choices = new Map((optimizeForParameter.values as OptimizeFor[]).map((mode) => [mode, chooseAutoModel(candidates, mode, now)]));
  if (![...choices.values()].some(Boolean)) return undefined;
  const displayName = 'Router';
  const routesTo = (mode: string) => {
    const choice = choices.get(mode as OptimizeFor);
    return choice ? `Routes to ${choice.provider.id}/${choice.entry.id} now: the ${choice.reason}.` : undefined;
  };
  return {
    id: routerModelId,
    displayName,
    description:
      'Picks a tool-capable catalog model of a configured provider when the agent is created or the model is set on send: the cheapest of the tier optimize_for asks for ' +
      '(cost: fast, balanced: balanced, intelligence: frontier), the nearest tier when that one is empty. Without optimize_for it picks as for balanced.',
    aliases: [autoModelId],
    parameters: [listedParameter(optimizeForParameter)!],
    variants: variantsOf(displayName, [optimizeForParameter], routesTo),
  };
}
