import type { AgentStore } from '@cairn/core';

const decoder = new TextDecoder();

/** Walk a checkpoint root chain as stored (format v1: parent, append) and count the blobs it references. */
export async function loadConversationForTest(store: AgentStore, root: string | null): Promise<{ roots: number; blobs: number }> {
  let roots = 0;
  const blobs = new Set<string>();
  for (let hash = root; hash; ) {
    const bytes = await store.checkpoints.getBlob(hash);
    if (!bytes) throw new Error(`missing root ${hash}`);
    const node = JSON.parse(decoder.decode(bytes)) as { parent: string | null; append: string[]; state: string | null };
    roots++;
    blobs.add(hash);
    for (const message of node.append) blobs.add(message);
    if (node.state) blobs.add(node.state);
    hash = node.parent;
  }
  return { roots, blobs: blobs.size };
}
