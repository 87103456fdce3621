import { describe, expect, it } from 'vitest';
import { merkleTree } from './hashing.js';
import { reciprocalRankFusion } from './rank-fusion.js';

describe('reciprocalRankFusion', () => {
  it('ranks items found high by both lists first', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'c'], ['b', 'c', 'd']]);
    expect(fused.map((item) => item.id)).toEqual(['b', 'c', 'a', 'd']);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 1 / 61);
    expect(fused.find((item) => item.id === 'd')?.score).toBeCloseTo(1 / 63);
  });

  it('keeps a single list in its order', () => {
    expect(reciprocalRankFusion([[3, 1, 2]]).map((item) => item.id)).toEqual([3, 1, 2]);
  });
});

describe('merkleTree', () => {
  it('changes the root and only the folders above a changed file', () => {
    const before = merkleTree([{ path: 'a/x.ts', hash: '1' }, { path: 'b/y.ts', hash: '2' }, { path: 'top.md', hash: '3' }]);
    const after = merkleTree([{ path: 'a/x.ts', hash: '1' }, { path: 'b/y.ts', hash: 'changed' }, { path: 'top.md', hash: '3' }]);
    expect(after.root).not.toBe(before.root);
    expect(after.folderHashes.get('a')).toBe(before.folderHashes.get('a'));
    expect(after.folderHashes.get('b')).not.toBe(before.folderHashes.get('b'));
    const renamed = merkleTree([{ path: 'a/z.ts', hash: '1' }, { path: 'b/y.ts', hash: '2' }, { path: 'top.md', hash: '3' }]);
    expect(renamed.root).not.toBe(before.root);
    expect(merkleTree([{ path: 'top.md', hash: '3' }, { path: 'b/y.ts', hash: '2' }, { path: 'a/x.ts', hash: '1' }]).root).toBe(before.root);
  });
});
