import { createHash } from 'node:crypto';

export function contentHash(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Root of a content-hash (Merkle) tree over the indexed files: each folder hashes its children's
 * names and hashes, so the root changes exactly when some file's content, name or presence does.
 * `folderHashes` lets callers compare sub-trees (`''` is the root).
 */
export function merkleTree(files: Iterable<{ path: string; hash: string }>): { root: string; folderHashes: Map<string, string> } {
  const children = new Map<string, Map<string, string>>();
  const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const ensure = (folder: string) => {
    let entries = children.get(folder);
    if (!entries) {
      entries = new Map();
      children.set(folder, entries);
      if (folder !== '') ensure(folderOf(folder));
    }
    return entries;
  };
  ensure('');
  for (const file of files) ensure(folderOf(file.path)).set(file.path, `f:${file.hash}`);
  const folderHashes = new Map<string, string>();
  // Deepest folders first, so a parent sees its sub-folders' hashes.
  const depth = (folder: string) => (folder === '' ? 0 : folder.split('/').length);
  const folders = [...children.keys()].sort((left, right) => depth(right) - depth(left) || (left < right ? -1 : 1));
  for (const folder of folders) {
    const entries = children.get(folder) ?? new Map<string, string>();
    const hash = createHash('sha256');
    for (const name of [...entries.keys()].sort()) hash.update(`${name}\0${entries.get(name)}\n`);
    const digest = hash.digest('hex');
    folderHashes.set(folder, digest);
    if (folder !== '') ensure(folderOf(folder)).set(folder, `d:${digest}`);
  }
  return { root: folderHashes.get('') ?? '', folderHashes };
}
