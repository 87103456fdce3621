import { CairnError } from '@cairn/core';

export { alreadyExistsError, invalidArgumentError, notFoundError } from '@cairn/core';

export function storeLockedError(dir: string, holder: string): CairnError {
  return new CairnError(
    `The JSONL store in ${dir} is open in ${holder}. A JSONL store has one writer at a time: close it there, ` +
      'or use @cairn/store-sqlite for stores shared by several processes.',
    { code: 'store_locked', isRetryable: true },
  );
}

export function storeClosedError(dir: string): CairnError {
  return new CairnError(`The JSONL store in ${dir} is closed; create a new one to reopen it.`, { code: 'store_closed' });
}
