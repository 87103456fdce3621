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

/** The reference SDK's name for a cost in cents. */
export type UsageCost = CostCents;

/** Tokens and cost of one run (a local agent's turn). */
export interface RunUsage {
  runId: string;
  usage: TokenUsage;
  /** Absent when the run's model has no known prices (a local server, an unknown model). */
  cost?: UsageCost;
  /** Cairn: the model the run used. */
  model?: string;
}

export interface AgentUsage {
  /** Summed over `runs`. */
  usage: TokenUsage;
  /** Summed over the runs that have a cost; absent when none has. */
  cost?: UsageCost;
  runs: RunUsage[];
}
