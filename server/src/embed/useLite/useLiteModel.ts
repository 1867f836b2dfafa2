// Runs the USE-lite graph on token ids, in whichever thread loads it (each worker loads its own).
// The graph takes a sparse batch (row, position) -> token id, so this file builds that from the
// fast tokenizer's ids and never calls the package's slow tokenizer. Ids past the 128th are
// dropped before the graph: it ignores them anyway (measured: identical vectors), and they cost.
// Five of the backend's kernels are replaced by faster ones (kernels.ts).

import { useLiteFiles, loadVocabulary, requireRuntime, type UseLiteFiles } from './modelFiles.ts';
import { UseLiteTokenizer } from './tokenizer.ts';
import { normalizeRows } from '../vectors.ts';
import { USE_LITE_DIMS, USE_LITE_MAX_TOKENS } from './descriptor.ts';
import { useFastKernels, type KernelRegistry } from './kernels.ts';

/** The part of TF.js (via @energetic-ai/core) this file uses. */
interface Tensor {
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
  dispose(): void;
}
interface GraphModel {
  executeAsync(inputs: Record<string, Tensor>): Promise<Tensor | Tensor[]>;
  dispose(): void;
}
interface Runtime extends KernelRegistry {
  setWasmPaths(prefix: string): void;
  ready(): Promise<void>;
  getBackend(): string;
  loadGraphModel(url: string): Promise<GraphModel>;
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): Tensor;
  tensor1d(values: Int32Array, dtype: 'int32'): Tensor;
}

let runtime: Runtime | undefined;

/** TF.js allows one WASM path setting per thread, before its backend starts. */
function startRuntime(files: UseLiteFiles): Runtime {
  if (runtime === undefined) {
    runtime = requireRuntime() as Runtime;
    runtime.setWasmPaths(files.wasmDir);
  }
  return runtime;
}

export class UseLiteModel {
  private constructor(
    private readonly tf: Runtime,
    private readonly graph: GraphModel,
    readonly tokenizer: UseLiteTokenizer,
  ) {}

  /**
   * `fastKernels: false` keeps TF.js's own kernels, the path before kernels.ts: for comparing the
   * two (tests, `npm run bench:embed`), not for use.
   */
  static async load(files: UseLiteFiles = useLiteFiles(), { fastKernels = true } = {}): Promise<UseLiteModel> {
    const tf = startRuntime(files);
    await tf.ready();
    if (tf.getBackend() !== 'wasm') throw new Error(`TF.js started the "${tf.getBackend()}" backend, not wasm`);
    useFastKernels(tf, fastKernels);
    const graph = await tf.loadGraphModel(files.modelUrl);
    const model = new UseLiteModel(tf, graph, new UseLiteTokenizer(loadVocabulary(files)));
    // TF.js reports a missing .wasm file on the console and carries on; a first run is what
    // proves the model works, and it warms the kernels up.
    const probe = await model.embedIds([model.tokenizer.encode('ready')]);
    if (probe.length !== USE_LITE_DIMS || !Number.isFinite(probe[0])) {
      throw new Error('the USE-lite model loaded but produced no usable vector');
    }
    return model;
  }

  /** Unit vectors, `texts.length` rows of 512 floats in one array. */
  embed(texts: readonly string[]): Promise<Float32Array> {
    return this.embedIds(texts.map((text) => this.tokenizer.modelIds(text)));
  }

  async embedIds(idLists: readonly (readonly number[])[]): Promise<Float32Array> {
    if (idLists.length === 0) return new Float32Array(0);
    const rows = idLists.map((ids) => ids.slice(0, USE_LITE_MAX_TOKENS));
    // The graph infers the batch size from the highest row that has a token: an empty last text
    // would lose its row, so a one-token row goes after it and its output is dropped.
    const padded = rows[rows.length - 1]!.length === 0;
    if (padded) rows.push([this.tokenizer.encode('.')[0]!]); // any one token

    let total = 0;
    for (const ids of rows) total += ids.length;
    const indices = new Int32Array(total * 2);
    const values = new Int32Array(total);
    let at = 0;
    rows.forEach((ids, row) => {
      ids.forEach((id, position) => {
        indices[at * 2] = row;
        indices[at * 2 + 1] = position;
        values[at] = id;
        at++;
      });
    });

    const inputs = {
      indices: this.tf.tensor2d(indices, [total, 2], 'int32'),
      values: this.tf.tensor1d(values, 'int32'),
    };
    try {
      const output = await this.graph.executeAsync(inputs);
      const tensor = Array.isArray(output) ? output[0]! : output;
      const data = await tensor.data();
      tensor.dispose();
      const count = idLists.length;
      if (data.length < count * USE_LITE_DIMS) {
        throw new Error(`USE-lite returned ${data.length / USE_LITE_DIMS} vectors for ${count} texts`);
      }
      const vectors = Float32Array.from(data.subarray(0, count * USE_LITE_DIMS));
      normalizeRows(vectors, USE_LITE_DIMS);
      return vectors;
    } finally {
      inputs.indices.dispose();
      inputs.values.dispose();
    }
  }

  dispose(): void {
    this.graph.dispose();
  }
}
