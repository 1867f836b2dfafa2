// How alike two items are as wholes, from their passages' vectors: the similarity discovery and
// Related weigh, and the one each item's folder baseline is measured in (folderSimilarity.ts).

/** Windows per item compared for similarity, spread over the item, so a long item costs a bounded amount. */
const WINDOWS_COMPARED = 32;

/**
 * How alike two items are as wholes: for each window of one, its closest window in the other,
 * averaged, in both directions. A near-copy scores close to 1; two reports written from one
 * template about different events match on their boilerplate and little else, so they score
 * far lower than their single best pair of windows (the header table) or their mean vectors
 * (the shared house style) would suggest.
 */
export function itemCosine(a: readonly Float32Array[], b: readonly Float32Array[]): number | null {
  if (a.length === 0 || b.length === 0) return null;
  const x = spreadOver(a, WINDOWS_COMPARED);
  const y = spreadOver(b, WINDOWS_COMPARED);
  const similarities = x.map((u) => y.map((v) => cosine(u, v)));
  const bestForX = similarities.map((row) => Math.max(...row));
  const bestForY = y.map((_, j) => Math.max(...similarities.map((row) => row[j]!)));
  const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / values.length;
  return (mean(bestForX) + mean(bestForY)) / 2;
}

/** Up to `limit` values spread evenly, so a long item is represented end to end. */
export function spreadOver<T>(values: readonly T[], limit: number): T[] {
  if (values.length <= limit) return [...values];
  return Array.from({ length: limit }, (_, index) => values[Math.floor((index * values.length) / limit)]!);
}

function cosine(x: Float32Array, y: Float32Array): number {
  let dot = 0;
  let nx = 0;
  let ny = 0;
  for (let i = 0; i < x.length; i++) {
    dot += x[i]! * y[i]!;
    nx += x[i]! * x[i]!;
    ny += y[i]! * y[i]!;
  }
  return nx === 0 || ny === 0 ? 0 : dot / Math.sqrt(nx * ny);
}
