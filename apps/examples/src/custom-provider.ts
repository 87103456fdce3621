// A model provider of your own, registered through the plugin registry: a tiny ProviderV1 +
// LanguageModelV1 adapter for any OpenAI-compatible Chat Completions server, written with fetch and
// eventsource-parser (no vendor SDK). Without --base-url it starts a local fake server, so it runs
// with no API key:
//   node apps/examples/dist/custom-provider.js [--base-url http://localhost:8000/v1 --model my-model] [workspace]
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CallWarning, ConfigurationError, createMemoryStore, type FinishReason, type ImagePart, type LanguageModelV1, type LanguageModelV1CallOptions,
  type LanguageModelV1StreamPart, type LanguageModelV1Usage, type ModelCatalogEntry, type ModelMessage, type ProviderContext, ProviderError, type ProviderV1,
} from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { fsToolsPlugin } from '@cairn/tools-fs';
import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface TinyChatSettings {
  /** The provider id: models are selected as `<id>/<model>`. */
  id?: string;
  /** The server's base URL including `/v1`; else `providers.<id>.baseURL`, else `TINY_CHAT_BASE_URL`. */
  baseURL?: string;
  /** Optional bearer key; else `providers.<id>.apiKey`, else `TINY_CHAT_API_KEY`. */
  apiKey?: string;
  /** Catalog entries for the models the server has (context window, prices...). Any id still works. */
  models?: ModelCatalogEntry[];
}

/** The provider: resolves settings per call (factory, then `providers.<id>`, then env) and builds models. */
export function createTinyChatProvider(settings: TinyChatSettings = {}): ProviderV1 {
  const id = settings.id ?? 'tiny';
  const resolve = (context: ProviderContext) => ({
    baseURL: (settings.baseURL ?? (context.settings.baseURL as string | undefined) ?? context.env.TINY_CHAT_BASE_URL)?.replace(/\/$/, ''),
    apiKey: settings.apiKey ?? context.settings.apiKey ?? context.env.TINY_CHAT_API_KEY,
  });
  return {
    specificationVersion: 'v1',
    id,
    name: 'Tiny Chat Completions adapter',
    apiKeyEnv: ['TINY_CHAT_API_KEY'],
    languageModel(modelId, context) {
      const { baseURL, apiKey } = resolve(context);
      if (!baseURL) throw new ConfigurationError(`The ${id} provider needs a server: set TINY_CHAT_BASE_URL or pass providers.${id}.baseURL.`);
      return new TinyChatModel(id, modelId, baseURL, apiKey);
    },
    models: () => settings.models ?? [],
    isConfigured: (context) => Boolean(resolve(context).baseURL),
  };
}

/** One model: `doStream` POSTs to `/chat/completions` with `stream: true` and maps the SSE chunks to stream parts. */
class TinyChatModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1';
  constructor(
    readonly provider: string,
    readonly modelId: string,
    private readonly baseURL: string,
    private readonly apiKey: string | undefined,
  ) {}

  async doStream(options: LanguageModelV1CallOptions) {
    const warnings: CallWarning[] = options.reasoningEffort ? [{ type: 'unsupported-setting', setting: 'reasoningEffort', message: 'This adapter sends no reasoning settings.' }] : [];
    const body = {
      model: this.modelId,
      messages: toChatMessages(options.prompt),
      stream: true,
      stream_options: { include_usage: true },
      ...(options.tools?.length ? { tools: options.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })) } : {}),
      ...(options.maxOutputTokens ? { max_tokens: options.maxOutputTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    };
    const url = `${this.baseURL}/chat/completions`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
        body: JSON.stringify(body),
        ...(options.abortSignal ? { signal: options.abortSignal } : {}),
      });
    } catch (error) {
      if (options.abortSignal?.aborted) throw options.abortSignal.reason; // aborts are never wrapped
      throw new ProviderError(`Cannot reach ${url}: ${String((error as Error).cause ?? error)}`, { provider: this.provider, isRetryable: true });
    }
    if (!response.ok || !response.body) {
      const text = await response.text();
      const retryAfter = Number(response.headers.get('retry-after'));
      // No retries here: core's streamWithRetry decides from status and retry-after.
      throw new ProviderError(`${this.provider} error ${response.status}: ${text.slice(0, 500)}`, {
        provider: this.provider,
        status: response.status,
        body: text,
        ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
      });
    }
    const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    return { stream: mapChunks(events, warnings, this.provider, options.abortSignal), request: { body } };
  }
}

interface ChatChunk {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
}

/** Chunks to parts. Tool calls are emitted whole only after `finish_reason`, so a cut stream never yields a half call. */
async function* mapChunks(events: ReadableStream<{ data: string }>, warnings: CallWarning[], provider: string, signal: AbortSignal | undefined): AsyncGenerator<LanguageModelV1StreamPart> {
  yield { type: 'stream-start', warnings };
  const calls = new Map<number, { id: string; name: string; args: string }>();
  let textOpen = false;
  let finish: FinishReason | undefined;
  let usage: LanguageModelV1Usage = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  let started = false;
  try {
    const reader = events.getReader();
    for (;;) {
      const { value: event, done } = await reader.read();
      if (done || event.data === '[DONE]') break;
      const chunk = JSON.parse(event.data) as ChatChunk;
      if (chunk.usage) {
        const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        usage = {
          inputTokens: { total: chunk.usage.prompt_tokens, noCache: (chunk.usage.prompt_tokens ?? 0) - cached, cacheRead: cached, cacheWrite: undefined },
          outputTokens: { total: chunk.usage.completion_tokens, text: chunk.usage.completion_tokens, reasoning: undefined },
          raw: chunk.usage,
        };
      }
      const choice = chunk.choices?.[0];
      if (choice?.delta?.content) {
        if (!textOpen) yield { type: 'text-start', id: 'text-0' };
        textOpen = true;
        started = true;
        yield { type: 'text-delta', id: 'text-0', delta: choice.delta.content };
      }
      for (const piece of choice?.delta?.tool_calls ?? []) {
        let call = calls.get(piece.index);
        if (!call) {
          call = { id: piece.id ?? `call-${piece.index}`, name: piece.function?.name ?? '', args: '' };
          calls.set(piece.index, call);
          started = true;
          yield { type: 'tool-input-start', id: call.id, toolName: call.name };
        }
        if (piece.function?.arguments) {
          call.args += piece.function.arguments;
          yield { type: 'tool-input-delta', id: call.id, delta: piece.function.arguments };
        }
      }
      if (choice?.finish_reason) finish = { unified: choice.finish_reason === 'tool_calls' || calls.size ? 'tool-calls' : choice.finish_reason === 'length' ? 'length' : 'stop', raw: choice.finish_reason };
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    yield { type: 'error', error: new ProviderError(`${provider} stream broke: ${String(error)}`, { provider, isRetryable: true, responseStarted: started }) };
    return;
  }
  if (signal?.aborted) throw signal.reason;
  if (textOpen) yield { type: 'text-end', id: 'text-0' };
  if (!finish) {
    yield { type: 'error', error: new ProviderError(`${provider} stream ended without a finish reason`, { provider, isRetryable: true, responseStarted: started, code: 'stream_incomplete' }) };
    return;
  }
  for (const call of calls.values()) {
    yield { type: 'tool-input-end', id: call.id };
    yield { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.args || '{}' };
  }
  yield { type: 'finish', finishReason: finish, usage };
}

/** An image part as Chat Completions takes it: a URL image as it is, inline bytes as a data URL. */
function imageUrl(part: ImagePart): string {
  return 'url' in part ? part.url : `data:${part.mediaType};base64,${part.data}`;
}

/** Cairn's neutral messages to Chat Completions messages (reasoning has no place there and is dropped). */
function toChatMessages(prompt: ModelMessage[]): object[] {
  return prompt.flatMap((message): object[] => {
    if (message.role === 'system') return [{ role: 'system', content: message.content }];
    if (message.role === 'user') {
      return [{ role: 'user', content: message.content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: imageUrl(part) } })) }];
    }
    if (message.role === 'assistant') {
      const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      const toolCalls = message.content.flatMap((part) =>
        part.type === 'tool-call' ? [{ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input) } }] : [],
      );
      return [{ role: 'assistant', content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }];
    }
    return message.content.map((result) => ({ role: 'tool', tool_call_id: result.toolCallId, content: toolOutputText(result.output) }));
  });
}

function toolOutputText(output: Extract<ModelMessage, { role: 'tool' }>['content'][number]['output']): string {
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  if (output.type === 'content') return output.value.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n');
  return JSON.stringify(output.value);
}

/** Runs one agent turn through the custom provider; starts a scripted local server when no URL is given. */
export async function runCustomProvider(options: { cwd: string; baseURL?: string; model?: string; log?: (line: string) => void }) {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const local = options.baseURL
    ? undefined
    : await startChatCompletionsServer([
        { text: 'Reading the README.', toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
        { text: 'The README says the workspace was made by the example.' },
      ]);
  const { Agent } = createCairn({ plugins: [{ name: 'tiny-provider', providers: [createTinyChatProvider()] }, fsToolsPlugin] });
  const agent = await Agent.create({
    model: `tiny/${options.model ?? 'local-model'}`,
    local: { cwd: options.cwd, store: createMemoryStore() },
    providers: { tiny: { baseURL: options.baseURL ?? local!.url } },
  });
  try {
    const run = await agent.send('What does the README say?');
    for await (const message of run.stream()) {
      if (message.type === 'assistant') for (const block of message.message.content) if (block.type === 'text') log(block.text);
      if (message.type === 'tool_call' && message.status !== 'running') log(`  [${message.name} ${message.status}]`);
    }
    return { result: await run.wait(), requests: local?.requests ?? [], problems: local?.problems ?? [] };
  } finally {
    await agent.close();
    await local?.close();
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '');
if (isMain) {
  const args = process.argv.slice(2);
  const take = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const baseURL = take('--base-url');
  const model = take('--model');
  let cwd = args[0];
  if (!cwd) {
    cwd = await mkdtemp(join(tmpdir(), 'cairn-example-'));
    await writeFile(join(cwd, 'README.md'), '# Demo\nThis workspace was made by the example.\n');
  }
  const { result } = await runCustomProvider({ cwd, ...(baseURL ? { baseURL } : {}), ...(model ? { model } : {}) });
  process.exitCode = result.status === 'finished' ? 0 : 1;
}
