/** Edit distance (insertions, deletions, substitutions), for "did you mean" suggestions. */
export function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length]!;
}

/**
 * The candidates closest to a mistyped name, best first: small edit distances (a third of the
 * name's length at most, so "gpt5.2" finds "gpt-5.2" but "x" finds nothing) and candidates that
 * contain the name or are contained in it ("sonnet" finds "claude-sonnet-4-5").
 */
export function closeMatches(name: string, candidates: Iterable<string>, limit = 5): string[] {
  const wanted = name.toLowerCase();
  const scored: Array<{ candidate: string; score: number }> = [];
  for (const candidate of new Set(candidates)) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    const contains = wanted.length >= 3 && (lower.includes(wanted) || (lower.length >= 4 && wanted.includes(lower)));
    if (distance <= Math.max(1, Math.floor(wanted.length / 3))) scored.push({ candidate, score: distance });
    else if (contains) scored.push({ candidate, score: wanted.length + Math.abs(lower.length - wanted.length) });
  }
  // A stable sort keeps the candidates' order between equal scores.
  return scored.sort((left, right) => left.score - right.score).slice(0, limit).map(({ candidate }) => candidate);
}
