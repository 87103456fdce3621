import { parentPort, workerData } from 'node:worker_threads';
import { type TreeCheckData, workerCompare } from './parallel-tree-check.js';
import { decodeScanState } from './scan-state.js';

// The worker thread of parallel-tree-check.ts: decodes the scan state it was given, compares the
// folders it claims with the tree, and says when it has left its last claim.
workerCompare(workerData as TreeCheckData, (blob) => decodeScanState(blob));
parentPort?.postMessage('done');
