import { hashBlob, storeBlob } from '../store/blob-hash.js';
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
  return storeBlob(store, encoder.encode(JSON.stringify(value)));
}

async function getJson<T>(store: CheckpointStore, hash: string): Promise<T> {
  const bytes = await store.getBlob(hash);
  if (!bytes) throw new Error(`Checkpoint blob ${hash} is missing from the store; the conversation cannot be loaded.`);
  return JSON.parse(decoder.decode(bytes)) as T;
}

interface CachedConversation {
  messages: ModelMessage[];
  stateHash: string | null;
  mode: string;
}

/**
 * The last few conversations loaded or saved in this process, by store and root. A send loads the
 * conversation it saved at the end of the previous one, so without this every turn would walk the
 * whole chain again (linear per turn). A root of an older chain is loaded from its nearest cached
 * ancestor. Messages are treated as immutable everywhere; the state is re-read from its blob (tools
 * may mutate their state objects).
 */
const cache = new WeakMap<CheckpointStore, Map<string, CachedConversation>>();
const cachedRootsPerStore = 8;

function remember(store: CheckpointStore, root: string, entry: CachedConversation): void {
  let roots = cache.get(store);
  if (!roots) cache.set(store, (roots = new Map()));
  roots.delete(root);
  roots.set(root, entry);
  if (roots.size > cachedRootsPerStore) roots.delete(roots.keys().next().value as string);
}

/** Load a conversation by walking its root chain back to the start (or to a root cached in this process). */
export async function loadConversation(store: CheckpointStore, root: string | null): Promise<ConversationSnapshot> {
  if (!root) return { messages: [], state: {}, mode: 'agent', root: null };
  const chain: CheckpointRoot[] = [];
  let base: CachedConversation | undefined;
  for (let hash: string | null = root; hash; ) {
    base = cache.get(store)?.get(hash);
    if (base) break;
    const node: CheckpointRoot = await getJson<CheckpointRoot>(store, hash);
    chain.push(node);
    hash = node.parent;
  }
  const head = chain[0];
  const hashes = [...chain].reverse().flatMap((node) => node.append);
  const added = await Promise.all(hashes.map((hash) => getJson<ModelMessage>(store, hash)));
  const messages = [...(base?.messages ?? []), ...added];
  const stateHash = head ? head.state : (base as CachedConversation).stateHash;
  const mode = head ? head.mode : (base as CachedConversation).mode;
  remember(store, root, { messages, stateHash, mode });
  const state = stateHash ? await getJson<Record<string, JSONValue>>(store, stateHash) : {};
  return { messages: messages.slice(), state, mode, root };
}

/**
 * Writes checkpoints for one agent as its conversation grows. `save` appends a root for the messages
 * added since the last save; when the conversation was rewritten (compaction) it starts a new chain.
 * `onSave` is told each new root (the agent row points at it, so a killed process leaves the
 * conversation of its last complete step behind).
 */
export class ConversationCheckpointer {
  private root: string | null;
  private saved: ModelMessage[];
  /** Blob hash of each saved message, computed lazily: only for messages whose object changed. */
  private savedHashes: Array<string | undefined>;
  private savedState: string | null | undefined;
  private savedMode: string | undefined;

  constructor(
    private readonly store: CheckpointStore,
    snapshot: { root: string | null; messages: ModelMessage[] },
    private readonly options: { onSave?: (root: string) => Promise<unknown> } = {},
  ) {
    this.root = snapshot.root;
    this.saved = snapshot.messages.slice();
    this.savedHashes = new Array(this.saved.length);
  }

  get currentRoot(): string | null {
    return this.root;
  }

  async save(messages: ModelMessage[], state: Record<string, unknown>, mode: string): Promise<string> {
    const extendsSaved = await this.extendsSaved(messages);
    const parent = extendsSaved ? this.root : null;
    const added = extendsSaved ? messages.slice(this.saved.length) : messages;
    const stateHash = Object.keys(state).length === 0 ? null : await putJson(this.store, state);
    // Nothing new since the last save: keep the root (no blob, no agent row update).
    if (extendsSaved && added.length === 0 && this.root && stateHash === this.savedState && mode === this.savedMode) return this.root;
    const append: string[] = [];
    for (const message of added) append.push(await putJson(this.store, message));
    const node: CheckpointRoot = { v: 1, parent, append, state: stateHash, mode, length: messages.length };
    this.root = await putJson(this.store, node);
    remember(this.store, this.root, { messages: messages.slice(), stateHash, mode });
    this.savedHashes = extendsSaved ? [...this.savedHashes, ...append] : append;
    this.saved = messages.slice();
    this.savedState = stateHash;
    this.savedMode = mode;
    await this.options.onSave?.(this.root);
    return this.root;
  }

  /**
   * Whether `messages` starts with the saved ones. The same objects usually come back; a message
   * rebuilt with equal content (a cancel closing a turn) is compared by its blob hash, so it does not
   * start a new chain — which would store every message hash again and make growth quadratic.
   */
  private async extendsSaved(messages: ModelMessage[]): Promise<boolean> {
    if (messages.length < this.saved.length) return false;
    for (let index = 0; index < this.saved.length; index++) {
      const message = messages[index] as ModelMessage;
      if (message === this.saved[index]) continue;
      const savedHash = (this.savedHashes[index] ??= await hashJson(this.saved[index]));
      if ((await hashJson(message)) !== savedHash) return false;
    }
    return true;
  }
}

async function hashJson(value: unknown): Promise<string> {
  return hashBlob(encoder.encode(JSON.stringify(value)));
}
