import {
  type FakeModelTurn, type FakeProviderServer, type FakeServerOptions, type FakeWire, headerValue, opaqueToken, pieces, startFakeServer, toolNamePattern,
} from './fake-server-core.js';
import { openAIImageUrlProblems } from './fake-image-checks.js';

const errorCodes: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

/** OpenAI's error envelope: `{ error: { message, type, param, code } }`. */
export function openAIErrorBody(status: number, message?: string): object {
  const known = errorCodes[status] ?? { type: 'server_error', code: null };
  return { error: { message: message ?? `Injected ${status} (${known.type})`, type: known.type, param: null, code: known.code } };
}

/** What this server issued, so passed-back items can be checked like the real API checks them. */
interface Issued {
  /** reasoning item id -> encrypted content */
  reasoning: Map<string, string>;
  /** output item id (message / function_call) -> the reasoning item id of the same response */
  requiresReasoning: Map<string, string>;
}

/**
 * A fake OpenAI Responses API (`POST /v1/responses`, streaming) that answers scripted turns with a
 * reasoning item (summary deltas; `encrypted_content` when the request includes
 * `reasoning.encrypted_content`), a message with `output_text` deltas and parallel `function_call`
 * items with argument deltas and `call_id`s, ending in `response.completed` with usage. It checks
 * every request as the real API does with `store: false`: each `function_call` answered by a
 * `function_call_output` with the same `call_id`, reasoning items passed back with the encrypted
 * content it issued, and output items not sent without the reasoning item they came with. `url`
 * is the base URL with `/v1` (`OPENAI_BASE_URL`).
 */
export async function startFakeResponsesServer(options: FakeServerOptions | FakeModelTurn[]): Promise<FakeProviderServer> {
  const issued: Issued = { reasoning: new Map(), requiresReasoning: new Map() };
  const wire: FakeWire = {
    matchPath: (path) => (path.split('?')[0] === '/v1/responses' ? {} : undefined),
    validate: (body, request) => validateResponsesRequest(body, request.headers, issued),
    render: (turn, body, turnIndex, model) => renderResponsesTurn(turn, body, turnIndex, model, issued),
    errorBody: (status) => openAIErrorBody(status),
    notFoundBody: (path) => openAIErrorBody(404, `Invalid URL (POST ${path})`),
  };
  return startFakeServer(wire, Array.isArray(options) ? { turns: options } : options, '/v1');
}

function renderResponsesTurn(turn: FakeModelTurn, body: Record<string, any>, turnIndex: number, model: string, issued: Issued): string {
  const events: Array<Record<string, any>> = [];
  const suffix = `fake${turnIndex + 1}`;
  const response = { id: `resp_${suffix}`, object: 'response', created_at: 1_700_000_000 + turnIndex, status: 'in_progress', model, output: [] as object[], store: body.store ?? true };
  events.push({ type: 'response.created', response: { ...response } });
  events.push({ type: 'response.in_progress', response: { ...response } });
  const output: Array<Record<string, any>> = [];
  const reasoningId = `rs_${suffix}`;
  const wantsEncrypted = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
  if (turn.reasoning && body.reasoning) {
    const encrypted = wantsEncrypted ? opaqueToken('gAAAA', turnIndex, turn.reasoning) : undefined;
    if (encrypted) issued.reasoning.set(reasoningId, encrypted);
    const outputIndex = output.length;
    const started = { id: reasoningId, type: 'reasoning', summary: [], ...(encrypted ? { encrypted_content: opaqueToken('gAAAA', 'added', turnIndex) } : {}) };
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: started });
    events.push({ type: 'response.reasoning_summary_part.added', item_id: reasoningId, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } });
    for (const delta of pieces(turn.reasoning, 10)) events.push({ type: 'response.reasoning_summary_text.delta', item_id: reasoningId, output_index: outputIndex, summary_index: 0, delta });
    events.push({ type: 'response.reasoning_summary_text.done', item_id: reasoningId, output_index: outputIndex, summary_index: 0, text: turn.reasoning });
    events.push({ type: 'response.reasoning_summary_part.done', item_id: reasoningId, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: turn.reasoning } });
    const done = { id: reasoningId, type: 'reasoning', summary: [{ type: 'summary_text', text: turn.reasoning }], ...(encrypted ? { encrypted_content: encrypted } : {}) };
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: done });
    output.push(done);
  }
  const hasReasoning = output.length > 0;
  if (turn.text) {
    const id = `msg_${suffix}`;
    if (hasReasoning) issued.requiresReasoning.set(id, reasoningId);
    const outputIndex = output.length;
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
    events.push({ type: 'response.content_part.added', item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } });
    for (const delta of pieces(turn.text, 12)) events.push({ type: 'response.output_text.delta', item_id: id, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
    events.push({ type: 'response.output_text.done', item_id: id, output_index: outputIndex, content_index: 0, text: turn.text, logprobs: [] });
    const part = { type: 'output_text', annotations: [], text: turn.text };
    events.push({ type: 'response.content_part.done', item_id: id, output_index: outputIndex, content_index: 0, part });
    const done = { id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: done });
    output.push(done);
  }
  for (const [callIndex, call] of (turn.toolCalls ?? []).entries()) {
    const id = `fc_${suffix}_${callIndex + 1}`;
    const callId = `call_${suffix}_${callIndex + 1}`;
    if (hasReasoning) issued.requiresReasoning.set(id, reasoningId);
    const outputIndex = output.length;
    const args = JSON.stringify(call.args ?? {});
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { id, type: 'function_call', status: 'in_progress', arguments: '', call_id: callId, name: call.name } });
    for (const delta of pieces(args, 7)) events.push({ type: 'response.function_call_arguments.delta', item_id: id, output_index: outputIndex, delta });
    events.push({ type: 'response.function_call_arguments.done', item_id: id, output_index: outputIndex, arguments: args });
    const done = { id, type: 'function_call', status: 'completed', arguments: args, call_id: callId, name: call.name };
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: done });
    output.push(done);
  }
  const reasoningTokens = hasReasoning ? 40 : 0;
  const usage = {
    input_tokens: 400 + turnIndex,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 30 + reasoningTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: 430 + turnIndex + reasoningTokens,
  };
  events.push({ type: 'response.completed', response: { ...response, status: 'completed', output, usage } });
  return events.map((event, sequence) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`).join('');
}

type Item = Record<string, any>;

/** The rules the real Responses API enforces on a stateless (`store: false`) request. */
export function validateResponsesRequest(body: Record<string, any>, headers: Record<string, string | string[] | undefined> = {}, issued?: Issued): string[] {
  const problems: string[] = [];
  if (!/^Bearer \S+/.test(headerValue(headers, 'authorization') ?? '')) problems.push('no Authorization: Bearer header');
  if (typeof body.model !== 'string' || !body.model) problems.push("Missing required parameter: 'model'.");
  if (body.store !== false) problems.push('store is not false: this server only takes stateless requests (the conversation is sent in full)');
  if (body.stream !== true) problems.push('stream is not true');
  if (body.reasoning && !(Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content'))) {
    problems.push("include lacks 'reasoning.encrypted_content': reasoning cannot be carried to the next turn with store: false");
  }
  for (const tool of (body.tools ?? []) as Item[]) {
    if (tool.type === 'function' && (!toolNamePattern.test(tool.name ?? '') || typeof tool.parameters !== 'object')) problems.push(`Invalid tool ${JSON.stringify(tool).slice(0, 80)}`);
  }
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as Item[] | undefined);
  if (!Array.isArray(input) || input.length === 0) return [...problems, "Missing required parameter: 'input'."];
  const seenReasoning = new Set<string>();
  for (const [index, item] of input.entries()) {
    const type = item.type ?? (item.role ? 'message' : undefined);
    if (type === 'reasoning') {
      if (!item.encrypted_content) problems.push(`input[${index}]: Item with id '${item.id}' not found. Items are not persisted when store is false: pass encrypted_content.`);
      else if (issued && issued.reasoning.get(item.id) !== item.encrypted_content) problems.push(`input[${index}]: The encrypted content for item ${item.id} could not be verified.`);
      if (!Array.isArray(item.summary)) problems.push(`input[${index}].summary: Missing required parameter.`);
      seenReasoning.add(item.id);
    }
    if (type === 'message' && !['user', 'assistant', 'system', 'developer'].includes(item.role)) problems.push(`input[${index}].role: invalid role ${item.role}`);
    if (type === 'message' && Array.isArray(item.content)) problems.push(...inputImageProblems(item.content, `input[${index}].content`));
    if (type === 'function_call_output' && Array.isArray(item.output)) problems.push(...inputImageProblems(item.output, `input[${index}].output`));
    if ((type === 'function_call' || type === 'message') && item.id && issued) {
      const reasoningId = issued.requiresReasoning.get(item.id);
      if (reasoningId && !seenReasoning.has(reasoningId)) {
        problems.push(`input[${index}]: Item '${item.id}' of type '${type}' was provided without its required 'reasoning' item: '${reasoningId}'.`);
      }
    }
    if (type === 'function_call') {
      try {
        JSON.parse(item.arguments);
      } catch {
        problems.push(`input[${index}]: function_call arguments are not JSON`);
      }
      if (!input.slice(index + 1).some((later) => later.type === 'function_call_output' && later.call_id === item.call_id)) {
        problems.push(`No tool output found for function call ${item.call_id}.`);
      }
    }
    if (type === 'function_call_output') {
      if (!input.slice(0, index).some((earlier) => earlier.type === 'function_call' && earlier.call_id === item.call_id)) {
        problems.push(`input[${index}]: No tool call found for function call output with call_id ${item.call_id}.`);
      }
      if (typeof item.output !== 'string' && !Array.isArray(item.output)) problems.push(`input[${index}].output: must be a string or a list of content parts`);
    }
  }
  return problems;
}

/** `input_image` parts as the API checks them: a `detail`, and an http(s) or base64 image data URL (or a file id). */
function inputImageProblems(parts: Item[], where: string): string[] {
  const problems: string[] = [];
  for (const [position, part] of parts.entries()) {
    if (part.type !== 'input_image') continue;
    if (!['auto', 'low', 'high'].includes(part.detail)) problems.push(`${where}[${position}].detail: Missing required parameter (auto, low or high).`);
    if (part.file_id !== undefined) continue;
    problems.push(...openAIImageUrlProblems(part.image_url, `${where}[${position}].image_url`));
  }
  return problems;
}
