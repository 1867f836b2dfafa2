// Five of TF.js's WASM kernels replaced for USE-lite's graph, where they cost more than their
// arithmetic (measured by kernel in docs/EMBEDDINGS.md, "Where the time per window goes"):
//   - BatchMatMul: the backend sends a product to XNNPACK only when it is a single product with
//     neither side transposed; anything else goes to a scalar triple loop ~10 times slower per
//     multiply-add. The attention products are exactly that case (per text and head, Q·Kᵀ and
//     weights·V), a third of the graph's time. Here each product of the batch goes through the
//     backend's own XNNPACK path, the right side transposed once first when asked. Same
//     products, summed in another order: vectors agree to cosine ≥ 0.99999.
//   - GatherV2 on the first axis (the token embeddings) and SplitV (q/k/v apart): the backend
//     computes an index per element; here whole rows are copied within the WASM heap. Same
//     values, bit for bit.
//   - Sin and Cos (the position encodings, one value per token and channel): V8's Math.sin and
//     Math.cos, rounded to float32, are several times faster than the backend's compiled libm,
//     and closer to the exact value (the backend's cosine strays by up to ~4.5e-6 near |x| = 130).
// Cases outside these shapes go to the backend's own kernels.

/** What this file needs of TF.js (via @energetic-ai/core). */
export interface KernelRegistry {
  getKernel(kernelName: string, backendName: string): KernelConfig | undefined;
  unregisterKernel(kernelName: string, backendName: string): void;
  registerKernel(config: KernelConfig): void;
}

interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}

interface WasmBackend {
  wasm: { HEAPF32: Float32Array };
  dataIdMap: { get(dataId: object): { memoryOffset: number } };
  makeOutput(shape: number[], dtype: string): TensorInfo;
  disposeData(dataId: object): boolean;
}

interface KernelArgs {
  inputs: Record<string, TensorInfo>;
  backend: WasmBackend;
  attrs: Record<string, unknown>;
}

type KernelFunc = (args: KernelArgs) => TensorInfo | TensorInfo[];

interface KernelConfig {
  kernelName: string;
  backendName: string;
  kernelFunc: KernelFunc;
  setupFunc?: unknown;
}

const BACKEND = 'wasm';
const REPLACED = ['BatchMatMul', 'GatherV2', 'SplitV', 'Sin', 'Cos'] as const;
type Replaced = (typeof REPLACED)[number];

/** The backend's own kernels, kept so that the old path can be put back (tests and the benchmark compare the two). */
let backendKernels: Record<Replaced | 'Transpose', KernelConfig> | undefined;

/**
 * Turns these kernels on (the default once a model loads) or puts the backend's own back, in this
 * thread's TF.js; calling it twice with the same value changes nothing.
 */
export function useFastKernels(tf: KernelRegistry, enabled: boolean): void {
  if (backendKernels === undefined) {
    const find = (name: string) => {
      const config = tf.getKernel(name, BACKEND);
      if (config === undefined) throw new Error(`TF.js has no WASM ${name} kernel`);
      return config;
    };
    backendKernels = {
      BatchMatMul: find('BatchMatMul'), GatherV2: find('GatherV2'), SplitV: find('SplitV'), Sin: find('Sin'), Cos: find('Cos'),
      Transpose: find('Transpose'),
    };
  }
  const own = backendKernels;
  const single = own.BatchMatMul.kernelFunc as (args: KernelArgs) => TensorInfo;
  const transpose = own.Transpose.kernelFunc as (args: KernelArgs) => TensorInfo;
  const replacements: Record<Replaced, KernelFunc> = {
    BatchMatMul: (args) => batchedMatMul(args, single, transpose),
    GatherV2: (args) => gatherRows(args, own.GatherV2.kernelFunc),
    SplitV: (args) => splitRows(args, own.SplitV.kernelFunc),
    Sin: (args) => elementwise(args, Math.sin, own.Sin.kernelFunc),
    Cos: (args) => elementwise(args, Math.cos, own.Cos.kernelFunc),
  };
  for (const name of REPLACED) {
    const current = tf.getKernel(name, BACKEND);
    if ((current !== own[name]) === enabled) continue;
    tf.unregisterKernel(name, BACKEND);
    tf.registerKernel(enabled ? { ...own[name], kernelFunc: replacements[name] } : own[name]);
  }
}

/** Offset of a tensor's first element in the heap, in 4-byte elements. */
function offset(backend: WasmBackend, tensor: TensorInfo): number {
  return backend.dataIdMap.get(tensor.dataId).memoryOffset / Float32Array.BYTES_PER_ELEMENT;
}

const product = (shape: readonly number[]) => shape.reduce((total, size) => total * size, 1);
const fourBytes = (tensor: TensorInfo) => tensor.dtype === 'float32' || tensor.dtype === 'int32';

function batchedMatMul(
  args: KernelArgs,
  single: (args: KernelArgs) => TensorInfo,
  transpose: (args: KernelArgs) => TensorInfo,
): TensorInfo {
  const { a, b } = args.inputs as { a: TensorInfo; b: TensorInfo };
  const { transposeA, transposeB } = args.attrs as { transposeA: boolean; transposeB: boolean };
  const rank = a.shape.length;
  const outer = a.shape.slice(0, -2);
  const count = product(outer);
  const handled =
    !transposeA && rank >= 3 && b.shape.length === rank && a.dtype === 'float32' && b.dtype === 'float32' &&
    outer.every((size, axis) => b.shape[axis] === size) && (count > 1 || transposeB);
  if (!handled) return single(args);

  const { backend } = args;
  const right = transposeB
    ? transpose({ inputs: { x: b }, backend, attrs: { perm: [...outer.keys(), rank - 1, rank - 2] } })
    : b;
  const [m, k] = a.shape.slice(-2) as [number, number];
  const n = right.shape[rank - 1]!;
  const out = backend.makeOutput([...outer, m, n], 'float32');
  const left = backend.makeOutput([1, m, k], 'float32');
  let done = false;
  try {
    for (let i = 0; i < count; i++) {
      // A fresh right operand each time: the backend caches XNNPACK's packed weights by tensor id
      // and drops them when that tensor is disposed.
      const slice = backend.makeOutput([1, k, n], 'float32');
      let heap = backend.wasm.HEAPF32; // read after every allocation: the heap may have grown
      heap.copyWithin(offset(backend, left), offset(backend, a) + i * m * k, offset(backend, a) + (i + 1) * m * k);
      heap.copyWithin(offset(backend, slice), offset(backend, right) + i * k * n, offset(backend, right) + (i + 1) * k * n);
      const result = single({ inputs: { a: left, b: slice }, backend, attrs: { transposeA: false, transposeB: false } });
      heap = backend.wasm.HEAPF32;
      heap.copyWithin(offset(backend, out) + i * m * n, offset(backend, result), offset(backend, result) + m * n);
      backend.disposeData(result.dataId);
      backend.disposeData(slice.dataId);
    }
    done = true;
  } finally {
    if (!done) backend.disposeData(out.dataId);
    backend.disposeData(left.dataId);
    if (right !== b) backend.disposeData(right.dataId);
  }
  return out;
}

/** Rows of `x` picked by `indices` along the first axis. */
function gatherRows(args: KernelArgs, own: KernelFunc): TensorInfo | TensorInfo[] {
  const { x, indices } = args.inputs as { x: TensorInfo; indices: TensorInfo };
  const axis = Number(args.attrs.axis ?? 0);
  const batchDims = Number(args.attrs.batchDims ?? 0);
  if ((axis !== 0 && axis !== -x.shape.length) || batchDims !== 0 || !fourBytes(x) || indices.dtype !== 'int32' || x.shape.length < 1) {
    return own(args);
  }
  const { backend } = args;
  const rows = x.shape[0]!;
  const width = product(x.shape.slice(1));
  const count = product(indices.shape);
  const heap = backend.wasm.HEAPF32;
  const at = new Int32Array(heap.buffer, offset(backend, indices) * 4, count).slice();
  // An index out of range gets the backend's own error.
  if (at.some((row) => row < 0 || row >= rows)) return own(args);
  const out = backend.makeOutput([...indices.shape, ...x.shape.slice(1)], x.dtype);
  const target = backend.wasm.HEAPF32;
  const from = offset(backend, x);
  const to = offset(backend, out);
  for (let i = 0; i < count; i++) target.copyWithin(to + i * width, from + at[i]! * width, from + (at[i]! + 1) * width);
  return out;
}

/** `x` cut along one axis into pieces of the given sizes. */
function splitRows(args: KernelArgs, own: KernelFunc): TensorInfo | TensorInfo[] {
  const { x } = args.inputs as { x: TensorInfo };
  const rank = x.shape.length;
  const axis = (Number(args.attrs.axis ?? 0) + rank) % rank;
  const length = x.shape[axis]!;
  const requested = args.attrs.numOrSizeSplits as number | number[];
  let sizes = typeof requested === 'number' ? Array.from({ length: requested }, () => length / requested) : [...requested];
  const known = sizes.filter((size) => size !== -1).reduce((total, size) => total + size, 0);
  sizes = sizes.map((size) => (size === -1 ? length - known : size));
  if (!fourBytes(x) || sizes.some((size) => !Number.isInteger(size) || size < 0) || sizes.reduce((a, b) => a + b, 0) !== length) {
    return own(args);
  }
  const { backend } = args;
  const outer = product(x.shape.slice(0, axis));
  const inner = product(x.shape.slice(axis + 1));
  const outputs: TensorInfo[] = [];
  let begin = 0;
  for (const size of sizes) {
    const shape = [...x.shape];
    shape[axis] = size;
    const out = backend.makeOutput(shape, x.dtype);
    const heap = backend.wasm.HEAPF32;
    const from = offset(backend, x);
    const to = offset(backend, out);
    const run = size * inner;
    for (let o = 0; o < outer; o++) {
      const start = from + (o * length + begin) * inner;
      heap.copyWithin(to + o * run, start, start + run);
    }
    outputs.push(out);
    begin += size;
  }
  return outputs;
}

/** `f` of every element of a float32 tensor, rounded to float32. */
function elementwise(args: KernelArgs, f: (value: number) => number, own: KernelFunc): TensorInfo | TensorInfo[] {
  const { x } = args.inputs as { x: TensorInfo };
  if (x.dtype !== 'float32') return own(args);
  const { backend } = args;
  const out = backend.makeOutput([...x.shape], 'float32');
  const heap = backend.wasm.HEAPF32;
  const from = offset(backend, x);
  const to = offset(backend, out);
  const size = product(x.shape);
  for (let i = 0; i < size; i++) heap[to + i] = f(heap[from + i]!);
  return out;
}
