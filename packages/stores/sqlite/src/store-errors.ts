import { CairnError } from '@cairn/core';

export { alreadyExistsError, invalidArgumentError, notFoundError } from '@cairn/core';

/** The file is not a Cairn SQLite store, or it is damaged. It is never written to. */
export function corruptStoreError(path: string, detail: string, cause?: unknown): CairnError {
  return new CairnError(
    `The Cairn store at ${path} cannot be read: ${detail}. It was not modified. ` +
      'Move it aside (or restore a backup) and Cairn will create a new store at this path.',
    { code: 'store_corrupt', cause },
  );
}

export function newerSchemaError(path: string, found: number, supported: number): CairnError {
  return new CairnError(
    `The Cairn store at ${path} has schema version ${found}, written by a newer @cairn/store-sqlite ` +
      `(this one supports up to version ${supported}). It was not modified. Upgrade @cairn/store-sqlite to open it.`,
    { code: 'store_version_unsupported' },
  );
}

export function busyError(path: string, cause: unknown): CairnError {
  return new CairnError(
    `The Cairn store at ${path} stayed locked by another process after several retries. Try again shortly.`,
    { code: 'store_busy', isRetryable: true, cause },
  );
}

/** A limit of the event-log layout (schema version 3): 2^31 - 1 runs with events per file, 2^32 - 1 events per run. */
export function logLimitError(path: string, detail: string): CairnError {
  return new CairnError(`The Cairn store at ${path} cannot take this append: ${detail}. Start a new store file for new agents.`, { code: 'store_full' });
}
