import type { RetryPolicy } from '../model-call/retry-policy.js';
import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { LanguageModelV1, LanguageModelV1FunctionTool, ModelMessage } from '../spec/language-model/v1/index.js';
import { type AgentHooks, compactionFailed, pruneOldToolOutputs, tailStart } from './compaction.js';
import { compactedHead, summarizeConversation } from './compaction-summary.js';
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
  keepRecentTurns: number;
  model: LanguageModelV1;
  modeReminder: string;
  hooks?: AgentHooks;
  retry?: Partial<RetryPolicy>;
  signal: AbortSignal;
  /** Streams updates (`summary-*`) and the `compacting` status. */
  notify(event: { update?: InteractionUpdate; status?: string }): Promise<void>;
}

/**
 * Keep the next request inside the budget (SPEC section 6): when the estimate exceeds it, prune old
 * tool outputs; when that is not enough, summarise everything before the newest turns with the
 * model. The result must fit, or the run stops with `compaction_failed`: never a compaction loop.
 */
export async function compactIfNeeded(input: CompactionStepInput): Promise<{ messages: ModelMessage[]; compacted: boolean }> {
  const request = { systemPrompt: input.systemPrompt, tools: input.tools, messages: input.messages };
  // Far below the budget a chars/4 estimate is enough; the exact count (and its tokenizer) is for near it.
  if (input.meter.estimate(request, false).tokens <= input.budget * quickCheckShare) return { messages: input.messages, compacted: false };
  const fixed = estimateTextTokens(input.systemPrompt) + estimateToolsTokens(input.tools);
  const before = input.meter.estimate(request).tokens;
  if (before <= input.budget) return { messages: input.messages, compacted: false };
  const hook = await input.hooks?.preCompact?.({ agentId: input.agentId, runId: input.runId, trigger: 'auto', mode: input.mode, tokens: before, budget: input.budget });
  await input.notify({ status: `The conversation needs about ${before} tokens, over the budget of ${input.budget}: compacting.` });
  input.meter.reset();
  // Rules injected earlier live in the messages that are about to be pruned or summarised.
  delete input.state.rulesApplied;

  const pruned = pruneOldToolOutputs(input.messages, input.keepRecentTurns);
  const afterPrune = fixed + estimateMessagesTokens(pruned.messages);
  if (afterPrune <= input.budget) {
    await input.notify({ update: { type: 'summary-completed', tokensBefore: before, tokensAfter: afterPrune } });
    return { messages: pruned.messages, compacted: true };
  }

  const start = tailStart(pruned.messages, input.keepRecentTurns);
  const older = pruned.messages.slice(0, start);
  const tail = pruned.messages.slice(start);
  if (older.length === 0) {
    throw compactionFailed(`Compaction failed: the newest ${input.keepRecentTurns} turns alone need about ${afterPrune} tokens, over the budget of ${input.budget}. Lower compaction.keepRecentTurns, raise compaction.maxTokens, or start a new agent.`);
  }
  await input.notify({ update: { type: 'summary-started' } });
  const summary = await summarizeConversation({
    model: input.model,
    older,
    budgetTokens: input.budget,
    ...(hook && typeof hook === 'object' && hook.instructions ? { instructions: hook.instructions } : {}),
    signal: input.signal,
    ...(input.retry ? { retry: input.retry } : {}),
  });
  await input.notify({ update: { type: 'summary', summary } });
  const latestQuery = latestUserQuery(older);
  const userInfo = firstTagBlock(older, 'user_info');
  const head = compactedHead({ summary, modeReminder: input.modeReminder, state: input.state, ...(userInfo ? { userInfo } : {}), ...(latestQuery ? { latestQuery } : {}) });
  const messages = [head, ...tail];
  const after = fixed + estimateMessagesTokens(messages);
  if (after > input.budget) {
    throw compactionFailed(`Compaction failed: after summarising, the conversation still needs about ${after} tokens, over the budget of ${input.budget}. Lower compaction.keepRecentTurns or raise compaction.maxTokens.`);
  }
  await input.notify({ update: { type: 'summary-completed', tokensBefore: before, tokensAfter: after } });
  return { messages, compacted: true };
}

function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The newest `<user_query>` block among the summarised messages. */
function latestUserQuery(messages: readonly ModelMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const block = /<user_query>[\s\S]*?<\/user_query>/.exec(textOf(message));
    if (block) return block[0];
  }
  return undefined;
}

function firstTagBlock(messages: readonly ModelMessage[], tag: string): string | undefined {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const block = new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`).exec(textOf(message));
    if (block) return block[0];
  }
  return undefined;
}
