// USE-lite's graph on onnxruntime: the graph converted from the installed model.json and weights
// in memory at load time (onnxGraph.ts; nothing is downloaded or written), run by onnxruntime's
// native CPU kernels. onnxruntime-node is imported here, when the engine opens, so that a
// platform where its binary cannot load costs only the fallback to TF.js, not the embedder.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UseLiteFiles } from './modelFiles.ts';
import type { GraphEngine } from './graphEngine.ts';
import { useLiteOnnxModel } from './onnxGraph.ts';

export interface OnnxEngineOptions {
  /** Threads one run may use (onnxruntime's intra-op pool); the embedder runs one engine per worker thread. */
  threads?: number;
  /** Makes the ONNX model's bytes; tests replace it to stand for a graph onnxruntime refuses. */
  buildModel?: (modelDir: string) => Uint8Array;
}

export async function openOnnxEngine(files: UseLiteFiles, options: OnnxEngineOptions = {}): Promise<GraphEngine> {
  const { InferenceSession, Tensor } = await import('onnxruntime-node');
  const modelDir = path.dirname(fileURLToPath(files.modelUrl));
  const bytes = (options.buildModel ?? useLiteOnnxModel)(modelDir);
  const session = await InferenceSession.create(bytes, {
    executionProviders: ['cpu'],
    intraOpNumThreads: options.threads ?? 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // As for the ONNX sentence-transformers (../onnx/modelSession.ts): idle pool threads sleep.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
    logSeverityLevel: 3,
  });
  const [output] = session.outputNames;
  if (output === undefined) throw new Error('the converted USE-lite graph declares no output');
  return {
    name: 'onnx',
    async run(indices, values) {
      // The converted graph takes every integer as int64 (onnxGraph.ts says why).
      const feeds = {
        indices: new Tensor('int64', BigInt64Array.from(indices, BigInt), [values.length, 2]),
        values: new Tensor('int64', BigInt64Array.from(values, BigInt), [values.length]),
      };
      const result = (await session.run(feeds))[output];
      if (!(result?.data instanceof Float32Array)) throw new Error(`the converted USE-lite graph returned ${result?.type ?? 'nothing'}, expected float32`);
      return result.data;
    },
    dispose: () => session.release(),
  };
}
