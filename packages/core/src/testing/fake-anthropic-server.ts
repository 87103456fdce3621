import {
  type FakeModelTurn, type FakeProviderServer, type FakeServerOptions, type FakeWire, headerValue, opaqueToken, pieces, startFakeServer, toolNamePattern,
} from './fake-server-core.js';
import { anthropicImageSourceProblems } from './fake-image-checks.js';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large',
  429: 'rate_limit_error', 500: 'api_error', 503: 'api_error', 529: 'overloaded_error',
};

/** Anthropic's error envelope: `{ type: 'error', error: { type, message } }`. */
export function anthropicErrorBody(status: number, message?: string): object {
  const type = errorTypes[status] ?? 'api_error';
  return { type: 'error', error: { type, message: message ?? `Injected ${status} (${type})` }, request_id: `req_fake_${status}` };
}

/**
 * A fake Anthropic Messages API (`POST /v1/messages`, streaming SSE) that answers scripted turns
 * with thinking blocks (when the request enables thinking), text and parallel `tool_use` blocks, and
 * checks every request the way the real API does: alternating roles, `tool_result` blocks first in
 * the user turn after a `tool_use` turn with matching ids, thinking blocks passed back with the
 * signatures it issued and before the `tool_use` blocks they preceded. `url` is the base URL
 * (`ANTHROPIC_BASE_URL`).
 */
export async function startFakeAnthropicServer(options: FakeServerOptions | FakeModelTurn[]): Promise<FakeProviderServer> {
  const issued = new Map<string, string>(); // signature -> thinking text
  const issuedToolIds = new Set<string>();
  const wire: FakeWire = {
    matchPath: (path) => (path.split('?')[0] === '/v1/messages' ? {} : undefined),
    validate: (body, request) => validateAnthropicRequest(body, request.headers, issued, issuedToolIds),
    render(turn, body, turnIndex, model) {
      const thinking = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';
      return renderAnthropicTurn(turn, turnIndex, model, thinking, issued, issuedToolIds);
    },
    errorBody: (status) => anthropicErrorBody(status),
    notFoundBody: (path) => anthropicErrorBody(404, `Unknown path ${path}`),
  };
  return startFakeServer(wire, Array.isArray(options) ? { turns: options } : options);
}

function renderAnthropicTurn(turn: FakeModelTurn, turnIndex: number, model: string, thinking: boolean, issued: Map<string, string>, issuedToolIds: Set<string>): string {
  const events: Array<[string, object]> = [];
  const usage = { input_tokens: 200 + turnIndex, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' };
  events.push(['message_start', { type: 'message_start', message: { model, id: `msg_fake_${turnIndex + 1}`, type: 'message', role: 'assistant', content: [], stop_reason: null, stop_sequence: null, usage } }]);
  let index = 0;
  if (thinking && turn.reasoning) {
    const signature = opaqueToken('sig_', turnIndex, turn.reasoning);
    issued.set(signature, turn.reasoning);
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }]);
    events.push(['ping', { type: 'ping' }]);
    for (const piece of pieces(turn.reasoning, 10)) events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  if (turn.text) {
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
    for (const piece of pieces(turn.text, 12)) events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  for (const [callIndex, call] of (turn.toolCalls ?? []).entries()) {
    const id = `toolu_fake_${turnIndex + 1}_${callIndex + 1}`;
    issuedToolIds.add(id);
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: call.name, input: {} } }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }]);
    for (const piece of pieces(JSON.stringify(call.args ?? {}), 7)) events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  const stopReason = turn.toolCalls?.length ? 'tool_use' : 'end_turn';
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { input_tokens: 200 + turnIndex, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 30 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

type Block = Record<string, any>;

/** The rules the real Messages API enforces on a request's shape. */
export function validateAnthropicRequest(
  body: Record<string, any>,
  headers: Record<string, string | string[] | undefined> = {},
  issuedSignatures?: Map<string, string>,
  issuedToolIds?: Set<string>,
): string[] {
  const problems: string[] = [];
  if (!headerValue(headers, 'x-api-key') && !headerValue(headers, 'authorization')) problems.push('no x-api-key header');
  if (!headerValue(headers, 'anthropic-version')) problems.push('no anthropic-version header');
  if (typeof body.model !== 'string' || !body.model) problems.push('model: field required');
  if (typeof body.max_tokens !== 'number' || body.max_tokens < 1) problems.push('max_tokens: field required');
  if (body.stream !== true) problems.push('stream is not true');
  const thinkingOn = body.thinking?.type === 'enabled';
  if (thinkingOn) {
    if (!(body.thinking.budget_tokens >= 1024)) problems.push('thinking.budget_tokens: must be >= 1024');
    if (!(body.thinking.budget_tokens < body.max_tokens)) problems.push('max_tokens must be greater than thinking.budget_tokens');
    if (body.temperature !== undefined && body.temperature !== 1) problems.push('temperature may only be set to 1 when thinking is enabled');
    if (body.top_p !== undefined) problems.push('top_p may not be set when thinking is enabled');
  }
  let breakpoints = countCacheControl(body.system) + countCacheControl(body.tools);
  for (const tool of (body.tools ?? []) as Block[]) {
    if (!toolNamePattern.test(tool.name ?? '')) problems.push(`tools: invalid name ${JSON.stringify(tool.name)}`);
    if (tool.input_schema?.type !== 'object') problems.push(`tools.${tool.name}.input_schema: type must be object`);
  }
  const messages = body.messages as Array<{ role: string; content: string | Block[] }> | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return [...problems, 'messages: at least one message is required'];
  if (messages[0]!.role !== 'user') problems.push('messages.0: the first message must use the user role');
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'user' && message.role !== 'assistant') problems.push(`messages.${index}.role: must be user or assistant (got ${message.role})`);
    if (index > 0 && messages[index - 1]!.role === message.role) problems.push(`messages.${index}: roles must alternate between user and assistant`);
    const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    if (blocks.length === 0) problems.push(`messages.${index}: content must be non-empty`);
    breakpoints += countCacheControl(blocks);
    for (const [position, block] of blocks.entries()) {
      if (block.type === 'text' && !block.text) problems.push(`messages.${index}: text content blocks must be non-empty`);
      if (block.type === 'image') problems.push(...anthropicImageSourceProblems(block.source, `messages.${index}.content.${position}`));
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const [inner, part] of (block.content as Block[]).entries()) {
          if (part.type === 'image') problems.push(...anthropicImageSourceProblems(part.source, `messages.${index}.content.${position}.content.${inner}`));
        }
      }
    }
    if (message.role === 'assistant') problems.push(...validateAssistant(blocks, index, messages[index + 1], thinkingOn && index === lastToolLoopAssistant(messages), issuedSignatures, issuedToolIds));
    if (message.role === 'user') {
      const results = blocks.filter((block) => block.type === 'tool_result');
      const previous = messages[index - 1];
      const previousIds = previous?.role === 'assistant' && Array.isArray(previous.content) ? previous.content.filter((block) => block.type === 'tool_use').map((block) => block.id) : [];
      for (const result of results) {
        if (!previousIds.includes(result.tool_use_id)) problems.push(`messages.${index}: unexpected tool_use_id found in tool_result blocks: ${result.tool_use_id}. Each tool_result block must have a corresponding tool_use block in the previous message.`);
      }
    }
  }
  if (breakpoints > 4) problems.push(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
  return problems;
}

function validateAssistant(
  blocks: Block[],
  index: number,
  next: { role: string; content: string | Block[] } | undefined,
  mustStartWithThinking: boolean,
  issuedSignatures: Map<string, string> | undefined,
  issuedToolIds: Set<string> | undefined,
): string[] {
  const problems: string[] = [];
  const toolUses = blocks.filter((block) => block.type === 'tool_use');
  for (const [position, block] of blocks.entries()) {
    if (block.type === 'thinking') {
      if (!block.signature) problems.push(`messages.${index}.content.${position}.thinking.signature: field required`);
      else if (issuedSignatures && issuedSignatures.get(block.signature) !== block.thinking) problems.push(`messages.${index}.content.${position}: Invalid signature in thinking block`);
      const firstToolUse = blocks.findIndex((candidate) => candidate.type === 'tool_use');
      if (firstToolUse >= 0 && position > firstToolUse) problems.push(`messages.${index}: thinking block comes after a tool_use block`);
    }
    if (block.type === 'tool_use') {
      if (!/^toolu_/.test(block.id ?? '') && !/^[a-zA-Z0-9_-]+$/.test(block.id ?? '')) problems.push(`messages.${index}.content.${position}.id: invalid tool_use id`);
      if (issuedToolIds && !issuedToolIds.has(block.id)) problems.push(`messages.${index}: tool_use id ${block.id} was never issued by the model`);
      if (typeof block.input !== 'object' || block.input === null || Array.isArray(block.input)) problems.push(`messages.${index}.content.${position}.input: must be an object`);
    }
  }
  if (mustStartWithThinking && blocks[0]?.type !== 'thinking' && blocks[0]?.type !== 'redacted_thinking') {
    problems.push(`messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`);
  }
  if (toolUses.length > 0) {
    const nextBlocks: Block[] = next && Array.isArray(next.content) ? next.content : [];
    if (!next || next.role !== 'user') {
      problems.push(`messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${toolUses.map((block) => block.id).join(', ')}`);
    } else {
      const leading: Block[] = [];
      for (const block of nextBlocks) {
        if (block.type !== 'tool_result') break;
        leading.push(block);
      }
      if (nextBlocks.slice(leading.length).some((block) => block.type === 'tool_result')) problems.push(`messages.${index + 1}: tool_result blocks must come first in the user message`);
      const answered = new Set(leading.map((block) => block.tool_use_id));
      const missing = toolUses.filter((block) => !answered.has(block.id)).map((block) => block.id);
      if (missing.length) problems.push(`messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`);
    }
  }
  return problems;
}

/** The assistant message of the current tool loop: the last one, when the request ends in its tool results. */
function lastToolLoopAssistant(messages: Array<{ role: string; content: string | Block[] }>): number {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user' || !Array.isArray(last.content) || last.content[0]?.type !== 'tool_result') return -1;
  return messages.length - 2;
}

function countCacheControl(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  return value.filter((block) => block && typeof block === 'object' && 'cache_control' in block).length;
}
