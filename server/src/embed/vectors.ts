// Vector arithmetic every embedder needs. The contract promises unit vectors, and a model's own
// normalisation is float32 and approximate (USE-lite's rows come out within ~2e-7 of 1), so each
// embedder normalises again here rather than trusting it.

/** Scales each `dims`-long row of `flat` to unit length in place; a zero row stays zero. */
export function normalizeRows(flat: Float32Array, dims: number): void {
  if (flat.length % dims !== 0) throw new RangeError(`${flat.length} floats are not rows of ${dims}`);
  for (let start = 0; start < flat.length; start += dims) {
    let sum = 0;
    for (let i = start; i < start + dims; i++) sum += flat[i]! * flat[i]!;
    if (sum === 0) continue;
    const scale = 1 / Math.sqrt(sum);
    for (let i = start; i < start + dims; i++) flat[i]! *= scale;
  }
}

/** Cosine of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vectors of ${a.length} and ${b.length} dims`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
