import { CairnError } from '../spec/errors/cairn-error.js';

// Stores report caller mistakes and missing records as CairnErrors with stable codes, so callers
// (and every backend's conformance run) can branch on `code` instead of on message text.

export function notFoundError(kind: 'agent' | 'run', id: string): CairnError {
  return new CairnError(`No ${kind} with id "${id}" in the store.`, { code: 'not_found' });
}

export function alreadyExistsError(kind: 'run', id: string): CairnError {
  return new CairnError(`A ${kind} with id "${id}" already exists in the store; use update() to change it.`, {
    code: 'already_exists',
  });
}

export function invalidArgumentError(message: string): CairnError {
  return new CairnError(message, { code: 'invalid_argument' });
}
