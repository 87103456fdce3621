import { hashBlob } from '../store/blob-hash.js';
import type { JSONValue } from '../spec/json.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { CheckpointStore } from '../spec/store/v1/index.js';

/**
 * A conversation checkpoint root. Roots form a chain: each adds the messages appended since its
 * parent, so a new turn writes only new blobs and storage grows linearly with the conversation.
 * A compaction starts a new chain (parent null) holding the summary and the kept turns.
 */
interface CheckpointRoot {
  v: 1;
  parent: string | null;
  /** Hashes of message blobs added by this root, in order. */
  append: string[];
  /** Hash of the tool-state blob (todos, plan, read snapshots) as of this root. */
  state: string | null;
  mode: string;
  /** Messages in the whole conversation up to this root. */
  length: number;
}

export interface ConversationSnapshot {
  messages: ModelMessage[];
  state: Record<string, JSONValue>;
  mode: string;
  root: string | null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function putJson(store: CheckpointStore, value: unknown): Promise<string> {
  const bytes = encoder.encode(JSON.stringify(value));
  const hash = await hashBlob(bytes);
  if (!(await store.hasBlob(hash))) await store.putBlob(hash, bytes);
  return hash;
}

async function getJson<T>(store: CheckpointStore, hash: string): Promise<T> {
  const bytes = await store.getBlob(hash);
  if (!bytes) throw new Error(`Checkpoint blob ${hash} is missing from the store; the conversation cannot be loaded.`);
  return JSON.parse(decoder.decode(bytes)) as T;
}

/** Load a conversation by walking its root chain back to the start. */
export async function loadConversation(store: CheckpointStore, root: string | null): Promise<ConversationSnapshot> {
  if (!root) return { messages: [], state: {}, mode: 'agent', root: null };
  const chain: CheckpointRoot[] = [];
  for (let hash: string | null = root; hash; ) {
    const node: CheckpointRoot = await getJson<CheckpointRoot>(store, hash);
    chain.push(node);
    hash = node.parent;
  }
  const head = chain[0] as CheckpointRoot;
  const hashes = chain.reverse().flatMap((node) => node.append);
  const messages = await Promise.all(hashes.map((hash) => getJson<ModelMessage>(store, hash)));
  const state = head.state ? await getJson<Record<string, JSONValue>>(store, head.state) : {};
  return { messages, state, mode: head.mode, root };
}

/**
 * Writes checkpoints for one agent as its conversation grows. `save` appends a root for the messages
 * added since the last save; when the conversation was rewritten (compaction) it starts a new chain.
 */
export class ConversationCheckpointer {
  private root: string | null;
  private saved: ModelMessage[];

  constructor(
    private readonly store: CheckpointStore,
    snapshot: { root: string | null; messages: ModelMessage[] },
  ) {
    this.root = snapshot.root;
    this.saved = snapshot.messages.slice();
  }

  get currentRoot(): string | null {
    return this.root;
  }

  async save(messages: ModelMessage[], state: Record<string, unknown>, mode: string): Promise<string> {
    const extendsSaved = messages.length >= this.saved.length && this.saved.every((message, index) => message === messages[index]);
    const parent = extendsSaved ? this.root : null;
    const added = extendsSaved ? messages.slice(this.saved.length) : messages;
    const append: string[] = [];
    for (const message of added) append.push(await putJson(this.store, message));
    const stateHash = Object.keys(state).length === 0 ? null : await putJson(this.store, state);
    const node: CheckpointRoot = { v: 1, parent, append, state: stateHash, mode, length: messages.length };
    this.root = await putJson(this.store, node);
    this.saved = messages.slice();
    return this.root;
  }
}
