import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ScanState } from './scan-state.js';
import { compareFolder, firstFileOfFolders, ignoreFilesMatch, maxEditedFiles, type TreeDiff } from './tree-check.js';

/**
 * The tree comparison of tree-check.ts shared by two threads, so that `cairn search` can run its
 * query while the tree is checked: a worker thread starts on the folders at once, the calling thread
 * runs the query and then joins in. Each side claims a few folders at a time from one shared
 * counter, so the work splits by who is free — if the worker is slow to start (a loaded machine),
 * the calling thread simply checks more folders, and the verdict never waits for a worker's start-up.
 */

// The shared cells: the next unclaimed folder; 1 once a structural difference was found; workers
// inside their claim loop; folders the worker compared; files found edited in place (then their indexes).
const nextFolder = 0;
const structureDiffers = 1;
const activeWorkers = 2;
const comparedByWorker = 3;
const editedCount = 4;
const firstEdit = 5;
const foldersPerClaim = 8;

/**
 * Whether a second thread can help: only when a core is idle. A worker's start-up costs 25-30 ms of
 * CPU and, cold, it compares a folder more slowly than the calling thread; on a busy machine the two
 * threads only slow each other (`cairn search` on a 1M-line tree at load 4.5 on 2 cores: 765 ms
 * with the worker, 538 ms without). The 1-minute load average is the cheap signal.
 */
export function spareCore(): boolean {
  const cores = availableParallelism();
  return cores > 1 && (loadavg()[0] ?? cores) <= cores - 1;
}

export interface TreeCheckData {
  root: string;
  /** The scan state as stored (decoded by the worker itself, while the calling thread queries). */
  blob: Uint8Array;
  cells: Int32Array;
}

/** Compare claimed folders until none is left or the structure differs (found by either thread). */
export function compareClaimedFolders(root: string, state: ScanState, cells: Int32Array, firstFiles = firstFileOfFolders(state), byWorker = false): void {
  const onEdited = (file: number) => {
    const slot = Atomics.add(cells, editedCount, 1);
    if (slot >= maxEditedFiles) return false;
    Atomics.store(cells, firstEdit + slot, file);
    return true;
  };
  while (Atomics.load(cells, structureDiffers) === 0) {
    const start = Atomics.add(cells, nextFolder, foldersPerClaim);
    if (start >= state.folders.length) return;
    const end = Math.min(start + foldersPerClaim, state.folders.length);
    for (let folder = start; folder < end; folder++) {
      if (!compareFolder(root, state, folder, firstFiles[folder] as number, onEdited)) {
        Atomics.store(cells, structureDiffers, 1);
        return;
      }
    }
    if (byWorker) Atomics.add(cells, comparedByWorker, end - start);
  }
}

/** The worker thread's side (tree-check-worker.ts): mark itself active, compare, leave. */
export function workerCompare(data: TreeCheckData, decode: (blob: Buffer) => ScanState | undefined): void {
  Atomics.add(data.cells, activeWorkers, 1);
  try {
    const state = decode(Buffer.from(data.blob.buffer, data.blob.byteOffset, data.blob.byteLength));
    // The calling thread decoded the same bytes; it only starts a worker for a state it could read.
    if (state) compareClaimedFolders(data.root, state, data.cells, undefined, true);
  } finally {
    Atomics.sub(data.cells, activeWorkers, 1);
  }
}

export interface TreeCheck {
  /** Join the comparison on this thread and wait for the worker's last claim: how the tree differs. */
  result(): Promise<TreeDiff>;
  /** Folders the worker thread compared (for tests and benchmarks). */
  readonly foldersComparedByWorker: number;
  /** Settles when the worker has left its claim loop ('done'), died, or there is none ('done'). */
  readonly workerFinished: Promise<'done' | 'died'>;
  /** Stop the worker (when the caller gives up before `result`, e.g. its query failed). */
  cancel(): void;
}

/**
 * Start comparing the tree with `state` on a worker thread (none when `workerUrl` is undefined:
 * the whole comparison then runs in `result`). The worker is unref'd: it never keeps a process alive.
 */
export function startTreeCheck(root: string, blob: Uint8Array, state: ScanState, workerUrl: URL | undefined): TreeCheck {
  const cells = new Int32Array(new SharedArrayBuffer((firstEdit + maxEditedFiles) * Int32Array.BYTES_PER_ELEMENT));
  const worker = workerUrl ? new Worker(workerUrl, { workerData: { root, blob, cells } satisfies TreeCheckData }) : undefined;
  // Settles when the worker has left its claim loop, or died (then what it claimed is unknown).
  const finished = new Promise<'done' | 'died'>((resolve) => {
    if (!worker) return resolve('done');
    worker.unref();
    worker.once('message', () => resolve('done'));
    worker.once('error', () => resolve('died'));
    worker.once('exit', () => resolve('died'));
  });
  const stop = () => void worker?.terminate();
  const structure: TreeDiff = { kind: 'structure' };
  return {
    get foldersComparedByWorker() {
      return Atomics.load(cells, comparedByWorker);
    },
    workerFinished: finished,
    cancel: stop,
    async result() {
      try {
        if (!ignoreFilesMatch(root, state)) return structure;
        compareClaimedFolders(root, state, cells);
        if (Atomics.load(cells, structureDiffers) !== 0) return structure;
        // Every folder is claimed; the worker may still be inside its last claim.
        if (Atomics.load(cells, activeWorkers) !== 0 && (await finished) === 'died') return structure;
        if (Atomics.load(cells, structureDiffers) !== 0) return structure;
        const edited = Atomics.load(cells, editedCount);
        if (edited > maxEditedFiles) return structure;
        return edited === 0 ? { kind: 'same' } : { kind: 'edited', files: Array.from(cells.subarray(firstEdit, firstEdit + edited)) };
      } finally {
        stop();
      }
    },
  };
}
