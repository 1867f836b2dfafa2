// One onnxruntime session over a sentence-transformer graph: pads a batch of token ids into the
// inputs the graph declares, runs it, and turns the output into unit vectors. Exports differ in
// what they declare (DistilBERT has no token_type_ids, some graphs take int32, some already
// output a pooled `sentence_embedding`), so the session adapts to the graph it finds and
// refuses, with the folder named, a graph it cannot read.

import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { EncodedPassage } from './passageTokenizer.ts';
import { ModelFolderError, type TokenPooling } from './modelFolder.ts';
import { firstTokenPool, maskedMeanPool, normalise } from './pooling.ts';

type IdInput = 'input_ids' | 'attention_mask' | 'token_type_ids';
const ID_INPUTS: readonly IdInput[] = ['input_ids', 'attention_mask', 'token_type_ids'];

/** Outputs a sentence-transformer export may give per token, in order of preference. */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];
const POOLED_OUTPUT = 'sentence_embedding';

export interface SessionOptions {
  /** Threads one inference may use (onnxruntime's intra-op pool). */
  threads: number;
  /** For graphs that output per-token vectors. */
  pooling: TokenPooling;
}

export class ModelSession {
  private constructor(
    private readonly dir: string,
    private readonly session: InferenceSession,
    private readonly inputs: ReadonlyMap<IdInput, 'int64' | 'int32'>,
    private readonly output: string,
    /** True when the graph pools itself (a `sentence_embedding` output). */
    readonly pooledByModel: boolean,
    private readonly padId: number,
    private readonly pooling: TokenPooling,
  ) {}

  static async open(dir: string, modelFile: string, padId: number, options: SessionOptions): Promise<ModelSession> {
    let session: InferenceSession;
    try {
      session = await InferenceSession.create(modelFile, {
        executionProviders: ['cpu'],
        intraOpNumThreads: options.threads,
        // One graph, run node after node: a second pool would only compete for the same cores.
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
        // Idle pool threads sleep instead of spinning: with the indexer busy on the other core,
        // spinning made single-passage runs ~1.7x slower here, and it gains nothing when idle.
        extra: { session: { intra_op: { allow_spinning: '0' } } },
        // Warnings about unused initialisers and the like are noise for a user indexing a folder.
        logSeverityLevel: 3,
      });
    } catch (error) {
      throw new ModelFolderError(dir, `onnxruntime cannot load ${modelFile} (${(error as Error).message})`);
    }
    try {
      const inputs = declaredInputs(dir, session);
      const { output, pooled } = chosenOutput(dir, session);
      return new ModelSession(dir, session, inputs, output, pooled, padId, options.pooling);
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  /** One unit vector per passage, in order; all passages run as one padded batch. */
  async vectors(batch: readonly EncodedPassage[]): Promise<Float32Array[]> {
    const rows = batch.length;
    const tokens = Math.max(...batch.map((passage) => passage.ids.length));
    const ids = new Array<number>(rows * tokens).fill(this.padId);
    const typeIds = new Array<number>(rows * tokens).fill(0);
    const mask = new Uint8Array(rows * tokens);
    batch.forEach((passage, row) => {
      passage.ids.forEach((id, token) => {
        ids[row * tokens + token] = id;
        typeIds[row * tokens + token] = passage.typeIds[token] ?? 0;
        mask[row * tokens + token] = 1;
      });
    });
    const values: Record<IdInput, ArrayLike<number>> = { input_ids: ids, attention_mask: mask, token_type_ids: typeIds };
    const feeds: Record<string, Tensor> = {};
    for (const [name, type] of this.inputs) {
      const data = type === 'int64' ? BigInt64Array.from(values[name], (value) => BigInt(value)) : Int32Array.from(values[name]);
      feeds[name] = new Tensor(type, data, [rows, tokens]);
    }

    // Every output is fetched: asked for one output by name, onnxruntime-node 1.22 returned the
    // graph's first output instead (tried here on a graph with two).
    const result = (await this.session.run(feeds))[this.output];
    const dims = result?.dims ?? [];
    const data = result?.data;
    if (!(data instanceof Float32Array)) throw this.unexpectedOutput(`holds ${result?.type ?? 'nothing'}, expected float32`);
    if (this.pooledByModel) {
      if (dims.length !== 2 || dims[0] !== rows) throw this.unexpectedOutput(`has shape [${dims.join(', ')}], expected [${rows}, dims]`);
      const width = dims[1]!;
      return Array.from({ length: rows }, (_, row) => normalise(data.slice(row * width, (row + 1) * width)));
    }
    if (dims.length !== 3 || dims[0] !== rows || dims[1] !== tokens) {
      throw this.unexpectedOutput(`has shape [${dims.join(', ')}], expected [${rows}, ${tokens}, hidden] (one vector per token)`);
    }
    const shape = [rows, tokens, dims[2]!] as const;
    return (this.pooling === 'cls' ? firstTokenPool(data, shape) : maskedMeanPool(data, shape, mask)).map(normalise);
  }

  release(): Promise<void> {
    return this.session.release();
  }

  private unexpectedOutput(problem: string): ModelFolderError {
    return new ModelFolderError(this.dir, `model.onnx output "${this.output}" ${problem}`);
  }
}

function declaredInputs(dir: string, session: InferenceSession): Map<IdInput, 'int64' | 'int32'> {
  const inputs = new Map<IdInput, 'int64' | 'int32'>();
  for (const meta of session.inputMetadata) {
    const known = ID_INPUTS.find((name) => name === meta.name);
    if (!known) {
      throw new ModelFolderError(dir, `model.onnx expects an input "${meta.name}"; a sentence-transformer is fed only ${ID_INPUTS.join(', ')}`);
    }
    const type = meta.isTensor ? meta.type : 'not a tensor';
    if (type !== 'int64' && type !== 'int32') throw new ModelFolderError(dir, `model.onnx input "${meta.name}" is ${type}, expected int64 token ids`);
    inputs.set(known, type);
  }
  if (!inputs.has('input_ids')) throw new ModelFolderError(dir, 'model.onnx has no "input_ids" input; is it a text encoder?');
  return inputs;
}

function chosenOutput(dir: string, session: InferenceSession): { output: string; pooled: boolean } {
  const names = session.outputNames;
  if (names.includes(POOLED_OUTPUT)) return { output: POOLED_OUTPUT, pooled: true };
  const output = TOKEN_OUTPUTS.find((name) => names.includes(name)) ?? names[0];
  if (output === undefined) throw new ModelFolderError(dir, 'model.onnx declares no outputs');
  return { output, pooled: false };
}
