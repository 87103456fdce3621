import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { CheckpointStore } from '../spec/store/v1/index.js';
import { hashBlob } from '../store/blob-hash.js';
import { createMemoryCheckpointStore } from '../store/memory-checkpoints.js';
import { ConversationCheckpointer, loadConversation } from './conversation-checkpoint.js';

const text = (value: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text: value }] });

/** The memory store with its writes recorded: which blobs each call carried. */
function recordingStore(options: { batched: boolean }) {
  const inner = createMemoryCheckpointStore();
  const calls: Array<{ method: string; hashes: string[] }> = [];
  const store: CheckpointStore = {
    putBlob: async (hash, data) => {
      calls.push({ method: 'putBlob', hashes: [hash] });
      return inner.putBlob(hash, data);
    },
    getBlob: (hash) => inner.getBlob(hash),
    hasBlob: async (hash) => {
      calls.push({ method: 'hasBlob', hashes: [hash] });
      return inner.hasBlob(hash);
    },
    ...(options.batched
      ? {
          putBlobs: async (blobs: ReadonlyArray<{ hash: string; data: Uint8Array }>) => {
            calls.push({ method: 'putBlobs', hashes: blobs.map((blob) => blob.hash) });
            return inner.putBlobs(blobs);
          },
        }
      : {}),
  };
  return { store, calls };
}

describe('ConversationCheckpointer', () => {
  it('writes a save in one putBlobs call holding only the new blobs, with no read before writing', async () => {
    const { store, calls } = recordingStore({ batched: true });
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] });
    const one = [text('one'), text('two')];
    await checkpointer.save(one, { todos: ['a'] }, 'agent');
    expect(calls.map((call) => [call.method, call.hashes.length])).toEqual([['putBlobs', 4]]); // two messages, the state, the root
    calls.length = 0;
    // One message more, the same state: the message and the root are new, nothing else.
    await checkpointer.save([...one, text('three')], { todos: ['a'] }, 'agent');
    expect(calls.map((call) => [call.method, call.hashes.length])).toEqual([['putBlobs', 2]]);
  });

  it('writes blob by blob, children before the root, where the store has no putBlobs', async () => {
    const { store, calls } = recordingStore({ batched: false });
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] });
    const root = await checkpointer.save([text('one')], {}, 'agent');
    expect(calls.map((call) => call.method)).toEqual(['putBlob', 'putBlob']);
    expect(calls.at(-1)?.hashes).toEqual([root]);
    expect((await loadConversation(store, root)).messages).toEqual([text('one')]);
  });

  it('runs saves one at a time in call order, each with the messages and state it was called with', async () => {
    const store = createMemoryCheckpointStore();
    const moved: string[] = [];
    let release: () => void = () => undefined;
    const firstMoveHeld = new Promise<void>((resolve) => (release = resolve));
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] }, {
      onSave: async (root) => {
        if (moved.length === 0) await firstMoveHeld;
        moved.push(root);
      },
    });
    const messages = [text('one')];
    const state: Record<string, unknown> = { step: 1 };
    const first = checkpointer.save(messages, state, 'agent');
    messages.push(text('two'));
    state.step = 2;
    const second = checkpointer.save(messages, state, 'agent');
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondDone).toBe(false); // waits for the first save's pointer move
    release();
    const [rootOne, rootTwo] = await Promise.all([first, second]);
    expect(moved).toEqual([rootOne, rootTwo]);
    expect(await loadConversation(store, rootOne)).toMatchObject({ messages: [text('one')], state: { step: 1 } });
    expect(await loadConversation(store, rootTwo)).toMatchObject({ messages: [text('one'), text('two')], state: { step: 2 } });
  });

  it('does not move the pointer when the signal is aborted before the move, and rejects with its reason', async () => {
    const store = createMemoryCheckpointStore();
    const moved: string[] = [];
    const controller = new AbortController();
    const checkpointer = new ConversationCheckpointer(
      {
        ...store,
        putBlobs: async (blobs) => {
          await store.putBlobs(blobs);
          // The cancel lands while the blobs are being written.
          controller.abort(new Error('cancelled mid-save'));
        },
      },
      { root: null, messages: [] },
      { onSave: async (root) => void moved.push(root) },
    );
    const kept = await checkpointer.save([text('one')], {}, 'agent');
    await expect(checkpointer.save([text('one'), text('two')], {}, 'agent', { signal: controller.signal })).rejects.toThrow('cancelled mid-save');
    await expect(checkpointer.save([text('one'), text('three')], {}, 'agent', { signal: controller.signal })).rejects.toThrow('cancelled mid-save');
    expect(moved).toEqual([kept]);
    expect(checkpointer.currentRoot).toBe(kept);
    // The next save (the run's final one) still chains from what the agent row points at.
    const final = await checkpointer.save([text('one'), text('four')], {}, 'agent');
    expect(moved).toEqual([kept, final]);
    expect((await loadConversation(store, final)).messages).toEqual([text('one'), text('four')]);
  });

  it('settled() waits for the save in flight and never rejects', async () => {
    const store = createMemoryCheckpointStore();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let moves = 0;
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] }, {
      onSave: async () => {
        await held;
        moves++;
        throw new Error('agent row is gone');
      },
    });
    const save = checkpointer.save([text('one')], {}, 'agent');
    save.catch(() => undefined);
    const settled = checkpointer.settled();
    release();
    await settled;
    expect(moves).toBe(1);
    await expect(save).rejects.toThrow('agent row is gone');
    await expect(checkpointer.settled()).resolves.toBeUndefined();
  });

  it('keeps the root (no write, no pointer move) when nothing changed since the last save', async () => {
    const { store, calls } = recordingStore({ batched: true });
    let moves = 0;
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] }, { onSave: async () => void moves++ });
    const messages = [text('one')];
    const root = await checkpointer.save(messages, { todos: [] }, 'agent');
    calls.length = 0;
    expect(await checkpointer.save([...messages], { todos: [] }, 'agent')).toBe(root);
    expect(calls).toEqual([]);
    expect(moves).toBe(1);
  });

  it('with commit, writes a save in one commit call (new blobs, root last) and never through the checkpoint store', async () => {
    const { store, calls } = recordingStore({ batched: true });
    const commits: Array<{ hashes: string[]; root: string; mode: string }> = [];
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] }, {
      commit: async (blobs, root, mode) => {
        commits.push({ hashes: blobs.map((blob) => blob.hash), root, mode });
        await store.putBlobs?.(blobs);
      },
    });
    const one = [text('one'), text('one')];
    const first = await checkpointer.save(one, { todos: ['a'] }, 'plan');
    expect(commits).toEqual([{ hashes: [expect.any(String), expect.any(String), first], root: first, mode: 'plan' }]); // the message once, the state, the root
    const second = await checkpointer.save([...one, text('two')], { todos: ['a'] }, 'plan');
    expect(commits[1]?.hashes).toHaveLength(2);
    expect(commits[1]?.root).toBe(second);
    expect(calls.map((call) => call.method)).toEqual(['putBlobs', 'putBlobs']); // only the commit's own writes
    expect((await loadConversation(store, second)).messages).toEqual([...one, text('two')]);
    expect(checkpointer.currentRoot).toBe(second);
  });

  it('with commit, a cancel that lands while the save encodes its blobs writes nothing and leaves the pointer', async () => {
    const store = createMemoryCheckpointStore();
    const committed: string[] = [];
    const controller = new AbortController();
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] }, {
      commit: async (blobs, root) => {
        await store.putBlobs(blobs);
        committed.push(root);
      },
    });
    const kept = await checkpointer.save([text('one')], {}, 'agent');
    // Serialising this message cancels the run: after the save started, before anything is written.
    const toJSON = () => {
      controller.abort(new Error('cancelled while encoding'));
      return text('two');
    };
    const cancelling = Object.assign(text('two'), { toJSON }) as ModelMessage;
    await expect(checkpointer.save([text('one'), cancelling], {}, 'agent', { signal: controller.signal })).rejects.toThrow('cancelled while encoding');
    expect(controller.signal.aborted).toBe(true);
    expect(committed).toEqual([kept]);
    expect(checkpointer.currentRoot).toBe(kept);
    expect(await store.hasBlob(await hashBlob(new TextEncoder().encode(JSON.stringify(text('two')))))).toBe(false);
  });

  it('with commit, a failed commit rejects the save and the next one chains from the old root', async () => {
    const store = createMemoryCheckpointStore();
    let fail = true;
    const checkpointer = new ConversationCheckpointer(store, { root: null, messages: [] }, {
      commit: async (blobs) => {
        if (fail) throw new Error('disk full');
        await store.putBlobs(blobs);
      },
    });
    await expect(checkpointer.save([text('one')], {}, 'agent')).rejects.toThrow('disk full');
    expect(checkpointer.currentRoot).toBeNull();
    await expect(checkpointer.settled()).resolves.toBeUndefined();
    fail = false;
    const root = await checkpointer.save([text('one')], {}, 'agent');
    expect((await loadConversation(store, root)).messages).toEqual([text('one')]);
  });

  it('refuses onSave and commit together', () => {
    expect(() => new ConversationCheckpointer(createMemoryCheckpointStore(), { root: null, messages: [] }, { onSave: async () => undefined, commit: async () => undefined })).toThrow(
      /takes onSave or commit, not both/,
    );
  });
});

describe('ConversationCheckpointer with a run log (a step\'s events and run row in its commit)', () => {
  const log = (taken: string[][]) => ({
    runId: 'run-1',
    flush: async () => undefined,
    commitWith: async <T>(write: (events: RunEvent[]) => Promise<T>) => {
      taken.push(['commitWith']);
      return write([]);
    },
  });

  it('commits the run patch with the blobs, and with no blob to the same root when nothing else changed', async () => {
    const taken: string[][] = [];
    const commits: Array<{ blobs: number; root: string; runPatch?: unknown }> = [];
    const checkpointer = new ConversationCheckpointer(createMemoryCheckpointStore(), { root: null, messages: [] }, {
      onSave: async () => undefined,
      commitStep: async (blobs, root, _mode, run) => void commits.push({ blobs: blobs.length, root, ...(run.runPatch ? { runPatch: run.runPatch } : {}) }),
    });
    const messages = [text('one')];
    const root = await checkpointer.save(messages, {}, 'agent', { log: log(taken), runPatch: { updatedAt: 1 } });
    expect(await checkpointer.save(messages, {}, 'agent', { log: log(taken), runPatch: { updatedAt: 2 } })).toBe(root);
    expect(await checkpointer.save(messages, {}, 'agent', { log: log(taken) })).toBe(root);
    expect(commits).toEqual([{ blobs: 2, root, runPatch: { updatedAt: 1 } }, { blobs: 0, root, runPatch: { updatedAt: 2 } }]);
  });

  it('refuses a run patch it could not write in the commit (no log, or a store without commitStep)', async () => {
    const plain = new ConversationCheckpointer(createMemoryCheckpointStore(), { root: null, messages: [] }, { onSave: async () => undefined });
    expect(plain.commitsSteps).toBe(false);
    await expect(plain.save([text('one')], {}, 'agent', { log: log([]), runPatch: { updatedAt: 1 } })).rejects.toThrow(/runPatch needs a log and a store that commits steps/);
  });
});
