/**
 * Reciprocal rank fusion (Cormack et al. 2009): each list contributes 1 / (k + rank) for every
 * item it holds, so items ranked well by both BM25 and vectors rise without comparing the two
 * incomparable score scales. Returns ids by fused score, best first.
 */
export function reciprocalRankFusion<Id>(lists: Id[][], k = 60): Array<{ id: Id; score: number }> {
  const scores = new Map<Id, number>();
  for (const list of lists) {
    list.forEach((id, index) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1));
    });
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((left, right) => right.score - left.score);
}
