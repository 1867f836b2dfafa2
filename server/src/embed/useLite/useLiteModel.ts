// Runs the USE-lite graph on token ids, in whichever thread loads it (each worker loads its own).
// The graph takes a sparse batch (row, position) -> token id, so this file builds that from the
// fast tokenizer's ids and never calls the package's slow tokenizer. Ids past the 128th are
// dropped before the graph: it ignores them anyway (measured: identical vectors), and they cost.
// The graph runs on onnxruntime when it can (onnxEngine.ts), else on TF.js (tfjsEngine.ts):
// the two give the same vectors to cosine 0.99999999 (docs/EMBEDDINGS.md), so which one ran
// does not change the model's identity.

import { useLiteFiles, loadVocabulary, type UseLiteFiles } from './modelFiles.ts';
import { UseLiteTokenizer } from './tokenizer.ts';
import { normalizeRows } from '../vectors.ts';
import { USE_LITE_DIMS, USE_LITE_MAX_TOKENS } from './descriptor.ts';
import type { EngineName, GraphEngine } from './graphEngine.ts';
import { openOnnxEngine, type OnnxEngineOptions } from './onnxEngine.ts';
import { openTfjsEngine } from './tfjsEngine.ts';

export interface UseLiteLoadOptions {
  /** The engine to try first (default onnx); TF.js is always the fallback. */
  engine?: EngineName;
  /** TF.js only: false keeps the backend's own kernels, for comparing against kernels.ts. */
  fastKernels?: boolean;
  onnx?: OnnxEngineOptions;
}

export class UseLiteModel {
  private constructor(
    private readonly engine: GraphEngine,
    readonly tokenizer: UseLiteTokenizer,
    /** Why onnxruntime is not the engine, when it was asked for and could not run the graph. */
    readonly fallback: string | undefined,
  ) {}

  static async load(files: UseLiteFiles = useLiteFiles(), options: UseLiteLoadOptions = {}): Promise<UseLiteModel> {
    const tokenizer = new UseLiteTokenizer(loadVocabulary(files));
    let fallback: string | undefined;
    if ((options.engine ?? 'onnx') === 'onnx') {
      try {
        return await UseLiteModel.proved(await openOnnxEngine(files, options.onnx), tokenizer, undefined);
      } catch (error) {
        fallback = `onnxruntime cannot run USE-lite (${describe(error)}); TF.js runs it instead, about 5 times slower`;
      }
    }
    return UseLiteModel.proved(await openTfjsEngine(files, options.fastKernels ?? true), tokenizer, fallback);
  }

  /**
   * A first run is what proves an engine works (TF.js reports a missing .wasm file on the console
   * and carries on; a converted graph may load and still fail to run), and it warms it up.
   */
  private static async proved(engine: GraphEngine, tokenizer: UseLiteTokenizer, fallback: string | undefined): Promise<UseLiteModel> {
    const model = new UseLiteModel(engine, tokenizer, fallback);
    try {
      const probe = await model.embedIds([tokenizer.encode('ready')]);
      if (probe.length !== USE_LITE_DIMS || !Number.isFinite(probe[0])) {
        throw new Error(`the USE-lite model loaded on ${engine.name} but produced no usable vector`);
      }
    } catch (error) {
      await engine.dispose();
      throw error;
    }
    return model;
  }

  /** Which engine runs the graph. */
  get engineName(): EngineName {
    return this.engine.name;
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

    const data = await this.engine.run(indices, values);
    const count = idLists.length;
    if (data.length < count * USE_LITE_DIMS) {
      throw new Error(`USE-lite returned ${data.length / USE_LITE_DIMS} vectors for ${count} texts`);
    }
    const vectors = Float32Array.from(data.subarray(0, count * USE_LITE_DIMS));
    normalizeRows(vectors, USE_LITE_DIMS);
    return vectors;
  }

  dispose(): Promise<void> {
    return this.engine.dispose();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
