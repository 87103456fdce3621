import { untilAborted } from '../util/until-aborted.js';
import type { RetryPolicy } from '../model-call/retry-policy.js';
import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { LanguageModelV1, LanguageModelV1FunctionTool, ModelMessage } from '../spec/language-model/v1/index.js';
import { type AgentHooks, clipTail, compactionFailed, defaultLowWaterShare, defaultTailShare, pruneOldToolOutputs, tailStartByTokens } from './compaction.js';
import { headFor, planSummary, summarizeConversation, summaryInstruction, summaryTokenLimit } from './compaction-summary.js';
import { type ContextTokenMeter, estimateMessagesTokens, estimateTextTokens, estimateToolsTokens, quickCheckShare } from './compaction-tokens.js';

export interface CompactionStepInput {
  agentId: string;
  runId: string;
  mode: string;
  messages: ModelMessage[];
  state: Record<string, unknown>;
  systemPrompt: string;
  tools: readonly LanguageModelV1FunctionTool[];
  meter: ContextTokenMeter;
  budget: number;
  /** Upper bound on the turns kept verbatim; which are kept is decided by `tailShare`. */
  keepRecentTurns: number;
  /** Share of the budget a compaction frees the conversation down to (CompactionPolicy.lowWaterShare). */
  lowWaterShare?: number;
  /** Share of the budget the kept newest turns may fill (CompactionPolicy.tailShare). */
  tailShare?: number;
  model: LanguageModelV1;
  modeReminder: string;
  /** The conversation's cache key and call parameters, so the summary request shares its cache. */
  promptCacheKey?: string;
  callParams?: Record<string, string | number | boolean>;
  hooks?: AgentHooks;
  retry?: Partial<RetryPolicy>;
  /** Aborts the compaction: it throws the signal's reason and reports nothing more. */
  signal: AbortSignal;
  /** Streams updates (`summary-*`) and the `compacting` status. */
  notify(event: { update?: InteractionUpdate; status?: string }): Promise<void>;
}

export type CompactionGateInput = Pick<CompactionStepInput, 'messages' | 'systemPrompt' | 'tools' | 'meter' | 'budget'>;

/**
 * Whether the next request is over the budget, so the run must compact before it: the gate
 * `compactIfNeeded` uses, cheap and synchronous. Far below the budget a chars/4 estimate decides;
 * near it the exact count (provider-reported tokens of the previous request plus an estimate of
 * what was appended since).
 */
export function needsCompaction(input: CompactionGateInput): boolean {
  const request = { systemPrompt: input.systemPrompt, tools: input.tools, messages: input.messages };
  if (input.meter.estimate(request, false).tokens <= input.budget * quickCheckShare) return false;
  return input.meter.estimate(request).tokens > input.budget;
}

/**
 * Keep the next request inside the budget (SPEC section 6; docs/compaction.md). When it is over:
 * keep the newest turns by size (clipping the newest turn's tool outputs when it alone is too big),
 * prune old tool outputs oldest first down to the low-water mark, and when that is not enough,
 * summarise the older part with the model in a request that shares the conversation's cached
 * prefix. Whether a summary can fit is decided before it is requested; the result must fit, or the
 * run stops with `compaction_failed`: never a compaction loop, never a pointless model call.
 */
export async function compactIfNeeded(input: CompactionStepInput): Promise<{ messages: ModelMessage[]; compacted: boolean }> {
  throwIfAborted(input.signal);
  if (!needsCompaction(input)) return { messages: input.messages, compacted: false };
  const before = input.meter.estimate({ systemPrompt: input.systemPrompt, tools: input.tools, messages: input.messages }).tokens;
  const hook = await untilAborted(Promise.resolve(input.hooks?.preCompact?.({ agentId: input.agentId, runId: input.runId, trigger: 'auto', mode: input.mode, tokens: before, budget: input.budget }, { signal: input.signal })), input.signal);
  await notify(input, { status: `The conversation needs about ${before} tokens, over the budget of ${input.budget}: compacting.` });

  const fixed = estimateTextTokens(input.systemPrompt) + estimateToolsTokens(input.tools);
  const tailTokens = Math.floor(input.budget * (input.tailShare ?? defaultTailShare));
  const lowWater = Math.floor(input.budget * (input.lowWaterShare ?? defaultLowWaterShare));
  const start = tailStartByTokens(input.messages, { maxTokens: tailTokens, maxTurns: input.keepRecentTurns });
  const tail = clipTail(input.messages.slice(start), tailTokens).messages;
  const older = input.messages.slice(0, start);
  const current = fixed + estimateMessagesTokens(older) + estimateMessagesTokens(tail);
  // One large batch: free everything down to the low-water mark, so the next requests only append.
  const pruned = pruneOldToolOutputs(older, { end: older.length, freeTokens: current - lowWater });
  const afterPrune = current - pruned.freedTokens;
  if (afterPrune <= lowWater) return finish(input, [...pruned.messages, ...tail], before, afterPrune);

  const instructions = hook && typeof hook === 'object' && hook.instructions ? hook.instructions : undefined;
  const summarised = await summariseOlder(input, { fixed, older, tail, prunedFits: afterPrune <= input.budget, ...(instructions ? { instructions } : {}) });
  if (summarised) return finish(input, summarised.messages, before, summarised.tokens);
  // No summary can help, but pruning alone fits, just above the low-water mark.
  return finish(input, [...pruned.messages, ...tail], before, afterPrune);
}

/**
 * The conversation with the part before `tail` summarised, or undefined when no summary could
 * make it fit but the pruned conversation does (`prunedFits`; the caller keeps that). Throws
 * `compaction_failed` before any model call when neither fits.
 */
async function summariseOlder(
  input: CompactionStepInput,
  parts: { fixed: number; older: ModelMessage[]; tail: ModelMessage[]; prunedFits: boolean; instructions?: string },
): Promise<{ messages: ModelMessage[]; tokens: number } | undefined> {
  const { fixed, older, tail } = parts;
  const summaryTokens = summaryTokenLimit(input.budget);
  const instruction = summaryInstruction({ wordLimit: Math.floor(summaryTokens * 0.6), ...(parts.instructions ? { instructions: parts.instructions } : {}) });
  const olderPruned = pruneOldToolOutputs(older, { end: older.length }).messages;
  const plan = planSummary({
    fixedTokens: fixed,
    budget: input.budget,
    olderAsSent: older,
    olderPruned,
    tail,
    instruction,
    emptyHead: (slice, remainder) => headFor({ summary: '', modeReminder: input.modeReminder, state: input.state, slice, kept: [...remainder, ...tail] }),
  });
  if (typeof plan === 'string') {
    if (parts.prunedFits) return undefined;
    throw compactionFailed(
      `Compaction failed before asking for a summary: ${plan}, over the budget of ${input.budget}. Raise compaction.maxTokens, lower compaction.tailShare (the newest turn's own text cannot be cut), or start a new agent.`,
    );
  }
  await notify(input, { update: { type: 'summary-started' } });
  const summary = await summarizeConversation({
    model: input.model,
    systemPrompt: input.systemPrompt,
    tools: input.tools,
    slice: plan.slice,
    instruction,
    maxTokens: summaryTokens,
    ...(input.promptCacheKey ? { promptCacheKey: input.promptCacheKey } : {}),
    ...(input.callParams ? { callParams: input.callParams } : {}),
    signal: input.signal,
    ...(input.retry ? { retry: input.retry } : {}),
  });
  await notify(input, { update: { type: 'summary', summary } });
  const head = headFor({ summary, modeReminder: input.modeReminder, state: input.state, slice: plan.slice, kept: [...plan.remainder, ...tail] });
  const messages = [head, ...plan.remainder, ...tail];
  const tokens = fixed + estimateMessagesTokens(messages);
  if (tokens > input.budget) {
    throw compactionFailed(`Compaction failed: after summarising, the conversation still needs about ${tokens} tokens, over the budget of ${input.budget}. Lower compaction.tailShare or raise compaction.maxTokens.`);
  }
  // Rules injected earlier may have been summarised away: let them be injected again.
  delete input.state.rulesApplied;
  return { messages, tokens };
}

async function finish(input: CompactionStepInput, messages: ModelMessage[], before: number, after: number): Promise<{ messages: ModelMessage[]; compacted: true }> {
  input.meter.reset();
  await notify(input, { update: { type: 'summary-completed', tokensBefore: before, tokensAfter: after } });
  return { messages, compacted: true };
}

/** Report only while the run lives: after an abort nothing more is said, and the abort wins. */
async function notify(input: CompactionStepInput, event: { update?: InteractionUpdate; status?: string }): Promise<void> {
  throwIfAborted(input.signal);
  await input.notify(event);
  throwIfAborted(input.signal);
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

