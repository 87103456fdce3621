import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';

type LooseOutputItem = {
  id?: string;
  type?: string;
  arguments?: string;
  input?: string;
  content?: Array<{ type?: string; text?: string; refusal?: string }>;
  summary?: Array<{ text?: string }>;
};

/**
 * A complete (non-streaming) Response as the events a stream would have carried, so one mapper
 * serves both (for servers that answer `stream: true` with JSON). Pure.
 */
export function responseToStreamEvents(response: Response): ResponseStreamEvent[] {
  const events: Array<Record<string, unknown>> = [{ type: 'response.created', response }];
  for (const item of (response.output ?? []) as LooseOutputItem[]) {
    events.push({ type: 'response.output_item.added', item });
    if (item.type === 'message') {
      for (const content of item.content ?? []) {
        const text = content.text ?? content.refusal;
        if (text) events.push({ type: 'response.output_text.delta', item_id: item.id, delta: text });
      }
    } else if (item.type === 'reasoning') {
      (item.summary ?? []).forEach((summary, index) => {
        events.push({ type: 'response.reasoning_summary_part.added', item_id: item.id, summary_index: index });
        if (summary.text) events.push({ type: 'response.reasoning_summary_text.delta', item_id: item.id, summary_index: index, delta: summary.text });
      });
    } else if (item.type === 'function_call' && item.arguments) {
      events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, delta: item.arguments });
    } else if (item.type === 'custom_tool_call' && item.input) {
      events.push({ type: 'response.custom_tool_call_input.delta', item_id: item.id, delta: item.input });
    }
    events.push({ type: 'response.output_item.done', item });
  }
  const status = response.status;
  events.push({ type: status === 'failed' ? 'response.failed' : status === 'incomplete' ? 'response.incomplete' : 'response.completed', response });
  return events as unknown as ResponseStreamEvent[];
}
