import { CairnError } from '@cairn/core';

export function notFoundError(kind: 'agent' | 'run', id: string): CairnError {
  return new CairnError(`No ${kind} with id "${id}" in the store.`, { code: 'not_found' });
}

export function alreadyExistsError(kind: 'run', id: string): CairnError {
  return new CairnError(`A ${kind} with id "${id}" already exists in the store; use update() to change it.`, { code: 'already_exists' });
}

export function invalidArgumentError(message: string): CairnError {
  return new CairnError(message, { code: 'invalid_argument' });
}

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
