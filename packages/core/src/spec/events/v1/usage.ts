/** Token usage of one turn or summed over runs. `reasoningTokens` is already inside `outputTokens`. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
}

export interface CostCents {
  /** Cost at the provider's list prices. */
  rawCostCents: number;
  /** What the user is charged (equal to raw for direct API use). */
  chargedCents: number;
}

export interface AgentUsage {
  usage: TokenUsage;
  cost: CostCents;
  runs: Array<{ runId: string; model: string; usage: TokenUsage; cost: CostCents }>;
}
