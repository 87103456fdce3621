import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAIImageUrlProblems } from './fake-image-checks.js';

/** One scripted answer of the fake server: text and/or tool calls. */
export interface ChatCompletionsTurn {
  text?: string;
  toolCalls?: Array<{ name: string; args: unknown }>;
}

export interface ChatCompletionsServer {
  /** Base URL to use as OPENAI_BASE_URL, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Request bodies received, in order. */
  requests: Array<Record<string, any>>;
  /** Problems found in the requests (assistant tool_calls not answered by matching tool messages...). */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A zero-latency OpenAI-compatible Chat Completions server that streams scripted answers in the
 * real wire format (role chunk, content deltas, tool_calls by index with arguments in pieces,
 * finish_reason, a usage chunk, `[DONE]`) and checks that every request is one the real API would
 * accept. The last turn repeats when the script runs out (for benchmarks).
 */
export async function startChatCompletionsServer(turns: ChatCompletionsTurn[] | ((body: Record<string, any>, index: number) => ChatCompletionsTurn)): Promise<ChatCompletionsServer> {
  const requests: Array<Record<string, any>> = [];
  const problems: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (!request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `Unknown path ${request.url}`, type: 'invalid_request_error' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
      const index = requests.length;
      requests.push(body);
      problems.push(...validateChatRequest(body).map((problem) => `request ${index + 1}: ${problem}`));
      const turn = typeof turns === 'function' ? turns(body, index) : (turns[index] ?? turns[turns.length - 1] ?? { text: '' });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_fake_${index + 1}` });
      for (const chunk of chunksFor(turn, index, body.model)) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    problems,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function chunksFor(turn: ChatCompletionsTurn, index: number, model: string): object[] {
  const base = { id: `chatcmpl-fake-${index + 1}`, object: 'chat.completion.chunk', created: 1_700_000_000 + index, model };
  const chunk = (delta: object, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const out: object[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of turn.text?.match(/.{1,12}/gs) ?? []) out.push(chunk({ content: piece }));
  for (const [callIndex, call] of (turn.toolCalls ?? []).entries()) {
    const args = JSON.stringify(call.args);
    const id = `call_fake_${index + 1}_${callIndex + 1}`;
    out.push(chunk({ tool_calls: [{ index: callIndex, id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of args.match(/.{1,8}/gs) ?? []) out.push(chunk({ tool_calls: [{ index: callIndex, function: { arguments: piece } }] }));
  }
  out.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  out.push({ ...base, choices: [], usage: { prompt_tokens: 100 + index, completion_tokens: 20, total_tokens: 120 + index, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } } });
  return out;
}

/** The rules the real Chat Completions API enforces on a conversation's shape. */
export function validateChatRequest(body: Record<string, any>): string[] {
  const problems: string[] = [];
  if (typeof body.model !== 'string' || !body.model) problems.push('model is missing');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return [...problems, 'messages is empty'];
  const messages = body.messages as Array<Record<string, any>>;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(message.role)) problems.push(`message ${index} has role ${message.role}`);
    problems.push(...chatContentProblems(message, index));
    if (message.role === 'tool') {
      const previousAssistant = [...messages.slice(0, index)].reverse().find((candidate) => candidate.role === 'assistant');
      const ids = (previousAssistant?.tool_calls ?? []).map((call: { id: string }) => call.id);
      if (!ids.includes(message.tool_call_id)) problems.push(`tool message ${index} answers unknown tool_call_id ${message.tool_call_id}`);
    }
    if (message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      const following: string[] = [];
      for (let next = index + 1; next < messages.length && messages[next]!.role === 'tool'; next++) following.push(messages[next]!.tool_call_id);
      for (const call of message.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>) {
        if (!following.includes(call.id)) problems.push(`assistant tool_call ${call.id} is not answered by a tool message right after it`);
        try {
          JSON.parse(call.function.arguments);
        } catch {
          problems.push(`tool_call ${call.id} arguments are not JSON`);
        }
      }
    }
  }
  for (const tool of (body.tools ?? []) as Array<Record<string, any>>) {
    if (tool.type !== 'function' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function?.name ?? '')) problems.push(`invalid tool ${JSON.stringify(tool).slice(0, 80)}`);
  }
  return problems;
}

/** Content parts as the API checks them: images only from the user, as an http(s) or base64 image data URL. */
function chatContentProblems(message: Record<string, any>, index: number): string[] {
  if (!Array.isArray(message.content)) return [];
  const problems: string[] = [];
  for (const [position, part] of (message.content as Array<Record<string, any>>).entries()) {
    if (part.type !== 'image_url') continue;
    if (message.role !== 'user') {
      problems.push(`Invalid 'messages[${index}]': Image URLs are only allowed for messages with role 'user', but this message with role '${message.role}' contains an image URL.`);
      continue;
    }
    problems.push(...openAIImageUrlProblems(part.image_url?.url, `messages[${index}].content[${position}].image_url.url`));
    if (part.image_url?.detail !== undefined && !['auto', 'low', 'high'].includes(part.image_url.detail)) problems.push(`messages[${index}].content[${position}].image_url.detail: must be auto, low or high`);
  }
  return problems;
}
