import type { Registry } from '../registry/registry.js';
import type { AgentUsage, CostCents, TokenUsage } from '../spec/events/v1/index.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentStore, RunRecord } from '../spec/store/v1/index.js';
import { subagentUsageOf } from './subagent-usage.js';
import { addUsage, emptyUsage, subtractUsage } from './token-usage.js';
import type { ModelCatalogEntry } from '../spec/provider/v1/index.js';

/** Cost of token usage at a catalog entry's prices (dollars per million tokens -> cents). */
export function costOf(usage: TokenUsage, catalog: ModelCatalogEntry | undefined): CostCents {
  const pricing = catalog?.pricing;
  if (!pricing) return { rawCostCents: 0, chargedCents: 0 };
  const uncachedInput = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const dollars =
    (uncachedInput * pricing.inputPerMillion +
      usage.cacheReadTokens * (pricing.cachedInputPerMillion ?? pricing.inputPerMillion) +
      usage.cacheWriteTokens * (pricing.cacheWritePerMillion ?? pricing.inputPerMillion) +
      usage.outputTokens * pricing.outputPerMillion) /
    1_000_000;
  const cents = Math.round(dollars * 100 * 10_000) / 10_000;
  return { rawCostCents: cents, chargedCents: cents };
}

export function addCost(left: CostCents, right: CostCents): CostCents {
  return { rawCostCents: round(left.rawCostCents + right.rawCostCents), chargedCents: round(left.chargedCents + right.chargedCents) };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * `getUsage({ runId })`: the agent's usage restricted to that run's entry, whose usage and cost
 * become the totals. A runId that is not one of the agent's runs is a mistake, not an empty result.
 */
export function usageOfRun(usage: AgentUsage, agentId: string, runId: string): AgentUsage {
  const run = usage.runs.find((entry) => entry.runId === runId);
  if (!run) throw new ConfigurationError(`Agent ${agentId} has no run ${runId}. Pass a runId from getUsage().runs[].runId (or Agent.listRuns()).`);
  return { usage: run.usage, ...(run.cost ? { cost: run.cost } : {}), runs: [run] };
}

/** Tokens and cost of every run of an agent, priced from each run's model catalog entry. */
export async function agentUsage(store: AgentStore, registry: Registry, agentId: string): Promise<AgentUsage> {
  let usage = emptyUsage();
  let cost: CostCents | undefined;
  const runs: AgentUsage['runs'] = [];
  let cursor: string | undefined;
  do {
    const page = await store.runs.list(agentId, { limit: 100, ...(cursor ? { cursor } : {}) });
    for (const run of page.items) {
      const runUsage = run.usage ?? emptyUsage();
      const runCost = costOfRun(run, runUsage, registry);
      usage = addUsage(usage, runUsage);
      if (runCost) cost = cost ? addCost(cost, runCost) : runCost;
      runs.push({ runId: run.runId, model: run.model, usage: runUsage, ...(runCost ? { cost: runCost } : {}) });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return { usage, ...(cost ? { cost } : {}), runs };
}

/**
 * A run's cost: its own turns at its model's prices and each subagent's tokens (rolled up into the
 * run's usage) at the prices of the model that spent them. Unknown (undefined) when any of those
 * models has no prices: an unpriced share's cost is unknown, not zero.
 */
function costOfRun(run: RunRecord, usage: TokenUsage, registry: Registry): CostCents | undefined {
  let own = usage;
  let cost: CostCents = { rawCostCents: 0, chargedCents: 0 };
  for (const child of subagentUsageOf(run)) {
    const catalog = registry.catalogEntry(child.model);
    if (!catalog?.pricing) return undefined;
    own = subtractUsage(own, child.usage);
    cost = addCost(cost, costOf(child.usage, catalog));
  }
  const catalog = registry.catalogEntry(run.model);
  return catalog?.pricing ? addCost(cost, costOf(own, catalog)) : undefined;
}
