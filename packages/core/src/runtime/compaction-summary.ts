import { systemReminder } from '../context/system-prompt.js';
import { streamWithRetry } from '../model-call/stream-with-retry.js';
import type { RetryPolicy } from '../model-call/retry-policy.js';
import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1FunctionTool, ModelMessage, UserModelMessage } from '../spec/language-model/v1/index.js';
import { estimateMessagesTokens, estimateMessageTokens, estimateTextTokens } from './compaction-tokens.js';
import { compactionFailed } from './compaction.js';

/** The summary's share of the budget: room kept for it in the compacted conversation. */
const summaryShare = 0.1;
const minSummaryTokens = 400;
const maxSummaryTokens = 6_000;

/** Tokens the summary may take in the compacted conversation (longer answers are cut to it). */
export function summaryTokenLimit(budget: number): number {
  return Math.min(maxSummaryTokens, Math.max(minSummaryTokens, Math.floor(budget * summaryShare)));
}

/**
 * The last message of the summary request: it follows the conversation itself, so the request
 * starts with the same system prompt, tools and history as the agent's own requests and a
 * prefix-caching provider reuses what it cached for them.
 */
export function summaryInstruction(input: { wordLimit: number; instructions?: string }): UserModelMessage {
  const text = `${systemReminder(
    `The conversation above is about to be compacted to fit the context window. Do not call any tool and do not continue the task: answer only with a summary that lets you continue the work without the messages above. Write dense, factual Markdown of at most ${input.wordLimit} words with these sections:
1. User requests: every request and constraint the user stated, in their words where it matters.
2. Work done: files read, created or changed (with paths), commands run and their outcome, decisions taken and why.
3. Current state: what works, what fails (exact error messages), what was being done when the conversation was cut.
4. Next steps: what remains to do, in order.
Keep file paths, identifiers, commands and error texts exact. Do not invent anything.`,
  )}${input.instructions ? `\n\nAdditional instructions: ${input.instructions}` : ''}`;
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** A summary that can be requested and whose result fits, decided before any model call. */
export interface SummaryPlan {
  /** The messages to summarise: a prefix of the conversation, ending on a whole turn. */
  slice: ModelMessage[];
  /** What stays verbatim between the summary and the kept tail (empty when all is summarised). */
  remainder: ModelMessage[];
  /** The request's estimated input tokens, and the compacted conversation's, summary at its limit. */
  requestTokens: number;
  predictedTokens: number;
}

export interface SummaryPlanInput {
  /** Tokens of the system prompt and the tool definitions. */
  fixedTokens: number;
  budget: number;
  /** The part before the tail as the provider last saw it, then as pruned now: tried in this order. */
  olderAsSent: readonly ModelMessage[];
  olderPruned: readonly ModelMessage[];
  tail: readonly ModelMessage[];
  /** The compacted head without its summary, to measure what the head costs besides the summary. */
  emptyHead(slice: readonly ModelMessage[], remainder: readonly ModelMessage[]): ModelMessage;
  instruction: ModelMessage;
}

/**
 * Choose what to summarise so that both the summary request and the compacted conversation fit
 * the budget. First the older part as it was last sent (the provider has it cached), then as
 * pruned, then the largest prefix of the pruned part that fits, keeping the rest verbatim.
 * A string says why no summary can help: the caller fails without spending a model call.
 */
export function planSummary(input: SummaryPlanInput): SummaryPlan | string {
  const summaryTokens = summaryTokenLimit(input.budget);
  const tailTokens = estimateMessagesTokens(input.tail);
  const instructionTokens = estimateMessageTokens(input.instruction);
  const predict = (slice: readonly ModelMessage[], remainder: readonly ModelMessage[]) =>
    input.fixedTokens + estimateMessageTokens(input.emptyHead(slice, remainder)) + summaryTokens + estimateMessagesTokens(remainder) + tailTokens;
  const request = (slice: readonly ModelMessage[]) => input.fixedTokens + estimateMessagesTokens(slice) + instructionTokens;
  if (input.olderPruned.length === 0) return `nothing older than the newest turn is left to summarise`;
  const fullPrediction = predict(input.olderPruned, []);
  if (fullPrediction > input.budget) {
    return `the newest turn alone needs about ${tailTokens} tokens, and with everything before it summarised the conversation would need about ${fullPrediction}`;
  }
  for (const older of [input.olderAsSent, input.olderPruned]) {
    const tokens = request(older);
    if (tokens <= input.budget) return { slice: [...older], remainder: [], requestTokens: tokens, predictedTokens: fullPrediction };
  }
  // The whole older part does not fit one request: summarise its largest fitting prefix.
  let best: SummaryPlan | string = `the summary request alone would need about ${request(input.olderPruned)} tokens`;
  for (const cut of turnBoundaries(input.olderPruned)) {
    const slice = input.olderPruned.slice(0, cut);
    const tokens = request(slice);
    if (tokens > input.budget) break;
    const remainder = input.olderPruned.slice(cut);
    const predicted = predict(slice, remainder);
    if (predicted <= input.budget) best = { slice, remainder, requestTokens: tokens, predictedTokens: predicted };
  }
  return best;
}

/**
 * Where the conversation may be cut between whole turns, in ascending order: before an assistant
 * or user message that does not leave a tool call without its result.
 */
function turnBoundaries(messages: readonly ModelMessage[]): number[] {
  const cuts: number[] = [];
  for (let index = 1; index < messages.length; index++) {
    const message = messages[index] as ModelMessage;
    const previous = messages[index - 1] as ModelMessage;
    const pendingCalls = previous.role === 'assistant' && typeof previous.content !== 'string' && previous.content.some((part) => part.type === 'tool-call');
    if ((message.role === 'assistant' || message.role === 'user') && !pendingCalls) cuts.push(index);
  }
  return cuts;
}

/**
 * Ask the model for a summary of `slice`, sent as the agent's own request (same system prompt,
 * tools, history prefix and cache key) plus the instruction, with tool calls turned off. Returns
 * the text, cut to `maxTokens`. Any failure (error part, empty answer, thrown error) is a
 * `compaction_failed` error, which ends the run instead of looping; an abort throws the reason.
 */
export async function summarizeConversation(input: {
  model: LanguageModelV1;
  systemPrompt: string;
  tools: readonly LanguageModelV1FunctionTool[];
  slice: readonly ModelMessage[];
  instruction: ModelMessage;
  maxTokens: number;
  promptCacheKey?: string;
  callParams?: Record<string, string | number | boolean>;
  signal: AbortSignal;
  retry?: Partial<RetryPolicy>;
  onDelta?: (text: string) => void | Promise<void>;
}): Promise<string> {
  const call: LanguageModelV1CallOptions = {
    prompt: [{ role: 'system', content: input.systemPrompt }, ...input.slice, input.instruction],
    tools: [...input.tools],
    ...(input.tools.length ? { toolChoice: { type: 'none' as const } } : {}),
    ...(input.promptCacheKey ? { promptCacheKey: input.promptCacheKey } : {}),
    ...(input.callParams ? { params: input.callParams } : {}),
    abortSignal: input.signal,
  };
  let text = '';
  try {
    const stream = streamWithRetry(input.model, call, { signal: input.signal, ...(input.retry ? { policy: input.retry } : {}) });
    for await (const part of stream) {
      if (part.type === 'text-delta') {
        text += part.delta;
        await input.onDelta?.(part.delta);
      }
      if (part.type === 'error') throw part.error;
    }
  } catch (error) {
    if (input.signal.aborted) throw input.signal.reason ?? error;
    throw compactionFailed(`Compaction failed: the summary request did not succeed (${error instanceof Error ? error.message : String(error)}). The run was stopped instead of retrying; send again to retry, or raise compaction.maxTokens.`, error);
  }
  if (input.signal.aborted) throw input.signal.reason;
  if (!text.trim()) throw compactionFailed('Compaction failed: the model returned an empty summary. The run was stopped; send again to retry.');
  return cutSummary(text.trim(), input.maxTokens);
}

/** A summary longer than its room is cut at a line end, so the compacted conversation still fits. */
function cutSummary(text: string, maxTokens: number): string {
  const tokens = estimateTextTokens(text);
  if (tokens <= maxTokens) return text;
  const marker = '\n[The summary was cut here to fit the context budget.]';
  const chars = Math.floor((text.length * (maxTokens - estimateTextTokens(marker))) / tokens);
  const lineEnd = text.lastIndexOf('\n', chars);
  return `${text.slice(0, lineEnd > chars / 2 ? lineEnd : chars)}${marker}`;
}

/** Per-item cap for the plan restated in the compacted head. */
const planCap = 6_000;

function clip(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const half = Math.floor(cap / 2);
  return `${text.slice(0, half)}\n[... ${text.length - cap} characters omitted ...]\n${text.slice(-half)}`;
}

/**
 * The first message of a compacted conversation: the summary, the mode and its instructions, the
 * plan and the todo list (they live in run state, so they survive anyway; restating them keeps the
 * model on track), the user info and, verbatim, the user's latest request when it was summarised.
 */
export function compactedHead(input: { summary: string; modeReminder: string; state: Record<string, unknown>; userInfo?: string; latestQuery?: string }): UserModelMessage {
  const sections = [`The earlier part of this conversation was compacted to fit the context window. Summary:\n\n${input.summary}`];
  const plan = input.state.plan as { name?: string; overview?: string; status?: string; plan?: string } | undefined;
  if (plan && typeof plan === 'object') sections.push(`The plan "${plan.name ?? 'plan'}" (${plan.status ?? 'proposed'}): ${plan.overview ?? ''}\n${clip(plan.plan ?? '', planCap)}`);
  const todos = input.state.todos as Array<{ id: string; content: string; status: string }> | undefined;
  if (Array.isArray(todos) && todos.length) sections.push(`The todo list:\n${todos.map((todo) => `- [${todo.status}] ${todo.id}: ${todo.content}`).join('\n')}`);
  const parts = [systemReminder(sections.join('\n\n')), input.modeReminder];
  if (input.userInfo) parts.push(input.userInfo);
  if (input.latestQuery) parts.push(`The user's latest request, verbatim:\n${input.latestQuery}`);
  return { role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }] };
}

/**
 * The head for a summary of `slice`: `<user_info>` from the summarised part, and its latest
 * `<user_query>` verbatim unless a newer one stays in `kept`.
 */
export function headFor(input: { summary: string; modeReminder: string; state: Record<string, unknown>; slice: readonly ModelMessage[]; kept: readonly ModelMessage[] }): UserModelMessage {
  const latestQuery = latestUserQuery(input.kept) ? undefined : latestUserQuery(input.slice);
  const userInfo = firstTagBlock(input.slice, 'user_info');
  return compactedHead({ summary: input.summary, modeReminder: input.modeReminder, state: input.state, ...(userInfo ? { userInfo } : {}), ...(latestQuery ? { latestQuery } : {}) });
}

function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The newest `<user_query>` block among the messages. */
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
