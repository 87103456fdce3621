import { invalidArgumentError } from './store-errors.js';

/**
 * The key of a checkpoint blob: the SHA-256 of its bytes as lowercase hex. Uses Web Crypto
 * (`crypto.subtle`, global in Node 20 and browsers) so core's root entry stays free of node:crypto.
 */
export async function hashBlob(data: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>);
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const blobHashPattern = /^[0-9a-f]{64}$/;

export function isBlobHash(value: string): boolean {
  return blobHashPattern.test(value);
}

/** Stores check the key's shape (not the bytes: callers hash with `hashBlob`) before writing. */
export function assertBlobHash(hash: string): void {
  if (!isBlobHash(hash)) {
    throw invalidArgumentError(`Invalid blob hash "${hash}": expected 64 lowercase hex characters (SHA-256, see hashBlob).`);
  }
}
