import type { FinishReason, LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamPart, LanguageModelV1Usage } from '../spec/language-model/v1/index.js';

/** One scripted model turn: shorthand fields, explicit parts, or a function of the request. */
export type ScriptedTurn =
  | {
      text?: string;
      reasoning?: { text: string; signature?: string };
      toolCalls?: Array<{ name: string; args?: unknown; rawArgs?: string; id?: string }>;
      finishReason?: FinishReason['unified'];
      usage?: Partial<{ input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number }>;
      /** Wait before each part (a slow model), honouring the abort signal. */
      delayMs?: number;
      /** End the turn with this error part after its content. */
      error?: unknown;
      /** Throw from doStream instead of streaming (a failed request). */
      throws?: unknown;
    }
  | { parts: LanguageModelV1StreamPart[]; delayMs?: number }
  | ((call: LanguageModelV1CallOptions, index: number) => ScriptedTurn);

export interface ScriptedModel extends LanguageModelV1 {
  /** Every request the runtime made, in order. */
  readonly calls: LanguageModelV1CallOptions[];
  /** Throws when some scripted turns were not used. */
  assertComplete(): void;
}

/**
 * A deterministic model for runtime tests: each `doStream` call plays the next turn. With
 * `repeatLast`, the last turn answers every further call (for benchmarks).
 */
export function scriptedModel(turns: ScriptedTurn[], options: { provider?: string; modelId?: string; repeatLast?: boolean } = {}): ScriptedModel {
  const calls: LanguageModelV1CallOptions[] = [];
  let next = 0;
  return {
    specificationVersion: 'v1',
    provider: options.provider ?? 'scripted',
    modelId: options.modelId ?? 'scripted-model',
    calls,
    assertComplete() {
      if (next < turns.length) throw new Error(`scriptedModel: ${turns.length - next} of ${turns.length} scripted turns were not used.`);
    },
    async doStream(call) {
      const index = calls.length;
      calls.push(call);
      let turn = turns[next] ?? (options.repeatLast ? turns[turns.length - 1] : undefined);
      if (!turn) throw new Error(`scriptedModel: no scripted turn left for call ${index + 1}.`);
      if (next < turns.length) next++;
      while (typeof turn === 'function') turn = turn(call, index);
      if ('throws' in turn && turn.throws !== undefined) throw turn.throws;
      const parts = 'parts' in turn ? turn.parts : partsOf(turn, index);
      const delayMs = turn.delayMs ?? 0;
      return { stream: play(parts, delayMs, call.abortSignal), request: { body: { messages: call.prompt.length } } };
    },
  };
}

async function* play(parts: LanguageModelV1StreamPart[], delayMs: number, signal: AbortSignal | undefined): AsyncGenerator<LanguageModelV1StreamPart> {
  for (const part of parts) {
    if (delayMs > 0) await sleep(delayMs, signal);
    if (signal?.aborted) throw signal.reason;
    yield part;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    // The listener goes with the timer: a slow stream of many parts must not pile them up on the signal.
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function partsOf(turn: Exclude<ScriptedTurn, Function | { parts: unknown }>, index: number): LanguageModelV1StreamPart[] {
  const parts: LanguageModelV1StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: `scripted-${index + 1}` }];
  if (turn.reasoning) {
    parts.push({ type: 'reasoning-start', id: 'r0' }, { type: 'reasoning-delta', id: 'r0', delta: turn.reasoning.text });
    parts.push({ type: 'reasoning-end', id: 'r0', ...(turn.reasoning.signature ? { signature: turn.reasoning.signature } : {}) });
  }
  if (turn.text) {
    parts.push({ type: 'text-start', id: 't0' });
    // Stream word by word so consumers see several deltas.
    for (const piece of turn.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: 'text-delta', id: 't0', delta: piece });
    parts.push({ type: 'text-end', id: 't0' });
  }
  for (const [callIndex, call] of (turn.toolCalls ?? []).entries()) {
    const id = call.id ?? `call_${index + 1}_${callIndex + 1}`;
    const input = call.rawArgs ?? JSON.stringify(call.args ?? {});
    parts.push({ type: 'tool-input-start', id, toolName: call.name }, { type: 'tool-input-delta', id, delta: input }, { type: 'tool-input-end', id });
    parts.push({ type: 'tool-call', toolCallId: id, toolName: call.name, input });
  }
  if (turn.error !== undefined) {
    parts.push({ type: 'error', error: turn.error });
    return parts;
  }
  const hasCalls = (turn.toolCalls?.length ?? 0) > 0;
  const unified = turn.finishReason ?? (hasCalls ? 'tool-calls' : 'stop');
  parts.push({ type: 'finish', finishReason: { unified, raw: unified }, usage: usageOf(turn.usage) });
  return parts;
}

function usageOf(usage: Partial<{ input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number }> = {}): LanguageModelV1Usage {
  const input = usage.input ?? 10;
  const output = usage.output ?? 5;
  return {
    inputTokens: { total: input, noCache: input - (usage.cacheRead ?? 0) - (usage.cacheWrite ?? 0), cacheRead: usage.cacheRead ?? 0, cacheWrite: usage.cacheWrite ?? 0 },
    outputTokens: { total: output, text: output - (usage.reasoning ?? 0), reasoning: usage.reasoning },
  };
}

/** A provider that serves scripted models, for registries in tests and examples. */
export function scriptedProvider(models: Record<string, ScriptedModel>, id = 'scripted') {
  return {
    specificationVersion: 'v1' as const,
    id,
    languageModel(modelId: string) {
      const model = models[modelId];
      if (!model) throw new Error(`scriptedProvider: no scripted model "${modelId}"`);
      return model;
    },
  };
}
