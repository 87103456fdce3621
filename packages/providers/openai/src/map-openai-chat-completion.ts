import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';

/**
 * A complete (non-streaming) chat completion as the chunks a stream would have carried, so one
 * mapper serves both. Some OpenAI-compatible servers answer `stream: true` with plain JSON. Pure.
 */
export function chatCompletionToChunks(completion: ChatCompletion): ChatCompletionChunk[] {
  const base = { id: completion.id, created: completion.created, model: completion.model, object: 'chat.completion.chunk' as const };
  const choice = completion.choices.find((candidate) => candidate.index === 0) ?? completion.choices[0];
  const chunks: ChatCompletionChunk[] = [];
  if (choice) {
    const message = choice.message;
    const toolCalls = (message.tool_calls ?? []).map((call, index) => {
      // `custom` (free-form) tools carry their text in `custom.input`.
      const custom = (call as { custom?: { name: string; input: string } }).custom;
      const fn = (call as { function?: { name: string; arguments: string } }).function;
      return {
        index,
        id: call.id,
        type: 'function' as const,
        function: { name: fn?.name ?? custom?.name ?? '', arguments: fn?.arguments ?? custom?.input ?? '' },
      };
    });
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            role: 'assistant',
            ...(message.content ? { content: message.content } : {}),
            ...(message.refusal ? { refusal: message.refusal } : {}),
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: choice.finish_reason,
          logprobs: null,
        },
      ],
    });
  }
  if (completion.usage) chunks.push({ ...base, choices: [], usage: completion.usage });
  return chunks;
}
