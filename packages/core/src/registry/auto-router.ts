import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelCatalogEntry, ModelParameterDefinition, ModelSelection, ProviderSettings, ProviderV1 } from '../spec/provider/v1/index.js';

/** The model id that lets Cairn pick a model from the configured providers' catalogs. */
export const autoModelId = 'auto';

export type OptimizeFor = 'cost' | 'balanced' | 'intelligence';

const optimizeForValues: OptimizeFor[] = ['cost', 'balanced', 'intelligence'];

/** The one parameter of `auto`; added to the chosen entry so the selection's params validate. */
export const optimizeForParameter: ModelParameterDefinition = {
  id: 'optimize_for',
  description: 'What the auto router optimizes for: the cheapest fast model, a balanced one, or a frontier model.',
  type: 'enum',
  values: optimizeForValues,
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
    throw new ConfigurationError(`Parameter "optimize_for" of the auto model must be one of ${optimizeForValues.join(', ')} (got ${String(value)}).`);
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
  const env = options.env ?? process.env;
  return providers
    .filter((provider) => provider.isConfigured?.({ settings: options.providers?.[provider.id] ?? {}, env }) ?? true)
    .flatMap((provider) => (provider.models?.() ?? []).map((entry) => ({ provider, entry })));
}

/** Resolves `auto` to a concrete catalog model of a configured provider, or explains why it cannot. */
export function routeAutoModel(providers: ProviderV1[], options: AutoRouteOptions): AutoChoice {
  const optimizeFor = optimizeForOf(options.params);
  const candidates = autoCandidates(providers, options);
  const choice = chooseAutoModel(candidates, optimizeFor, options.now);
  if (choice) return choice;
  if (candidates.length === 0) {
    const keys = [...new Set(providers.flatMap((provider) => provider.apiKeyEnv ?? []))];
    throw new ConfigurationError(
      `The "auto" model needs at least one configured provider with a model catalog, and none is configured. ${
        keys.length ? `Set one of ${keys.join(', ')}` : 'Register a provider plugin'
      } (or pass providers.<id>.apiKey), or choose a model such as "ollama/qwen3" explicitly.`,
    );
  }
  const configured = [...new Set(candidates.map(({ provider }) => provider.id))].join(', ');
  throw new ConfigurationError(`The "auto" model found no tool-capable model with a tier in the catalogs of the configured providers (${configured}). Choose a model explicitly, as "provider/model".`);
}
