import { parentPort } from 'node:worker_threads';
import { chunkFile } from './chunk-file.js';
import type { ChunkRequest, ChunkResponse } from './chunk-workers.js';

// A worker thread of the chunk pool (chunk-workers.ts): the same chunkFile as the main thread, with
// its own web-tree-sitter runtime and grammars.
const port = parentPort;
if (!port) throw new Error('chunk-worker.js runs as a worker thread of @cairn/indexer, not on its own.');
port.on('message', (request: ChunkRequest) => {
  chunkFile(request.path, request.text, request.options).then(
    (chunks) => port.postMessage({ id: request.id, chunks } satisfies ChunkResponse),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ChunkResponse),
  );
});
