import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FakeFailures, type FakeModelTurn, type FakeProviderServer, openAIErrorBody, startChatCompletionsServer, startFailureProxy, startFakeAnthropicServer,
  startFakeGeminiServer, startFakeResponsesServer,
} from '@cairn/core/testing';
import type { AgentOptions, ModelSelection } from '../src/index.js';

/** One provider endpoint the same conversation runs against, given by base URL only. */
export interface ProviderCase {
  name: string;
  model: ModelSelection;
  start(turns: FakeModelTurn[], failures?: FakeFailures, chunkSize?: number): Promise<FakeProviderServer>;
  env(url: string): Record<string, string>;
  providers?(url: string): AgentOptions['providers'];
  /** The tool outputs of the newest tool-result turn of a request, in call order. */
  toolOutputs(body: Record<string, any>): string[];
  /** Whether the request asked the model to reason (thinking on, thoughts included, reasoning set). */
  reasoningRequested(body: Record<string, any>): boolean;
  /** Whether the request carries earlier reasoning back (signed thinking, signatures, encrypted items). */
  reasoningPassedBack(body: Record<string, any>): boolean;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export const providerCases: ProviderCase[] = [
  {
    name: 'Anthropic Messages',
    model: { id: 'anthropic/claude-sonnet-4-5', params: [{ id: 'reasoning_effort', value: 'low' }] },
    start: (turns, failures, chunkSize) => startFakeAnthropicServer({ turns, ...(failures ? { failures } : {}), ...(chunkSize ? { chunkSize } : {}) }),
    env: (url) => ({ ANTHROPIC_API_KEY: 'sk-ant-dummy', ANTHROPIC_BASE_URL: url }),
    // The end-to-end test gives the base URL as the provider setting, which wins over ANTHROPIC_BASE_URL
    // (then pointing elsewhere); the failure tests use the variable alone.
    providers: (url) => ({ anthropic: { baseURL: url } }),
    toolOutputs(body) {
      const last = [...body.messages].reverse().find((message: any) => Array.isArray(message.content) && message.content[0]?.type === 'tool_result');
      return (last?.content ?? []).filter((block: any) => block.type === 'tool_result').map((block: any) => asText(typeof block.content === 'string' ? block.content : block.content.map((part: any) => part.text ?? '').join('')));
    },
    reasoningRequested: (body) => body.thinking?.type === 'enabled',
    reasoningPassedBack: (body) => body.messages.some((message: any) => Array.isArray(message.content) && message.content.some((block: any) => block.type === 'thinking' && block.signature)),
  },
  {
    name: 'Gemini',
    model: { id: 'google/gemini-2.5-pro' },
    start: (turns, failures, chunkSize) => startFakeGeminiServer({ turns, ...(failures ? { failures } : {}), ...(chunkSize ? { chunkSize } : {}) }),
    env: (url) => ({ GEMINI_API_KEY: 'gemini-dummy', GEMINI_BASE_URL: url }),
    toolOutputs(body) {
      const last = [...body.contents].reverse().find((content: any) => content.parts?.some((part: any) => part.functionResponse));
      return (last?.parts ?? []).filter((part: any) => part.functionResponse).map((part: any) => asText(part.functionResponse.response.output ?? part.functionResponse.response.error));
    },
    reasoningRequested: (body) => body.generationConfig?.thinkingConfig?.includeThoughts === true,
    reasoningPassedBack: (body) => body.contents.some((content: any) => content.role === 'model' && content.parts.some((part: any) => part.thoughtSignature)),
  },
  {
    name: 'Gemini 3',
    // Gemini 3 takes a thinking level and rejects unsigned calls of the current turn.
    model: { id: 'google/gemini-3-pro-preview', params: [{ id: 'reasoning_effort', value: 'low' }] },
    start: (turns, failures, chunkSize) => startFakeGeminiServer({ turns, ...(failures ? { failures } : {}), ...(chunkSize ? { chunkSize } : {}) }),
    env: (url) => ({ GEMINI_API_KEY: 'gemini-dummy', GEMINI_BASE_URL: url }),
    toolOutputs(body) {
      const last = [...body.contents].reverse().find((content: any) => content.parts?.some((part: any) => part.functionResponse));
      return (last?.parts ?? []).filter((part: any) => part.functionResponse).map((part: any) => asText(part.functionResponse.response.output ?? part.functionResponse.response.error));
    },
    reasoningRequested: (body) => body.generationConfig?.thinkingConfig?.includeThoughts === true,
    reasoningPassedBack: (body) => body.contents.some((content: any) => content.role === 'model' && content.parts.some((part: any) => part.thoughtSignature)),
  },
  {
    name: 'OpenAI Responses',
    model: { id: 'openai/gpt-5.2', params: [{ id: 'reasoningEffort', value: 'low' }] },
    start: (turns, failures, chunkSize) => startFakeResponsesServer({ turns, ...(failures ? { failures } : {}), ...(chunkSize ? { chunkSize } : {}) }),
    env: (url) => ({ OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: url, OPENAI_API: 'responses' }),
    toolOutputs(body) {
      const outputs = body.input.filter((item: any) => item.type === 'function_call_output');
      const callsOfLastTurn = new Set(body.input.filter((item: any) => item.type === 'function_call').slice(-2).map((item: any) => item.call_id));
      return outputs.filter((item: any) => callsOfLastTurn.has(item.call_id)).map((item: any) => asText(item.output));
    },
    reasoningRequested: (body) => Boolean(body.reasoning) && body.include?.includes('reasoning.encrypted_content'),
    reasoningPassedBack: (body) => body.input.some((item: any) => item.type === 'reasoning' && item.encrypted_content),
  },
  {
    name: 'OpenAI Chat Completions',
    model: { id: 'openai/o4-mini', params: [{ id: 'reasoningEffort', value: 'low' }] },
    start: async (turns, failures, chunkSize) => {
      const server = await startChatCompletionsServer(turns);
      if (!failures && !chunkSize) return { ...server, received: [] };
      // The Chat server has no failure injection or chunking of its own: a proxy in front of it adds them.
      const proxy = await startFailureProxy(server.url, failures ?? [], openAIErrorBody, chunkSize ? { chunkSize } : {});
      return {
        url: proxy.url,
        requests: proxy.requests,
        received: proxy.received,
        problems: server.problems,
        close: async () => {
          await proxy.close();
          await server.close();
        },
      };
    },
    env: (url) => ({ OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: url, OPENAI_API: 'chat' }),
    toolOutputs(body) {
      const messages = body.messages as Array<{ role: string; content: unknown }>;
      const outputs: string[] = [];
      let index = messages.map((message) => message.role).lastIndexOf('tool');
      for (; index >= 0 && messages[index]!.role === 'tool'; index--) outputs.unshift(asText(messages[index]!.content));
      return outputs;
    },
    reasoningRequested: (body) => body.reasoning_effort === 'low',
    // Chat Completions has no reasoning input: nothing to pass back.
    reasoningPassedBack: () => true,
  },
];

/** A workspace with two real files for `read_file` and `list_dir`. */
export async function makeWorkspace(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-providers-'));
  await writeFile(join(cwd, 'notes.txt'), 'Remember: the launch code is 4217.\n');
  await writeFile(join(cwd, 'todo.md'), '- ship the providers\n');
  return cwd;
}
