import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FakeFailures, type FakeModelTurn, type FakeProviderServer, startChatCompletionsServer, startFakeAnthropicServer, startFakeGeminiServer,
  startFakeResponsesServer,
} from '@cairn/core/testing';
import type { AgentOptions, ModelSelection } from '../src/index.js';

/** One provider endpoint the same conversation runs against, given by base URL only. */
export interface ProviderCase {
  name: string;
  model: ModelSelection;
  start(turns: FakeModelTurn[], failures?: FakeFailures): Promise<FakeProviderServer>;
  env(url: string): Record<string, string>;
  providers?(url: string): AgentOptions['providers'];
  /** The tool outputs of the newest tool-result turn of a request, in call order. */
  toolOutputs(body: Record<string, any>): string[];
  /** Whether the request asked the model to reason (thinking on, thoughts included, reasoning set). */
  reasoningRequested(body: Record<string, any>): boolean;
  /** Whether the request carries earlier reasoning back (signed thinking, signatures, encrypted items). */
  reasoningPassedBack(body: Record<string, any>): boolean;
  /** Whether the injected failures of this harness work (the Chat server has none). */
  failures: boolean;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export const providerCases: ProviderCase[] = [
  {
    name: 'Anthropic Messages',
    model: { id: 'anthropic/claude-sonnet-4-5', params: [{ id: 'reasoning_effort', value: 'low' }] },
    start: (turns, failures) => startFakeAnthropicServer({ turns, ...(failures ? { failures } : {}) }),
    env: () => ({ ANTHROPIC_API_KEY: 'sk-ant-dummy' }),
    // The base URL through the provider setting; ANTHROPIC_BASE_URL works the same (see the failure tests).
    providers: (url) => ({ anthropic: { baseURL: url } }),
    toolOutputs(body) {
      const last = [...body.messages].reverse().find((message: any) => Array.isArray(message.content) && message.content[0]?.type === 'tool_result');
      return (last?.content ?? []).filter((block: any) => block.type === 'tool_result').map((block: any) => asText(typeof block.content === 'string' ? block.content : block.content.map((part: any) => part.text ?? '').join('')));
    },
    reasoningRequested: (body) => body.thinking?.type === 'enabled',
    reasoningPassedBack: (body) => body.messages.some((message: any) => Array.isArray(message.content) && message.content.some((block: any) => block.type === 'thinking' && block.signature)),
    failures: true,
  },
  {
    name: 'Gemini',
    model: { id: 'google/gemini-2.5-pro' },
    start: (turns, failures) => startFakeGeminiServer({ turns, ...(failures ? { failures } : {}) }),
    env: (url) => ({ GEMINI_API_KEY: 'gemini-dummy', GEMINI_BASE_URL: url }),
    toolOutputs(body) {
      const last = [...body.contents].reverse().find((content: any) => content.parts?.some((part: any) => part.functionResponse));
      return (last?.parts ?? []).filter((part: any) => part.functionResponse).map((part: any) => asText(part.functionResponse.response.output ?? part.functionResponse.response.error));
    },
    reasoningRequested: (body) => body.generationConfig?.thinkingConfig?.includeThoughts === true,
    reasoningPassedBack: (body) => body.contents.some((content: any) => content.role === 'model' && content.parts.some((part: any) => part.thoughtSignature)),
    failures: true,
  },
  {
    name: 'OpenAI Responses',
    model: { id: 'openai/gpt-5.2', params: [{ id: 'reasoningEffort', value: 'low' }] },
    start: (turns, failures) => startFakeResponsesServer({ turns, ...(failures ? { failures } : {}) }),
    env: (url) => ({ OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: url, OPENAI_API: 'responses' }),
    toolOutputs(body) {
      const outputs = body.input.filter((item: any) => item.type === 'function_call_output');
      const callsOfLastTurn = new Set(body.input.filter((item: any) => item.type === 'function_call').slice(-2).map((item: any) => item.call_id));
      return outputs.filter((item: any) => callsOfLastTurn.has(item.call_id)).map((item: any) => asText(item.output));
    },
    reasoningRequested: (body) => Boolean(body.reasoning) && body.include?.includes('reasoning.encrypted_content'),
    reasoningPassedBack: (body) => body.input.some((item: any) => item.type === 'reasoning' && item.encrypted_content),
    failures: true,
  },
  {
    name: 'OpenAI Chat Completions',
    model: { id: 'openai/o4-mini', params: [{ id: 'reasoningEffort', value: 'low' }] },
    start: async (turns) => {
      const server = await startChatCompletionsServer(turns);
      return { ...server, received: [] };
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
    failures: false,
  },
];

/** A workspace with two real files for `read_file` and `list_dir`. */
export async function makeWorkspace(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-providers-'));
  await writeFile(join(cwd, 'notes.txt'), 'Remember: the launch code is 4217.\n');
  await writeFile(join(cwd, 'todo.md'), '- ship the providers\n');
  return cwd;
}
