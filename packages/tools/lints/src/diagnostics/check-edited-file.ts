import { TextDecoder } from 'node:util';
import type { FileDiagnosticsReport } from './format-edit-diagnostics.js';
import { splitIntroduced } from './introduced.js';
import type { ServerEntry } from './server-pool.js';

export interface EditedFile {
  /** Relative to the workspace root, for messages. */
  path: string;
  absolute: string;
  before: Uint8Array | null;
  after: Uint8Array;
  server: string;
}

const decoder = new TextDecoder('utf-8');

/**
 * The diagnostics one edit introduced in one file: the server's diagnostics of the text before
 * (the last answer when the server already has that text open, nothing for a new file) and of the
 * text after, compared (introduced.ts). Both are diagnostics of exactly those versions. When
 * `deadline` ends first, the report says the server is still starting or did not answer in time.
 */
export async function checkEditedFile(entry: ServerEntry, file: EditedFile, deadline: AbortSignal): Promise<FileDiagnosticsReport> {
  const { path, server: name } = file;
  const late = (): FileDiagnosticsReport => ({ path, server: name, status: entry.state === 'starting' ? 'starting' : entry.state === 'failed' ? 'failed' : 'timeout', ...(entry.failure ? { reason: entry.failure } : {}) });
  try {
    const server = await untilDeadline(entry.started, deadline);
    const beforeText = file.before === null ? undefined : decoder.decode(file.before);
    const afterText = decoder.decode(file.after);
    const before = beforeText === undefined ? [] : (server.cached(file.absolute, beforeText) ?? (await untilDeadline(server.diagnose(file.absolute, beforeText, deadline), deadline)));
    const after = await untilDeadline(server.diagnose(file.absolute, afterText, deadline), deadline);
    return { path, server: name, status: 'checked', ...splitIntroduced(before, after, beforeText ?? '', afterText) };
  } catch (error) {
    if (deadline.aborted || entry.state === 'failed') return late();
    return { path, server: name, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

/** `promise`, or a rejection as soon as `deadline` aborts (the work itself goes on in the server's queue). */
function untilDeadline<T>(promise: Promise<T>, deadline: AbortSignal): Promise<T> {
  if (deadline.aborted) return Promise.reject(deadline.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(deadline.reason);
    deadline.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        deadline.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        deadline.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
