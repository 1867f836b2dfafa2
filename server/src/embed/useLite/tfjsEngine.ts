// USE-lite's graph on TF.js's WASM backend, as the model package ships it, with five of the
// backend's kernels replaced by faster ones (kernels.ts). The fallback engine: it needs nothing
// native, so it runs wherever Node does.

import { requireRuntime, type UseLiteFiles } from './modelFiles.ts';
import { useFastKernels, type KernelRegistry } from './kernels.ts';
import type { GraphEngine } from './graphEngine.ts';

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

/**
 * `fastKernels: false` keeps TF.js's own kernels, the path before kernels.ts: for comparing the
 * two (tests, `npm run bench:embed`), not for use.
 */
export async function openTfjsEngine(files: UseLiteFiles, fastKernels = true): Promise<GraphEngine> {
  const tf = startRuntime(files);
  await tf.ready();
  if (tf.getBackend() !== 'wasm') throw new Error(`TF.js started the "${tf.getBackend()}" backend, not wasm`);
  useFastKernels(tf, fastKernels);
  const graph = await tf.loadGraphModel(files.modelUrl);
  return {
    name: 'tfjs',
    async run(indices, values) {
      const inputs = {
        indices: tf.tensor2d(indices, [values.length, 2], 'int32'),
        values: tf.tensor1d(values, 'int32'),
      };
      try {
        const output = await graph.executeAsync(inputs);
        const tensor = Array.isArray(output) ? output[0]! : output;
        const data = await tensor.data();
        tensor.dispose();
        return data as Float32Array;
      } finally {
        inputs.indices.dispose();
        inputs.values.dispose();
      }
    },
    async dispose() {
      graph.dispose();
    },
  };
}
