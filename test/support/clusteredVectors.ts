// Seeded vectors shaped like a workspace's window embeddings, for vector-index tests and the
// benchmark. Uniform random vectors are the easy case for an approximate index (every point is
// about equally far from every other); real embeddings are clustered: windows of one document sit
// close together, documents on one topic less so, and everything shares a common direction. The
// mix below gives cosines like USE-lite's (same document ~0.65, same topic ~0.35, unrelated ~0.08).

import { seededRandom } from './generateCorpus.ts';

const SHARED = 0.08;
const TOPIC = 0.27;
const DOCUMENT = 0.3;
const NOISE = 0.35;

export interface ClusteredVectors {
  /** One vector per window, documents in order (1 to 2 × windowsPerDocument - 1 windows each). */
  vectors: Float32Array[];
  /** The document each vector belongs to. */
  documentOf: number[];
  /** A query near a random document, as a search for its subject would be. */
  query(): Float32Array;
}

export function clusteredVectors(options: { count: number; dims: number; seed: number; windowsPerDocument?: number }): ClusteredVectors {
  const { count, dims, seed } = options;
  const windowsPerDocument = options.windowsPerDocument ?? 20;
  const random = seededRandom(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const length = (values: ArrayLike<number>) => {
    let sum = 0;
    for (let i = 0; i < values.length; i += 1) sum += values[i]! * values[i]!;
    return Math.sqrt(sum);
  };
  const direction = () => {
    const values = Float64Array.from({ length: dims }, gaussian);
    const norm = length(values);
    return values.map((value) => value / norm);
  };
  const mix = (parts: [Float64Array, number][]) => {
    const out = new Float64Array(dims);
    for (const [part, share] of parts) {
      const weight = Math.sqrt(share);
      for (let i = 0; i < dims; i += 1) out[i]! += weight * part[i]!;
    }
    const norm = length(out);
    return Float32Array.from(out, (value) => value / norm);
  };
  const shared = direction();
  const lengths: number[] = [];
  for (let total = 0; total < count; ) {
    const length = Math.min(count - total, 1 + Math.floor(random() * (2 * windowsPerDocument - 1)));
    lengths.push(length);
    total += length;
  }
  const documents = lengths.length;
  const topics = Array.from({ length: Math.max(2, Math.round(Math.sqrt(documents) * 2)) }, direction);
  const documentTopic: Float64Array[] = [];
  const documentDirection: Float64Array[] = [];
  for (let document = 0; document < documents; document += 1) {
    documentTopic.push(topics[Math.floor(random() * topics.length)]!);
    documentDirection.push(direction());
  }
  const window = (document: number) =>
    mix([[shared, SHARED], [documentTopic[document]!, TOPIC], [documentDirection[document]!, DOCUMENT], [direction(), NOISE]]);
  const vectors: Float32Array[] = [];
  const documentOf: number[] = [];
  lengths.forEach((length, document) => {
    for (let n = 0; n < length; n += 1) {
      vectors.push(window(document));
      documentOf.push(document);
    }
  });
  return { vectors, documentOf, query: () => window(Math.floor(random() * documents)) };
}
