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
  return comparedCosine(comparedWindows(a), comparedWindows(b));
}

/**
 * The windows of an item that itemCosine compares, each scaled to length 1: for an item compared
 * with many others (a baseline's sample), prepared once rather than once per pair.
 */
export function comparedWindows(vectors: readonly Float32Array[]): Float32Array[] {
  return spreadOver(vectors, WINDOWS_COMPARED).map(unit);
}

/** itemCosine of two items' comparedWindows, neither empty. */
export function comparedCosine(x: readonly Float32Array[], y: readonly Float32Array[]): number {
  const bestForY = new Float64Array(y.length).fill(-Infinity);
  let sumForX = 0;
  for (const u of x) {
    let best = -Infinity;
    for (let j = 0; j < y.length; j++) {
      const similarity = dot(u, y[j]!);
      if (similarity > best) best = similarity;
      if (similarity > bestForY[j]!) bestForY[j] = similarity;
    }
    sumForX += best;
  }
  let sumForY = 0;
  for (const best of bestForY) sumForY += best;
  return (sumForX / x.length + sumForY / y.length) / 2;
}

/** Up to `limit` values spread evenly, so a long item is represented end to end. */
export function spreadOver<T>(values: readonly T[], limit: number): T[] {
  if (values.length <= limit) return [...values];
  return Array.from({ length: limit }, (_, index) => values[Math.floor((index * values.length) / limit)]!);
}

/**
 * Each window scaled to length 1 once, remembered for as long as its vector is: an item meets
 * dozens of others in one discovery, and the cosine is then a plain dot product. A zero vector
 * stays zero (its cosine with anything is 0).
 */
const units = new WeakMap<Float32Array, Float32Array>();

function unit(vector: Float32Array): Float32Array {
  const known = units.get(vector);
  if (known) return known;
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  const scaled = norm === 0 ? vector : vector.map((value) => value / Math.sqrt(norm));
  units.set(vector, scaled);
  return scaled;
}

function dot(x: Float32Array, y: Float32Array): number {
  let total = 0;
  for (let i = 0; i < x.length; i++) total += x[i]! * y[i]!;
  return total;
}
