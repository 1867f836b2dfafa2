// "Did you mean": the names a mistyped word was probably meant to be. Typing slips are one
// letter dropped, doubled, wrong or two swapped ("serach"), so the distance counts a swap of
// neighbours as one edit (Damerau-Levenshtein, optimal string alignment). No package in
// package.json provides it (leven, present only as a dependency of a dependency, counts a swap
// as two), and it is a few lines.

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidates nearest to `typed` (ignoring case), when near enough to be a slip: one edit per
 * three letters of the candidate (always at least one edit). Several at the same distance are all
 * returned, in the order given; none when nothing is close.
 */
export function closestNames(typed: string, candidates: readonly string[]): string[] {
  const word = typed.toLowerCase();
  let best = Infinity;
  let nearest: string[] = [];
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance > Math.max(1, Math.floor(candidate.length / 3))) continue;
    if (distance < best) [best, nearest] = [distance, [candidate]];
    else if (distance === best && !nearest.includes(candidate)) nearest.push(candidate);
  }
  return nearest;
}

/** "; did you mean --limit?" or "; did you mean confirm or reject?", or nothing; `show` writes a name as typed. */
export function didYouMean(typed: string, candidates: readonly string[], show: (name: string) => string = (name) => name): string {
  const nearest = closestNames(typed, candidates).map(show);
  if (nearest.length === 0) return '';
  const listed = nearest.length === 1 ? nearest[0] : `${nearest.slice(0, -1).join(', ')} or ${nearest.at(-1)}`;
  return `; did you mean ${listed}?`;
}
