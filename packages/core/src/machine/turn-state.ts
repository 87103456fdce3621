import type { FinishReason, LanguageModelV1StreamPart, LanguageModelV1Usage } from '../spec/language-model/v1/index.js';
import type { ProviderMetadata } from '../spec/json.js';

export type TurnBlock =
  | { kind: 'text'; id: string; text: string; providerMetadata?: ProviderMetadata }
  | { kind: 'reasoning'; id: string; text: string; signature?: string; redactedData?: string; providerMetadata?: ProviderMetadata; startedAt: number; endedAt?: number }
  | { kind: 'tool-call'; toolCallId: string; toolName: string; inputText: string; providerMetadata?: ProviderMetadata };

/** The assistant turn being streamed: what the reducers build from stream parts. */
export interface TurnState {
  blocks: TurnBlock[];
  /** Tool inputs still streaming, by tool-input id; never executed unless a `tool-call` part completes them. */
  pendingToolInputs: Record<string, { toolName: string; text: string }>;
  finishReason?: FinishReason;
  usage?: LanguageModelV1Usage;
  responseId?: string;
  requestId?: string;
  /** Set when the stream failed; the partial text is kept and marked incomplete. */
  error?: unknown;
}

export function emptyTurn(): TurnState {
  return { blocks: [], pendingToolInputs: {} };
}

/** Pure reducer: one stream part -> the next turn state. Unknown parts leave the state unchanged. */
export function applyStreamPart(turn: TurnState, part: LanguageModelV1StreamPart, now: number = Date.now()): TurnState {
  switch (part.type) {
    case 'text-start':
      return withBlock(turn, { kind: 'text', id: part.id, text: '', ...meta(part.providerMetadata) });
    case 'text-delta': {
      const index = findOpenBlock(turn, 'text', part.id);
      if (index === -1) return withBlock(turn, { kind: 'text', id: part.id, text: part.delta });
      return updateBlock(turn, index, (block) => ({ ...block, text: (block as { text: string }).text + part.delta }));
    }
    case 'text-end': {
      const index = findOpenBlock(turn, 'text', part.id);
      if (index === -1 || !part.providerMetadata) return turn;
      return updateBlock(turn, index, (block) => ({ ...block, providerMetadata: mergeMetadata(block.providerMetadata, part.providerMetadata) }));
    }
    case 'reasoning-start':
      return withBlock(turn, { kind: 'reasoning', id: part.id, text: '', startedAt: now, ...meta(part.providerMetadata) });
    case 'reasoning-delta': {
      const index = findOpenBlock(turn, 'reasoning', part.id);
      if (index === -1) return withBlock(turn, { kind: 'reasoning', id: part.id, text: part.delta, startedAt: now });
      return updateBlock(turn, index, (block) => ({ ...block, text: (block as { text: string }).text + part.delta }));
    }
    case 'reasoning-end': {
      let index = findOpenBlock(turn, 'reasoning', part.id);
      let state = turn;
      if (index === -1) {
        state = withBlock(turn, { kind: 'reasoning', id: part.id, text: '', startedAt: now });
        index = state.blocks.length - 1;
      }
      return updateBlock(state, index, (block) => ({
        ...block,
        endedAt: now,
        ...(part.signature === undefined ? {} : { signature: part.signature }),
        ...(part.redactedData === undefined ? {} : { redactedData: part.redactedData }),
        ...(part.providerMetadata ? { providerMetadata: mergeMetadata(block.providerMetadata, part.providerMetadata) } : {}),
      }));
    }
    case 'tool-input-start':
      return { ...turn, pendingToolInputs: { ...turn.pendingToolInputs, [part.id]: { toolName: part.toolName, text: '' } } };
    case 'tool-input-delta': {
      const pending = turn.pendingToolInputs[part.id];
      if (!pending) return turn;
      return { ...turn, pendingToolInputs: { ...turn.pendingToolInputs, [part.id]: { ...pending, text: pending.text + part.delta } } };
    }
    case 'tool-input-end':
      return turn;
    case 'tool-call': {
      const { [part.toolCallId]: _done, ...rest } = turn.pendingToolInputs;
      const block: TurnBlock = { kind: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, inputText: part.input, ...meta(part.providerMetadata) };
      return { ...withBlock(turn, block), pendingToolInputs: rest };
    }
    case 'response-metadata':
      return {
        ...turn,
        ...(part.id === undefined ? {} : { responseId: part.id }),
        ...(part.requestId === undefined ? {} : { requestId: part.requestId }),
      };
    case 'finish':
      return { ...turn, finishReason: part.finishReason, usage: part.usage };
    case 'error':
      return { ...turn, error: part.error };
    default:
      return turn;
  }
}

export function turnText(turn: TurnState): string {
  return turn.blocks.map((block) => (block.kind === 'text' ? block.text : '')).join('');
}

export function turnToolCalls(turn: TurnState): Array<Extract<TurnBlock, { kind: 'tool-call' }>> {
  return turn.blocks.filter((block): block is Extract<TurnBlock, { kind: 'tool-call' }> => block.kind === 'tool-call');
}

function meta(providerMetadata: ProviderMetadata | undefined): { providerMetadata?: ProviderMetadata } {
  return providerMetadata ? { providerMetadata } : {};
}

function mergeMetadata(left: ProviderMetadata | undefined, right: ProviderMetadata | undefined): ProviderMetadata | undefined {
  if (!left) return right;
  if (!right) return left;
  const merged: ProviderMetadata = { ...left };
  for (const [key, value] of Object.entries(right)) merged[key] = { ...(left[key] ?? {}), ...value };
  return merged;
}

function withBlock(turn: TurnState, block: TurnBlock): TurnState {
  return { ...turn, blocks: [...turn.blocks, block] };
}

function updateBlock(turn: TurnState, index: number, update: (block: TurnBlock) => TurnBlock): TurnState {
  const blocks = turn.blocks.slice();
  blocks[index] = update(blocks[index] as TurnBlock);
  return { ...turn, blocks };
}

function findOpenBlock(turn: TurnState, kind: 'text' | 'reasoning', id: string): number {
  for (let index = turn.blocks.length - 1; index >= 0; index--) {
    const block = turn.blocks[index] as TurnBlock;
    if (block.kind === kind && block.id === id) return index;
  }
  return -1;
}
