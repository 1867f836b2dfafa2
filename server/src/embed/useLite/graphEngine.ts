// What runs USE-lite's graph: onnxruntime on the graph converted by onnxGraph.ts (the default,
// ~5× faster per window), or TF.js's WASM backend on model.json as shipped (the fallback when
// onnxruntime cannot load or run it). Both take the graph's own sparse input and give its output.

export type EngineName = 'onnx' | 'tfjs';

export interface GraphEngine {
  readonly name: EngineName;
  /**
   * `indices`: (row, position) pairs, two ints per token; `values`: the token ids. Returns the
   * graph's output, one 512-float row per text up to the highest row that has a token.
   */
  run(indices: Int32Array, values: Int32Array): Promise<Float32Array>;
  dispose(): Promise<void>;
}
