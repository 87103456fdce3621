// Background Cairn agents: runs queued on PostgreSQL with graphile-worker and executed by workers on
// any machine sharing the store. docs/workers-internals.md.
export { createRunQueue, type RunQueue, type RunQueueOptions } from './run-queue.js';
export { startWorker, type Worker } from './worker.js';
export type { StartWorkerOptions } from './worker-options.js';
export type { OpenAgent, QueuedAgent } from './run-task.js';
export type { WorkerLogger } from './logger.js';
export { GitWorkspaceError } from './git-workspace.js';
export { defaultGraphileSchema, type RunJobPayload, runTask } from './queue-names.js';
