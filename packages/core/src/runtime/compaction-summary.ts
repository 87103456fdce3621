import { systemReminder } from '../context/system-prompt.js';
import { streamWithRetry } from '../model-call/stream-with-retry.js';
import type { RetryPolicy } from '../model-call/retry-policy.js';
import type { LanguageModelV1, ModelMessage, UserModelMessage } from '../spec/language-model/v1/index.js';
import { toolOutputText } from './compaction-tokens.js';
import { compactionFailed } from './compaction.js';

const summarizerSystemPrompt = `You summarise a coding agent's conversation so the agent can continue the work without the original messages. Write a dense, factual summary in Markdown with these sections:
1. User requests: every request and constraint the user stated, in their words where it matters.
2. Work done: files read, created or changed (with paths), commands run and their outcome, decisions taken and why.
3. Current state: what works, what fails (exact error messages), what was being done when the conversation was cut.
4. Next steps: what remains to do, in order.
Keep file paths, identifiers, commands and error texts exact. Do not invent anything. Do not address the user; do not call tools.`;

/** Per-item cap in the transcript, so the summary request itself stays well inside the window. */
const itemCap = 4_000;

function clip(text: string, cap = itemCap): string {
  if (text.length <= cap) return text;
  const half = Math.floor(cap / 2);
  return `${text.slice(0, half)}\n[... ${text.length - cap} characters omitted ...]\n${text.slice(-half)}`;
}

/** The older part of the conversation as a plain transcript (no tool-call structure, so any provider accepts it without tools). */
export function renderTranscript(messages: readonly ModelMessage[], maxChars: number): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (typeof message.content === 'string') {
      lines.push(`[${message.role}]\n${clip(message.content)}`);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') lines.push(`[${message.role}]\n${clip(part.text)}`);
      else if (part.type === 'tool-call') lines.push(`[tool call ${part.toolName}] ${clip(typeof part.input === 'string' ? part.input : JSON.stringify(part.input), 1_500)}`);
      else if (part.type === 'tool-result') lines.push(`[tool result ${part.toolName}${part.output.type.startsWith('error') ? ' (error)' : ''}]\n${clip(toolOutputText(part.output))}`);
      else if (part.type === 'image') lines.push(`[${message.role} image]`);
    }
  }
  const text = lines.join('\n\n');
  // Too long even after clipping: keep the start (the original requests) and the most recent part.
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.25);
  return `${text.slice(0, head)}\n\n[... ${text.length - maxChars} characters of the middle of the conversation omitted ...]\n\n${text.slice(-(maxChars - head))}`;
}

/**
 * Ask the model for a summary of `older` in a separate call without tools. Streams nothing itself;
 * returns the text. Any failure (error part, empty answer, thrown error) is a `compaction_failed`
 * error, which ends the run instead of looping.
 */
export async function summarizeConversation(input: {
  model: LanguageModelV1;
  older: readonly ModelMessage[];
  budgetTokens: number;
  instructions?: string;
  signal: AbortSignal;
  retry?: Partial<RetryPolicy>;
  onDelta?: (text: string) => void | Promise<void>;
}): Promise<string> {
  // About half of the budget for the transcript (4 characters a token), the rest for the answer.
  const transcript = renderTranscript(input.older, Math.max(8_000, input.budgetTokens * 2));
  const request = `Summarise this conversation between the user and the coding agent.${input.instructions ? `\n\nAdditional instructions: ${input.instructions}` : ''}\n\n<conversation>\n${transcript}\n</conversation>`;
  let text = '';
  try {
    const stream = streamWithRetry(
      input.model,
      { prompt: [{ role: 'system', content: summarizerSystemPrompt }, { role: 'user', content: [{ type: 'text', text: request }] }], abortSignal: input.signal },
      { signal: input.signal, ...(input.retry ? { policy: input.retry } : {}) },
    );
    for await (const part of stream) {
      if (part.type === 'text-delta') {
        text += part.delta;
        await input.onDelta?.(part.delta);
      }
      if (part.type === 'error') throw part.error;
    }
  } catch (error) {
    if (input.signal.aborted) throw error;
    throw compactionFailed(`Compaction failed: the summary request did not succeed (${error instanceof Error ? error.message : String(error)}). The run was stopped instead of retrying; send again to retry, or raise compaction.maxTokens.`, error);
  }
  if (!text.trim()) throw compactionFailed('Compaction failed: the model returned an empty summary. The run was stopped; send again to retry.');
  return text.trim();
}

/**
 * The first message of a compacted conversation: the summary, the mode and its instructions, the
 * plan and the todo list (they live in run state, so they survive anyway; restating them keeps the
 * model on track), the user info and, verbatim, the user's latest request when it was summarised.
 */
export function compactedHead(input: { summary: string; modeReminder: string; state: Record<string, unknown>; userInfo?: string; latestQuery?: string }): UserModelMessage {
  const sections = [`The earlier part of this conversation was compacted to fit the context window. Summary:\n\n${input.summary}`];
  const plan = input.state.plan as { name?: string; overview?: string; status?: string; plan?: string } | undefined;
  if (plan && typeof plan === 'object') sections.push(`The plan "${plan.name ?? 'plan'}" (${plan.status ?? 'proposed'}): ${plan.overview ?? ''}\n${clip(plan.plan ?? '', 6_000)}`);
  const todos = input.state.todos as Array<{ id: string; content: string; status: string }> | undefined;
  if (Array.isArray(todos) && todos.length) sections.push(`The todo list:\n${todos.map((todo) => `- [${todo.status}] ${todo.id}: ${todo.content}`).join('\n')}`);
  const parts = [systemReminder(sections.join('\n\n')), input.modeReminder];
  if (input.userInfo) parts.push(input.userInfo);
  if (input.latestQuery) parts.push(`The user's latest request, verbatim:\n${input.latestQuery}`);
  return { role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }] };
}
