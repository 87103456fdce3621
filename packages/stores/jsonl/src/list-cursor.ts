import { invalidArgumentError } from './store-errors.js';

/** The sort key of a listed row: newest first by created_at, ties by id descending. */
export type ListSortKey = readonly [createdAt: number, id: string];

const defaultListLimit = 50;
const maxListLimit = 1000;

/** Opaque to callers: base64url of the JSON sort key of the last row on the page. */
export function encodeListCursor(key: ListSortKey): string {
  return Buffer.from(JSON.stringify([key[0], key[1]]), 'utf8').toString('base64url');
}

export function decodeListCursor(cursor: string): ListSortKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'number' || typeof parsed[1] !== 'string') {
    throw invalidArgumentError('Invalid list cursor: pass the nextCursor of a previous page unchanged.');
  }
  return [parsed[0], parsed[1]];
}

export function normalizeListLimit(limit: number | undefined): number {
  if (limit === undefined) return defaultListLimit;
  if (!Number.isInteger(limit) || limit < 1) throw invalidArgumentError(`Invalid list limit ${String(limit)}: use a positive integer.`);
  return Math.min(limit, maxListLimit);
}
