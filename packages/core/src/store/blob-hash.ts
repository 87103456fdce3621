import { invalidArgumentError } from './store-errors.js';

type NodeCrypto = { createHash(algorithm: string): { update(data: Uint8Array): { digest(encoding: 'hex'): string } } };

// Node's hash runs synchronously in a few microseconds; Web Crypto's `digest` goes through a
// thread-pool job per call, which dominated the per-step cost of the runtime. `getBuiltinModule`
// keeps node:crypto out of the module graph, so browsers and edge runtimes still load this file.
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

/**
 * The key of a checkpoint blob: the SHA-256 of its bytes as lowercase hex. Uses node:crypto where
 * the runtime has it, Web Crypto (`crypto.subtle`) elsewhere.
 */
export async function hashBlob(data: Uint8Array): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHash('sha256').update(data).digest('hex');
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

/** Store bytes under their hash (once: blobs are never rewritten) and return the hash. */
export async function storeBlob(store: { hasBlob(hash: string): Promise<boolean>; putBlob(hash: string, data: Uint8Array): Promise<void> }, bytes: Uint8Array): Promise<string> {
  const hash = await hashBlob(bytes);
  if (!(await store.hasBlob(hash))) await store.putBlob(hash, bytes);
  return hash;
}
