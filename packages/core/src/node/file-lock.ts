/**
 * Serialise changes to one file within this process. Independent tool calls of one model turn run
 * in parallel; two edits of the same file would otherwise both start from the old content and the
 * second write would silently drop the first edit.
 */
const tails = new Map<string, Promise<unknown>>();

export async function withFileLock<T>(absolutePath: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(absolutePath) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(work);
  const tail = current.catch(() => undefined);
  tails.set(absolutePath, tail);
  try {
    return await current;
  } finally {
    // Forget the path once nothing else queued behind this call.
    if (tails.get(absolutePath) === tail) tails.delete(absolutePath);
  }
}
