// From a transformer's per-token output to one unit vector per passage, as sentence-transformers
// does it: average the token vectors the attention mask marks as real (padding must not pull a
// short passage towards the pad embedding), or, for models trained that way, take the first
// ([CLS]) token's vector; then scale to length 1 so that a dot product is the cosine.

/** Mean of each row's masked token vectors; `hidden` is [batch, tokens, dims] row-major, `mask` [batch, tokens]. */
export function maskedMeanPool(hidden: Float32Array, shape: readonly [number, number, number], mask: Uint8Array): Float32Array[] {
  const [batch, tokens, dims] = shape;
  const vectors: Float32Array[] = [];
  for (let row = 0; row < batch; row += 1) {
    const sum = new Float64Array(dims);
    let counted = 0;
    for (let token = 0; token < tokens; token += 1) {
      if (!mask[row * tokens + token]) continue;
      counted += 1;
      const offset = (row * tokens + token) * dims;
      for (let d = 0; d < dims; d += 1) sum[d]! += hidden[offset + d]!;
    }
    // sentence-transformers clamps the count to avoid 0/0 on an all-padding row; so do we.
    const divisor = Math.max(counted, 1e-9);
    vectors.push(Float32Array.from(sum, (value) => value / divisor));
  }
  return vectors;
}

/** Each row's first token vector ([CLS] in BERT-style inputs); `hidden` is [batch, tokens, dims] row-major. */
export function firstTokenPool(hidden: Float32Array, shape: readonly [number, number, number]): Float32Array[] {
  const [batch, tokens, dims] = shape;
  return Array.from({ length: batch }, (_, row) => hidden.slice(row * tokens * dims, row * tokens * dims + dims));
}

/** Scales `vector` in place to unit length (a zero vector stays zero). */
export function normalise(vector: Float32Array): Float32Array {
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares);
  if (norm > 0) for (let d = 0; d < vector.length; d += 1) vector[d]! /= norm;
  return vector;
}
