import { hashBlob } from '../store/blob-hash.js';
import { putCheckpointBlobs } from '../store/checkpoint-commit.js';
import type { JSONValue } from '../spec/json.js';
import type { RunEvent } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { CheckpointBlob, CheckpointStore, RunRecord } from '../spec/store/v1/index.js';

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

async function encodeBlob(value: unknown): Promise<CheckpointBlob> {
  const data = encoder.encode(JSON.stringify(value));
  return { hash: await hashBlob(data), data };
}

/** A run's event log as a save sees it (RunEventLog): its waiting events go with the step's checkpoint. */
export interface StepEventLog {
  readonly runId: string;
  /** One write, in turn with the log's others, that hands the waiting events to `write`. */
  commitWith<T>(write: (events: RunEvent[]) => Promise<T>): Promise<T>;
  flush(): Promise<void>;
}

/** How a save reaches the agent row, which points at the newest root. Give `onSave` or `commit`, or neither; `commitStep` with either. */
export interface CheckpointerOptions {
  /** Told each new root once its blobs are written: moves the agent row's pointer (`agents.update`). */
  onSave?: (root: string, mode: string) => Promise<unknown>;
  /**
   * Writes a save's blobs and moves the pointer to `root` in one store transaction
   * (`AgentStore.commitCheckpoint`), instead of the blob write and `onSave`.
   */
  commit?: (blobs: CheckpointBlob[], root: string, mode: string) => Promise<unknown>;
  /**
   * As `commit`, with a run's waiting events in the same transaction (`AgentStore.commitStep`), for
   * saves given a `log`. Without it such a save writes the log's events first, then the checkpoint.
   */
  commitStep?: (blobs: CheckpointBlob[], root: string, mode: string, run: StepRunWrites) => Promise<unknown>;
}

/** What a step's commit writes for its run: the waiting events, and a patch of the run's row (the turn's usage). */
export interface StepRunWrites {
  runId: string;
  events: RunEvent[];
  runPatch?: Partial<Omit<RunRecord, 'runId' | 'agentId'>>;
}

/** The options of one save. */
export interface SaveOptions {
  /** Aborted: the save rejects with its reason and the pointer stays where it was. */
  signal?: AbortSignal;
  /** The run's event log: its waiting events are written with the save (see `save`). */
  log?: StepEventLog;
  /** With `log`, on a store that commits steps (`commitsSteps`): a patch of the run's row in the same transaction. */
  runPatch?: StepRunWrites['runPatch'];
}

/**
 * Writes checkpoints for one agent as its conversation grows. `save` appends a root for the messages
 * added since the last save; when the conversation was rewritten (compaction) it starts a new chain.
 * Each new root moves the agent row's pointer (`commit`, or the blob write then `onSave`), so a
 * killed process leaves the conversation of its last complete step behind.
 *
 * Saves run one at a time, in call order; each captures its messages and state when called. Only
 * blobs this checkpointer has not written yet are written, children before the root that names
 * them: with `commit` together with the pointer (one transaction), else in one `putBlobs` call where
 * the store has it. A save whose `signal` is aborted before the pointer moves rejects with the
 * signal's reason and leaves the pointer where it was (with `onSave`, its blobs may be written:
 * unreferenced content-addressed blobs are harmless; with `commit`, nothing is written).
 */
export class ConversationCheckpointer {
  private root: string | null;
  private saved: ModelMessage[];
  /** Blob hash of each saved message, computed lazily: only for messages whose object changed. */
  private savedHashes: Array<string | undefined>;
  private savedState: string | null | undefined;
  private savedMode: string | undefined;
  /** The save in flight (or the last one); never rejects. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: CheckpointStore,
    snapshot: { root: string | null; messages: ModelMessage[] },
    private readonly options: CheckpointerOptions = {},
  ) {
    if (options.onSave && options.commit) throw new TypeError('ConversationCheckpointer takes onSave or commit, not both: commit writes the blobs and moves the pointer itself.');
    this.root = snapshot.root;
    this.saved = snapshot.messages.slice();
    this.savedHashes = new Array(this.saved.length);
  }

  get currentRoot(): string | null {
    return this.root;
  }

  /** Whether a save given a `log` writes its events (and `runPatch`) in the checkpoint's transaction. */
  get commitsSteps(): boolean {
    return this.options.commitStep !== undefined;
  }

  /**
   * Save after the saves before it; resolves to the root the agent row now points at. With `log`,
   * the run's events waiting in it are written before the pointer moves: in the same transaction
   * where the store can (`commitStep`), else just before it.
   */
  save(messages: ModelMessage[], state: Record<string, unknown>, mode: string, options: SaveOptions = {}): Promise<string> {
    if (options.runPatch && !(options.log && this.commitsSteps)) {
      return Promise.reject(new TypeError('ConversationCheckpointer.save: runPatch needs a log and a store that commits steps (commitsSteps); otherwise update the run row yourself.'));
    }
    // Captured now: the caller goes on changing its arrays and tool state while earlier saves run.
    const snapshot = { messages: messages.slice(), state: Object.keys(state).length === 0 ? null : encoder.encode(JSON.stringify(state)), mode };
    const next = this.last.then(() => this.write(snapshot, options));
    this.last = next.catch(() => undefined);
    return next;
  }

  /** Resolves once no save is in flight (whether the last one succeeded or not). */
  async settled(): Promise<void> {
    await this.last;
  }

  private async write(snapshot: { messages: ModelMessage[]; state: Uint8Array | null; mode: string }, options: SaveOptions): Promise<string> {
    const { signal } = options;
    signal?.throwIfAborted();
    const { messages, mode } = snapshot;
    const extendsSaved = await this.extendsSaved(messages);
    const state = snapshot.state && { hash: await hashBlob(snapshot.state), data: snapshot.state };
    const stateHash = state?.hash ?? null;
    // Nothing new since the last save: keep the root (no blob, no agent row update), unless a run
    // patch must be committed (then with no blob, to the same root).
    if (extendsSaved && messages.length === this.saved.length && this.root && stateHash === this.savedState && mode === this.savedMode) {
      if (options.runPatch && options.log && this.commitsSteps) await this.persist([], this.root, mode, options);
      return this.root;
    }
    const added = await Promise.all((extendsSaved ? messages.slice(this.saved.length) : messages).map(encodeBlob));
    const node: CheckpointRoot = { v: 1, parent: extendsSaved ? this.root : null, append: added.map((blob) => blob.hash), state: stateHash, mode, length: messages.length };
    const rootBlob = await encodeBlob(node);
    // The state blob was written by the save that introduced it; the root is always new.
    const blobs = uniqueBlobs([...added, ...(state && stateHash !== this.savedState ? [state] : []), rootBlob]);
    await this.persist(blobs, rootBlob.hash, mode, options);
    remember(this.store, rootBlob.hash, { messages, stateHash, mode });
    this.root = rootBlob.hash;
    this.savedHashes = extendsSaved ? [...this.savedHashes, ...node.append] : node.append.slice();
    this.saved = messages;
    this.savedState = stateHash;
    this.savedMode = mode;
    return rootBlob.hash;
  }

  /** Writes the blobs and moves the pointer; an abort seen before the move leaves the pointer alone. */
  private async persist(blobs: CheckpointBlob[], root: string, mode: string, options: SaveOptions): Promise<void> {
    const { commit, commitStep, onSave } = this.options;
    const { signal, log, runPatch } = options;
    if (log && commitStep) {
      signal?.throwIfAborted();
      await log.commitWith((events) => commitStep(blobs, root, mode, { runId: log.runId, events, ...(runPatch ? { runPatch } : {}) }));
      return;
    }
    // The step's events before its checkpoint, as when they were written on their own.
    if (log) await log.flush();
    if (commit) {
      signal?.throwIfAborted();
      await commit(blobs, root, mode);
      return;
    }
    await putCheckpointBlobs(this.store, blobs);
    signal?.throwIfAborted();
    await onSave?.(root, mode);
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
      const savedHash = (this.savedHashes[index] ??= (await encodeBlob(this.saved[index])).hash);
      if ((await encodeBlob(message)).hash !== savedHash) return false;
    }
    return true;
  }
}

/** Each hash once, in first-seen order (two messages with equal content share a blob). */
function uniqueBlobs(blobs: CheckpointBlob[]): CheckpointBlob[] {
  return [...new Map(blobs.map((blob) => [blob.hash, blob])).values()];
}
