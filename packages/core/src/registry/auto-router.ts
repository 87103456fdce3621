import { ConfigurationError } from '../spec/errors/index.js';
import type { CatalogParameterDefinition, ModelCatalogEntry, ModelSelection, ProviderSettings, ProviderV1 } from '../spec/provider/v1/index.js';
import { isProviderConfigured } from './model-id.js';

/** The router's model id, as `Cairn.models.list()` lists it; takes `optimize_for`. */
export const routerModelId = 'auto-smart';
/** The router's first id, kept: the same router (an alias of `auto-smart`). */
export const autoModelId = 'auto';

/** Whether a model id asks the router to pick the model. */
export function isRouterModelId(modelId: string): boolean {
  return modelId === routerModelId || modelId === autoModelId;
}

export type OptimizeFor = 'cost' | 'balanced' | 'intelligence';

const optimizeForValues: OptimizeFor[] = ['cost', 'balanced', 'intelligence'];

/** The router's one parameter; added to the chosen entry so the selection's params validate. */
export const optimizeForParameter: CatalogParameterDefinition = {
  id: 'optimize_for',
  displayName: 'Optimize for',
  description: 'What the router optimizes for: the cheapest fast model, a balanced one, or a frontier model.',
  type: 'enum',
  values: optimizeForValues,
  valueDisplayNames: { cost: 'Cost', balanced: 'Balance', intelligence: 'Intelligence' },
  // Without optimize_for the router picks as for balanced (what `auto` always did).
  default: 'balanced',
};

type Tier = NonNullable<ModelCatalogEntry['tier']>;

/** Tiers to look in, in order: the wanted one first, then the nearest ones. */
const tierPreference: Record<OptimizeFor, Tier[]> = {
  cost: ['fast', 'balanced', 'frontier'],
  balanced: ['balanced', 'frontier', 'fast'],
  intelligence: ['frontier', 'balanced', 'fast'],
};

export interface AutoCandidate {
  provider: ProviderV1;
  entry: ModelCatalogEntry;
}

export interface AutoChoice extends AutoCandidate {
  optimizeFor: OptimizeFor;
  /** Why this model, for logs and the run's status (e.g. "cheapest balanced model with tools"). */
  reason: string;
}

export interface AutoRouteOptions {
  providers?: Record<string, ProviderSettings | undefined>;
  env?: Record<string, string | undefined>;
  params?: ModelSelection['params'];
  /** The date that retires models past their `providerHints.endOfLife` (default: now). */
  now?: Date;
}

/** `optimize_for` from a selection's params; `balanced` when absent. Throws on an unknown value. */
export function optimizeForOf(params: ModelSelection['params']): OptimizeFor {
  const value = params?.find((param) => param.id === 'optimize_for')?.value;
  if (value === undefined) return 'balanced';
  if (!optimizeForValues.includes(value as OptimizeFor)) {
    throw new ConfigurationError(`Parameter "optimize_for" of the router (${routerModelId}) must be one of ${optimizeForValues.join(', ')} (got ${String(value)}).`);
  }
  return value as OptimizeFor;
}

/**
 * Price of a typical agent step per million tokens: agents read far more than they write, so input
 * weighs three times output. Entries without a price sort last.
 */
export function blendedPrice(entry: ModelCatalogEntry): number {
  if (!entry.pricing) return Number.POSITIVE_INFINITY;
  return (3 * entry.pricing.inputPerMillion + entry.pricing.outputPerMillion) / 4;
}

function retired(entry: ModelCatalogEntry, now: Date): boolean {
  const endOfLife = entry.providerHints?.endOfLife;
  if (typeof endOfLife !== 'string') return false;
  const date = Date.parse(endOfLife);
  return Number.isFinite(date) && date <= now.getTime();
}

/**
 * Picks the model for `optimize_for` among candidates: tool-capable entries with a tier that are not
 * past their end of life; the cheapest of the wanted tier (nearest tier when it is empty); ties keep
 * the candidates' order (provider registration order, then catalog order).
 */
export function chooseAutoModel(candidates: AutoCandidate[], optimizeFor: OptimizeFor, now: Date = new Date()): AutoChoice | undefined {
  const usable = candidates.filter(({ entry }) => entry.capabilities.tools && entry.tier !== undefined && !retired(entry, now));
  for (const tier of tierPreference[optimizeFor]) {
    const inTier = usable.filter(({ entry }) => entry.tier === tier);
    if (inTier.length === 0) continue;
    // A stable sort keeps registration order between equal prices.
    const [best] = [...inTier].sort((left, right) => blendedPrice(left.entry) - blendedPrice(right.entry));
    const fallback = tier === tierPreference[optimizeFor][0] ? '' : ` (no ${tierPreference[optimizeFor][0]} model is available)`;
    return { ...best!, optimizeFor, reason: `cheapest ${tier} model with tools for optimize_for=${optimizeFor}${fallback}` };
  }
  return undefined;
}

/** The catalog entries of every configured provider, as auto candidates. */
export function autoCandidates(providers: ProviderV1[], options: AutoRouteOptions): AutoCandidate[] {
  return providers
    .filter((provider) => isProviderConfigured(provider, options))
    .flatMap((provider) => (provider.models?.() ?? []).map((entry) => ({ provider, entry })));
}

/** Resolves the router (`auto-smart`, `auto`) to a concrete catalog model of a configured provider, or explains why it cannot. */
export function routeAutoModel(providers: ProviderV1[], options: AutoRouteOptions): AutoChoice {
  const optimizeFor = optimizeForOf(options.params);
  const candidates = autoCandidates(providers, options);
  const choice = chooseAutoModel(candidates, optimizeFor, options.now);
  if (choice) return choice;
  if (candidates.length === 0) {
    const keys = [...new Set(providers.flatMap((provider) => provider.apiKeyEnv ?? []))];
    throw new ConfigurationError(
      `The router ("${routerModelId}", "${autoModelId}") needs at least one configured provider with a model catalog, and none is configured. ${
        keys.length ? `Set one of ${keys.join(', ')}` : 'Register a provider plugin'
      } (or pass providers.<id>.apiKey), or choose a model such as "ollama/qwen3" explicitly.`,
    );
  }
  const configured = [...new Set(candidates.map(({ provider }) => provider.id))].join(', ');
  throw new ConfigurationError(`The router ("${routerModelId}") found no tool-capable model with a tier in the catalogs of the configured providers (${configured}). Choose a model explicitly, as "provider/model".`);
}
