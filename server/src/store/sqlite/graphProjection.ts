// Where a window sits in the HNSW graph: its first principal components rather than all of its
// dimensions. The graph only finds candidates; every candidate is re-scored with the exact cosine
// of its stored vector (vectorIndex.ts), so the graph needs directions enough to find the right
// ones, not the vector itself. A graph holds each window's point and links: at 512 dimensions
// 2,196 bytes a window in its file (2.0 GB at 912,229 windows, most of the language server's
// memory at 100,000 notes); at 128 components 660. On USE-lite's windows of a 100,000-note folder
// the first 128 components keep 94% of the variance, and recall@10 was 0.9970 against the full
// graph's 0.9960 (docs/PERFORMANCE.md, "A graph of principal components"; `npm run bench:graphProjection`).
//
// The components are fitted once, on a spread of the model's stored vectors when the graph is
// first built, and saved with the graph: a graph and its projection are never apart.

import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

export interface GraphProjection {
  /** Dimensions of the model's vectors. */
  sourceDims: number;
  /** Components kept: the graph's dimensions. */
  dims: number;
  /** The fitted unit vectors' mean, subtracted before projecting. */
  mean: Float64Array;
  /** The components, `dims` rows of `sourceDims`, row-major. */
  axes: Float64Array;
  /** Share of the fitted vectors' variance the kept components hold (0-1): what the log says. */
  varianceKept: number;
}

/** As a saved graph's manifest holds it: the arrays as base64 of their float64 bytes. */
export interface SavedProjection {
  sourceDims: number;
  dims: number;
  mean: string;
  axes: string;
  varianceKept: number;
}

/** Fewer vectors than this say too little about a model's directions: the graph keeps every dimension. */
export const MIN_FITTED = 1_000;

/** Vectors a projection is fitted on: enough for 512 directions' covariance, ~2 s of one thread. */
export const FITTED = 10_000;

/**
 * The first `dims` principal components of the unit vectors given (at least MIN_FITTED), or null
 * when there are too few or the vectors have no more dimensions than that.
 */
export function fitProjection(vectors: readonly Float32Array[], dims: number): GraphProjection | null {
  const fit = new ProjectionFit(vectors[0]?.length ?? 0);
  fit.add(vectors);
  return fit.components(dims);
}

/**
 * A fit fed in parts, so that a thread answering look-ups can take the vectors a few hundred at a
 * time between them (vectorIndex.ts fits in the background): the unit vectors' sum and the sum of
 * their outer products (upper triangle), from which the covariance follows.
 */
export class ProjectionFit {
  private count = 0;
  private readonly sum: Float64Array;
  /** Row i holds the products with columns i and beyond. */
  private readonly products: Float64Array[];

  constructor(readonly sourceDims: number) {
    this.sum = new Float64Array(sourceDims);
    this.products = Array.from({ length: sourceDims }, () => new Float64Array(sourceDims));
  }

  add(vectors: readonly Float32Array[]): void {
    const { sourceDims, sum, products } = this;
    for (const vector of vectors) {
      if (vector.length !== sourceDims) throw new Error(`a vector of ${vector.length} dimensions given to a fit of ${sourceDims}`);
      const unit = unitOf(vector);
      for (let i = 0; i < sourceDims; i++) {
        const scale = unit[i]!;
        sum[i]! += scale;
        const row = products[i]!;
        for (let j = i; j < sourceDims; j++) row[j]! += scale * unit[j]!;
      }
    }
    this.count += vectors.length;
  }

  /** The first `dims` components of what was added; null with fewer than MIN_FITTED vectors or no more dimensions than `dims`. */
  components(dims: number): GraphProjection | null {
    const { sourceDims, count } = this;
    if (count < MIN_FITTED || dims <= 0 || sourceDims <= dims) return null;
    const mean = this.sum.map((value) => value / count);
    const covariance = new Matrix(sourceDims, sourceDims);
    for (let i = 0; i < sourceDims; i++) {
      for (let j = i; j < sourceDims; j++) {
        const value = this.products[i]![j]! / count - mean[i]! * mean[j]!;
        covariance.set(i, j, value);
        covariance.set(j, i, value);
      }
    }
    const decomposition = new EigenvalueDecomposition(covariance, { assumeSymmetric: true });
    const values = decomposition.realEigenvalues;
    const order = values.map((value, index) => ({ value, index })).sort((a, b) => b.value - a.value || a.index - b.index);
    const total = values.reduce((sum, value) => sum + Math.max(0, value), 0);
    const kept = order.slice(0, dims);
    const axes = new Float64Array(dims * sourceDims);
    const eigenvectors = decomposition.eigenvectorMatrix;
    kept.forEach(({ index }, row) => {
      const axis = eigenvectors.getColumn(index);
      // An eigenvector's sign is arbitrary: fixed so that the same vectors give the same projection.
      const sign = axis.reduce((sum, value) => sum + value, 0) < 0 ? -1 : 1;
      for (let i = 0; i < sourceDims; i++) axes[row * sourceDims + i] = sign * axis[i]!;
    });
    const varianceKept = total > 0 ? kept.reduce((sum, { value }) => sum + Math.max(0, value), 0) / total : 1;
    return { sourceDims, dims, mean, axes, varianceKept };
  }
}

/** A vector's point in the graph: its unit vector, centred, on each component. */
export function project(projection: GraphProjection, vector: Float32Array): number[] {
  const { sourceDims, dims, mean, axes } = projection;
  if (vector.length !== sourceDims) throw new Error(`a vector of ${vector.length} dimensions given to a projection of ${sourceDims}`);
  const unit = unitOf(vector);
  for (let i = 0; i < sourceDims; i++) unit[i]! -= mean[i]!;
  const point = new Array<number>(dims);
  for (let row = 0; row < dims; row++) {
    let sum = 0;
    const offset = row * sourceDims;
    for (let i = 0; i < sourceDims; i++) sum += unit[i]! * axes[offset + i]!;
    point[row] = sum;
  }
  return point;
}

export function saveProjection(projection: GraphProjection): SavedProjection {
  const base64 = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');
  const { sourceDims, dims, varianceKept } = projection;
  return { sourceDims, dims, mean: base64(projection.mean), axes: base64(projection.axes), varianceKept };
}

/** The projection a manifest holds, or why it cannot be used. */
export function readProjection(saved: SavedProjection, sourceDims: number): GraphProjection | string {
  const floats = (text: unknown, length: number): Float64Array | null => {
    if (typeof text !== 'string') return null;
    const bytes = Buffer.from(text, 'base64');
    if (bytes.byteLength !== length * 8) return null;
    const values = new Float64Array(length);
    Buffer.from(values.buffer).set(bytes);
    return values.every(Number.isFinite) ? values : null;
  };
  if (saved.sourceDims !== sourceDims || !Number.isInteger(saved.dims) || saved.dims <= 0 || saved.dims >= sourceDims) return 'its projection does not fit the model';
  const mean = floats(saved.mean, sourceDims);
  const axes = floats(saved.axes, saved.dims * sourceDims);
  if (!mean || !axes) return 'its projection is damaged';
  return { sourceDims, dims: saved.dims, mean, axes, varianceKept: Number(saved.varianceKept) || 0 };
}

function unitOf(vector: Float32Array): Float64Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const unit = new Float64Array(vector.length);
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i]! * scale;
  return unit;
}
