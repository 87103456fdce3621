import { invalidArgumentError } from './store-errors.js';

/** The sort key of a listed record: newest first by `createdAt`, ties broken by id (descending). */
export type ListSortKey = readonly [createdAt: number, id: string];

export const defaultListLimit = 50;
export const maxListLimit = 1000;

/**
 * The cursor is opaque to callers: base64url of the JSON sort key of the last item on the page.
 * The next page starts strictly after that key, so records inserted between two page reads never
 * cause duplicates or gaps among the records that existed when the first page was read.
 */
export function encodeListCursor(key: ListSortKey): string {
  return base64UrlEncode(JSON.stringify([key[0], key[1]]));
}

export function decodeListCursor(cursor: string): ListSortKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(base64UrlDecode(cursor));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'number' || typeof parsed[1] !== 'string') {
    throw invalidArgumentError('Invalid list cursor: pass the nextCursor of a previous page unchanged.');
  }
  return [parsed[0], parsed[1]];
}

/** Validates `limit`: a positive integer, capped at `maxListLimit`; `defaultListLimit` when absent. */
export function normalizeListLimit(limit: number | undefined): number {
  if (limit === undefined) return defaultListLimit;
  if (!Number.isInteger(limit) || limit < 1) {
    throw invalidArgumentError(`Invalid list limit ${String(limit)}: use a positive integer.`);
  }
  return Math.min(limit, maxListLimit);
}

/** Compares two sort keys in list order (newest first): negative when `left` comes first. */
export function compareListKeys(left: ListSortKey, right: ListSortKey): number {
  if (left[0] !== right[0]) return right[0] - left[0];
  if (left[1] === right[1]) return 0;
  return left[1] > right[1] ? -1 : 1;
}

// TextEncoder + btoa work in Node 20 and browsers alike (core's root entry avoids node:buffer).
function base64UrlEncode(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function base64UrlDecode(encoded: string): string {
  const binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
