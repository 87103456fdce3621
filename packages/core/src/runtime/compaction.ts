import { CairnError, ConfigurationError } from '../spec/errors/index.js';
import type { ModelCatalogEntry } from '../spec/provider/v1/index.js';
import type { ModelMessage, ToolModelMessage } from '../spec/language-model/v1/index.js';
import { estimateMessagesTokens, estimateMessageTokens, estimateTextTokens, toolOutputText } from './compaction-tokens.js';
import { clipOutputsToFit, outputTokens } from './turn-output-cap.js';

/** `AgentOptions.compaction` (SPEC section 6; the choices are explained in docs/compaction.md). */
export interface CompactionPolicy {
  /** Default true. */
  enabled?: boolean;
  /** Absolute budget for the next request's input tokens. */
  maxTokens?: number;
  /** Share of the model's context window (from the catalog) the request may fill. Default 0.8. */
  ratio?: number;
  /**
   * Upper bound on the newest turns (an assistant message with its tool results) kept verbatim.
   * Default 4. Which turns are kept is decided by size (`tailShare`); this only caps their number.
   */
  keepRecentTurns?: number;
  /**
   * When a compaction runs, it frees the conversation down to this share of the budget at once, so
   * the history is rewritten rarely and the provider's cached prefix survives many requests.
   * Default 0.5; between 0 and 1, above `tailShare`.
   */
  lowWaterShare?: number;
  /**
   * Share of the budget the kept newest turns may fill; the newest turn is always kept, its tool
   * outputs clipped when it alone is larger. It also caps the sum of one turn's tool outputs.
   * Default 0.25; between 0 and `lowWaterShare`.
   */
  tailShare?: number;
}

/** A policy resolved against the model: what the run needs to compact. */
export interface CompactionSettings {
  /** Token budget of one request's input. */
  budget: number;
  keepRecentTurns: number;
  lowWaterShare: number;
  tailShare: number;
  /** Cap on the sum of one turn's tool outputs (`capTurnToolOutputs`): the tail's share of the budget. */
  turnOutputTokens: number;
}

export interface PreCompactEvent {
  agentId: string;
  runId: string;
  trigger: 'auto';
  mode: string;
  /** Estimated tokens of the next request, and the budget it exceeds. */
  tokens: number;
  budget: number;
  /** The agent's workspace (set for hooks; the compaction step itself does not know it). */
  cwd?: string;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing
export type PreCompactResult = void | { instructions?: string };

/** Typed in-process hooks (SPEC section 9): declared with the other hook events in hooks/hook-types.ts. */
export type { AgentHooks } from '../hooks/hook-types.js';

export const defaultCompactionRatio = 0.8;
export const defaultKeepRecentTurns = 4;
export const defaultLowWaterShare = 0.5;
export const defaultTailShare = 0.25;

/** The token budget of the next request, or undefined when compaction is off or nothing bounds it. */
export function compactionBudget(policy: CompactionPolicy | undefined, catalog: ModelCatalogEntry | undefined): number | undefined {
  if (policy?.enabled === false) return undefined;
  const fromWindow = catalog?.contextWindow ? Math.floor(catalog.contextWindow * (policy?.ratio ?? defaultCompactionRatio)) : undefined;
  const candidates = [policy?.maxTokens, fromWindow].filter((value): value is number => typeof value === 'number' && value > 0);
  return candidates.length ? Math.min(...candidates) : undefined;
}

/**
 * The policy checked and resolved for one run; undefined when compaction is off or nothing bounds
 * the budget. A value out of range is a ConfigurationError that names the option and its range.
 */
export function compactionSettings(policy: CompactionPolicy | undefined, catalog: ModelCatalogEntry | undefined): CompactionSettings | undefined {
  assertCompactionPolicy(policy);
  const budget = compactionBudget(policy, catalog);
  if (budget === undefined) return undefined;
  const tailShare = policy?.tailShare ?? defaultTailShare;
  return {
    budget,
    keepRecentTurns: policy?.keepRecentTurns ?? defaultKeepRecentTurns,
    lowWaterShare: policy?.lowWaterShare ?? defaultLowWaterShare,
    tailShare,
    turnOutputTokens: Math.floor(budget * tailShare),
  };
}

export function assertCompactionPolicy(policy: CompactionPolicy | undefined): void {
  if (!policy) return;
  const share = (name: 'ratio' | 'lowWaterShare' | 'tailShare', value: number | undefined, max = 1) => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !(value > 0 && value <= max)) throw new ConfigurationError(`compaction.${name} must be a number above 0 and at most ${max}; got ${String(value)}.`);
  };
  share('ratio', policy.ratio);
  share('lowWaterShare', policy.lowWaterShare, 0.95);
  share('tailShare', policy.tailShare, 0.9);
  if (policy.maxTokens !== undefined && !(Number.isInteger(policy.maxTokens) && policy.maxTokens > 0)) {
    throw new ConfigurationError(`compaction.maxTokens must be a positive whole number of tokens; got ${String(policy.maxTokens)}.`);
  }
  if (policy.keepRecentTurns !== undefined && !(Number.isInteger(policy.keepRecentTurns) && policy.keepRecentTurns >= 1)) {
    throw new ConfigurationError(`compaction.keepRecentTurns must be a whole number of at least 1; got ${String(policy.keepRecentTurns)}.`);
  }
  const lowWater = policy.lowWaterShare ?? defaultLowWaterShare;
  const tail = policy.tailShare ?? defaultTailShare;
  if (tail >= lowWater) {
    throw new ConfigurationError(
      `compaction.tailShare (${tail}${policy.tailShare === undefined ? ', the default' : ''}) must be below compaction.lowWaterShare (${lowWater}${policy.lowWaterShare === undefined ? ', the default' : ''}): the kept turns alone would fill the conversation to the low-water mark. Lower tailShare or raise lowWaterShare.`,
    );
  }
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

/**
 * Where the kept tail starts, by size: the newest turns that together fit `maxTokens`, at most
 * `maxTurns` of them. The newest turn is always kept, whatever its size (`clipTail` shrinks it).
 * Starts at an assistant message, so every kept tool result keeps its call; 0 when there is none.
 */
export function tailStartByTokens(messages: readonly ModelMessage[], options: { maxTokens: number; maxTurns: number }): number {
  let chosen: number | undefined;
  let tokens = 0;
  let turns = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ModelMessage;
    tokens += estimateMessageTokens(message);
    if (message.role !== 'assistant') continue;
    turns++;
    if (chosen !== undefined && (tokens > options.maxTokens || turns > options.maxTurns)) break;
    chosen = index;
  }
  return chosen ?? 0;
}

/**
 * The kept tail, shrunk to `maxTokens` when it is larger (it then holds only the newest turn):
 * its tool outputs are clipped, largest first, each with a notice saying how to get the rest.
 * Texts the model or the user wrote are never cut. Unchanged messages keep their identity.
 */
export function clipTail(tail: readonly ModelMessage[], maxTokens: number): { messages: ModelMessage[]; clipped: number } {
  const total = estimateMessagesTokens(tail);
  if (total <= maxTokens) return { messages: [...tail], clipped: 0 };
  const parts = tail.flatMap((message) => (message.role === 'tool' ? message.content : []));
  const outputs = parts.reduce((sum, part) => sum + outputTokens(part.output, true), 0);
  const room = Math.max(0, maxTokens - (total - outputs));
  const clippedOutputs = clipOutputsToFit(parts, room);
  let next = 0;
  let clipped = 0;
  const messages = tail.map((message) => {
    if (message.role !== 'tool') return message;
    let changed = false;
    const content = message.content.map((part) => {
      const output = clippedOutputs[next++];
      if (!output) return part;
      changed = true;
      clipped++;
      return { ...part, output };
    });
    return changed ? ({ ...message, content } satisfies ToolModelMessage) : message;
  });
  return { messages, clipped };
}

const prunedMarker = '[Old tool output removed to save context';
const pruneThreshold = 300;

/**
 * First stage: replace the outputs of tool results before `end` with a short placeholder (the
 * call itself stays, so the model knows what it did and can run it again), oldest first, until
 * `freeTokens` are freed (all of them without it). Oldest first keeps the part of the history that
 * was already pruned byte-identical, so each later pruning rewrites only what follows it.
 * Messages that did not change keep their identity.
 */
export function pruneOldToolOutputs(messages: readonly ModelMessage[], options: { end: number; freeTokens?: number }): { messages: ModelMessage[]; pruned: number; freedTokens: number } {
  const goal = options.freeTokens ?? Number.POSITIVE_INFINITY;
  let pruned = 0;
  let freedTokens = 0;
  const result = messages.map((message, index) => {
    if (index >= options.end || message.role !== 'tool' || freedTokens >= goal) return message;
    let changed = false;
    const content = message.content.map((part) => {
      const text = toolOutputText(part.output);
      if (freedTokens >= goal || text.length <= pruneThreshold || text.startsWith(prunedMarker)) return part;
      const placeholder = `${prunedMarker}: ${part.toolName} returned ${text.length} characters. Call the tool again if you need it.]`;
      changed = true;
      pruned++;
      freedTokens += estimateTextTokens(text) - estimateTextTokens(placeholder);
      return { ...part, output: { type: 'text' as const, value: placeholder } };
    });
    return changed ? ({ ...message, content } satisfies ToolModelMessage) : message;
  });
  return { messages: result, pruned, freedTokens };
}

export { estimateMessagesTokens };
