import { CairnError } from '../spec/errors/index.js';
import type { ModelCatalogEntry } from '../spec/provider/v1/index.js';
import type { ModelMessage, ToolModelMessage } from '../spec/language-model/v1/index.js';
import { estimateMessagesTokens, toolOutputText } from './compaction-tokens.js';

/** `AgentOptions.compaction` (SPEC section 6). */
export interface CompactionPolicy {
  /** Default true. */
  enabled?: boolean;
  /** Absolute budget for the next request's input tokens. */
  maxTokens?: number;
  /** Share of the model's context window (from the catalog) the request may fill. Default 0.8. */
  ratio?: number;
  /** Newest turns (an assistant message with its tool results) kept verbatim. Default 4. */
  keepRecentTurns?: number;
}

export interface PreCompactEvent {
  agentId: string;
  runId: string;
  trigger: 'auto';
  mode: string;
  /** Estimated tokens of the next request, and the budget it exceeds. */
  tokens: number;
  budget: number;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing
export type PreCompactResult = void | { instructions?: string };

/** Typed in-process hooks. Only `preCompact` is wired here; SPEC section 9 lists the rest. */
export interface AgentHooks {
  /** Before a compaction; may add instructions for the summary (like Claude Code's PreCompact). */
  preCompact?: (event: PreCompactEvent) => PreCompactResult | Promise<PreCompactResult>;
}

export const defaultCompactionRatio = 0.8;
export const defaultKeepRecentTurns = 4;

/** The token budget of the next request, or undefined when compaction is off or nothing bounds it. */
export function compactionBudget(policy: CompactionPolicy | undefined, catalog: ModelCatalogEntry | undefined): number | undefined {
  if (policy?.enabled === false) return undefined;
  const fromWindow = catalog?.contextWindow ? Math.floor(catalog.contextWindow * (policy?.ratio ?? defaultCompactionRatio)) : undefined;
  const candidates = [policy?.maxTokens, fromWindow].filter((value): value is number => typeof value === 'number' && value > 0);
  return candidates.length ? Math.min(...candidates) : undefined;
}

export function compactionFailed(message: string, cause?: unknown): CairnError {
  return new CairnError(message, { code: 'compaction_failed', ...(cause === undefined ? {} : { cause }) });
}

/**
 * Where the kept tail starts: at the `keep`-th assistant message from the end, so every kept tool
 * result keeps its call. 0 when the whole conversation is the tail.
 */
export function tailStart(messages: readonly ModelMessage[], keep: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'assistant' && ++seen >= Math.max(1, keep)) return index;
  }
  return 0;
}

const prunedMarker = '[Old tool output removed to save context';
const pruneThreshold = 300;

/**
 * First stage: replace the outputs of tool results older than the tail with a short placeholder
 * (the call itself stays, so the model knows what it did and can run it again). Returns the new
 * conversation and how many outputs were pruned; messages that did not change keep their identity.
 */
export function pruneOldToolOutputs(messages: readonly ModelMessage[], keepRecentTurns: number): { messages: ModelMessage[]; pruned: number } {
  const start = tailStart(messages, keepRecentTurns);
  let pruned = 0;
  const result = messages.map((message, index) => {
    if (index >= start || message.role !== 'tool') return message;
    let changed = false;
    const content = message.content.map((part) => {
      const text = toolOutputText(part.output);
      if (text.length <= pruneThreshold || text.startsWith(prunedMarker)) return part;
      changed = true;
      pruned++;
      return { ...part, output: { type: 'text' as const, value: `${prunedMarker}: ${part.toolName} returned ${text.length} characters. Call the tool again if you need it.]` } };
    });
    return changed ? ({ ...message, content } satisfies ToolModelMessage) : message;
  });
  return { messages: result, pruned };
}

export { estimateMessagesTokens };
