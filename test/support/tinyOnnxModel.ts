// BERT-shaped ONNX models with seeded random weights, written by the tests themselves: no real
// sentence-transformer can be downloaded here, and the ONNX embedder's tokenising, padding,
// pooling and batching can be checked just as well on a model whose numbers mean nothing.
// The graph follows BERT's outline (word + token-type + position embeddings, optional masked
// self-attention, a feed-forward layer per block, output `last_hidden_state`), so the same
// generator, with `benchmarkModelOptions`, gives a model whose cost per token resembles
// all-MiniLM-L6-v2's for throughput measurements.

import onnxProto from 'onnx-proto';
import type { onnx as OnnxTypes } from 'onnx-proto';
import { seededRandom } from './generateCorpus.ts';
import { writeFiles } from './tempFolder.ts';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const { INT, INTS } = onnx.AttributeProto.AttributeType;

/** Specials placed away from id 0 and 101/102, so an embedder that hard-codes BERT's ids fails. */
export const TINY_VOCAB: readonly string[] = [
  '[PAD]', '[unused0]', '[unused1]', '[UNK]', '[CLS]', '[SEP]', '[MASK]',
  '.', ',', '!', '?', '-',
  'the', 'a', 'of', 'and', 'to', 'in', 'is', 'was', 'for', 'on',
  'contract', 'party', 'date', 'document', 'folder', 'knowledge', 'search', 'model', 'warehouse',
  'crane', 'invoice', 'supplier', 'safety', 'report', 'review', 'budget', 'connect', 'relat',
  'un', 'embed', 'token', 'passage',
  '##s', '##ed', '##ing', '##ding', '##ion', '##a', '##ly', '##er', '##related',
];

export type ModelInput = 'input_ids' | 'attention_mask' | 'token_type_ids';

export interface TinyModelOptions {
  vocab?: readonly string[];
  hidden?: number;
  layers?: number;
  /** Width of each block's feed-forward layer (default: twice `hidden`). */
  ffn?: number;
  /** Masked single-head self-attention in each block; without it every token is transformed on its own. */
  attention?: boolean;
  /** Rows of the position table: like a real BERT, longer inputs make the runtime fail. */
  maxPositions?: number;
  /** Graph inputs to declare (input_ids is always one); DistilBERT-like models have no token_type_ids. */
  inputs?: readonly ModelInput[];
  /** Also output an in-graph pooled vector [batch, pooledDims] (masked mean, then a dense layer). */
  pooledDims?: number;
  /** Name of the pooled output (default sentence_embedding, as sentence-transformers exports name it). */
  pooledOutput?: string;
  /** Name of the per-token output, or null for a graph that outputs only the pooled vector. */
  tokenOutput?: string | null;
  seed?: number;
}

/** Roughly the arithmetic of all-MiniLM-L6-v2 (6 blocks, 384 wide, 1536 feed-forward, 512 positions). */
export const benchmarkModelOptions: TinyModelOptions = {
  hidden: 384,
  layers: 6,
  ffn: 1536,
  attention: true,
  maxPositions: 512,
};

/** The .onnx bytes of a BERT-shaped model with seeded random weights. */
export function tinyBertModel(options: TinyModelOptions = {}): Uint8Array {
  const vocab = options.vocab ?? TINY_VOCAB;
  const hidden = options.hidden ?? 32;
  const ffn = options.ffn ?? hidden * 2;
  const maxPositions = options.maxPositions ?? 64;
  const inputs = new Set<ModelInput>(['input_ids', ...(options.inputs ?? ['attention_mask', 'token_type_ids'])]);
  const attention = options.attention ?? false;
  if ((attention || options.pooledDims) && !inputs.has('attention_mask')) {
    throw new Error('attention and in-graph pooling need the attention_mask input');
  }
  const g = new GraphBuilder(seededRandom(options.seed ?? 1));

  let x = g.node('Gather', [g.weights('word_embeddings', [vocab.length, hidden], 1), 'input_ids']);
  if (inputs.has('token_type_ids')) {
    x = g.node('Add', [x, g.node('Gather', [g.weights('token_type_embeddings', [2, hidden], 1), 'token_type_ids'])]);
  }
  const sequenceLength = g.node('Gather', [g.node('Shape', ['input_ids']), g.int64Scalar('one', 1)], [{ name: 'axis', i: 0 }]);
  const positions = g.node('Range', [g.int64Scalar('zero', 0), sequenceLength, 'one']);
  x = g.node('Add', [x, g.node('Gather', [g.weights('position_embeddings', [maxPositions, hidden], 1), positions])]);

  // 1 for real tokens, 0 for padding, as float [batch, tokens].
  const mask = inputs.has('attention_mask') ? g.node('Cast', ['attention_mask'], [{ name: 'to', i: FLOAT }]) : '';
  const keyBias = attention
    ? g.node('Unsqueeze', [g.node('Mul', [g.node('Sub', [g.floatScalar('f_one', 1), mask]), g.floatScalar('f_minus_big', -1e4)]), g.int64Vector('axes_1', [1])])
    : '';

  for (let layer = 0; layer < (options.layers ?? 1); layer += 1) {
    if (attention) {
      const dense = (what: string, input: string): string => g.node('MatMul', [input, g.weights(`l${layer}_${what}`, [hidden, hidden], 1 / Math.sqrt(hidden))]);
      const keysT = g.node('Transpose', [dense('key', x)], [{ name: 'perm', ints: [0, 2, 1] }]);
      const scores = g.node('Mul', [g.node('MatMul', [dense('query', x), keysT]), g.floatScalar(`l${layer}_scale`, 1 / Math.sqrt(hidden))]);
      const weights = g.node('Softmax', [g.node('Add', [scores, keyBias])], [{ name: 'axis', i: -1 }]);
      x = g.node('Add', [x, dense('output', g.node('MatMul', [weights, dense('value', x)]))]);
    }
    const inner = g.node('Tanh', [g.node('MatMul', [x, g.weights(`l${layer}_ffn_in`, [hidden, ffn], 1 / Math.sqrt(hidden))])]);
    const outer = g.node('MatMul', [inner, g.weights(`l${layer}_ffn_out`, [ffn, hidden], 1 / Math.sqrt(ffn))]);
    x = g.node('Tanh', [g.node('Add', [x, outer])]);
  }

  const outputs: OnnxTypes.IValueInfoProto[] = [];
  const tokenOutput = options.tokenOutput === undefined ? 'last_hidden_state' : options.tokenOutput;
  if (tokenOutput !== null) {
    g.node('Identity', [x], [], tokenOutput);
    outputs.push(g.tensorInfo(tokenOutput, FLOAT, ['batch', 'sequence', hidden]));
  }
  if (options.pooledDims) {
    const pooledOutput = options.pooledOutput ?? 'sentence_embedding';
    const mask3 = g.node('Unsqueeze', [mask, g.int64Vector('axes_2', [2])]);
    const tokensAxis = g.int64Vector('axes_1', [1]);
    const summed = g.node('ReduceSum', [g.node('Mul', [x, mask3]), tokensAxis], [{ name: 'keepdims', i: 0 }]);
    const counts = g.node('ReduceSum', [mask3, tokensAxis], [{ name: 'keepdims', i: 0 }]);
    const mean = g.node('Div', [summed, counts]);
    g.node('MatMul', [mean, g.weights('pooler_dense', [hidden, options.pooledDims], 1 / Math.sqrt(hidden))], [], pooledOutput);
    outputs.push(g.tensorInfo(pooledOutput, FLOAT, ['batch', options.pooledDims]));
  }

  const declared = (['input_ids', 'attention_mask', 'token_type_ids'] as const).filter((name) => inputs.has(name));
  return g.model(declared.map((name) => g.tensorInfo(name, INT64, ['batch', 'sequence'])), outputs);
}

/** vocab.txt: one token per line, the line number being the id. */
export function vocabText(vocab: readonly string[] = TINY_VOCAB): string {
  return `${vocab.join('\n')}\n`;
}

/**
 * A tokenizer.json as Hugging Face writes it for a BERT WordPiece tokenizer. `lowercase: false`
 * makes a "cased" tokenizer, so a test can tell it was read rather than rebuilt from vocab.txt.
 */
export function bertTokenizerJson(vocab: readonly string[] = TINY_VOCAB, lowercase = true): object {
  const id = (token: string): number => vocab.indexOf(token);
  const special = (content: string) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, index) => [token, index])),
    },
  };
}

export interface TinyModelFolderOptions extends TinyModelOptions {
  /** Which tokenizer file to write (default vocab.txt). */
  tokenizer?: 'vocab.txt' | 'tokenizer.json' | 'none';
  /** Lower-casing of the written tokenizer (tokenizer.json) or of tokenizer_config.json's do_lower_case (vocab.txt). */
  lowercase?: boolean;
  /** Written as tokenizer_config.json when given. */
  tokenizerConfig?: Record<string, unknown>;
  /** config.json; by default hidden_size and max_position_embeddings of the generated model. */
  config?: Record<string, unknown> | null;
}

/** Writes model.onnx, a tokenizer file and config.json into `folder`; returns the folder. */
export function writeTinyOnnxModel(folder: string, options: TinyModelFolderOptions = {}): string {
  const vocab = options.vocab ?? TINY_VOCAB;
  const files: Record<string, string | Uint8Array> = { 'model.onnx': tinyBertModel(options) };
  const tokenizer = options.tokenizer ?? 'vocab.txt';
  if (tokenizer === 'vocab.txt') files['vocab.txt'] = vocabText(vocab);
  if (tokenizer === 'tokenizer.json') files['tokenizer.json'] = JSON.stringify(bertTokenizerJson(vocab, options.lowercase ?? true));
  const tokenizerConfig = options.tokenizerConfig ?? (tokenizer === 'vocab.txt' && options.lowercase !== undefined ? { do_lower_case: options.lowercase } : undefined);
  if (tokenizerConfig) files['tokenizer_config.json'] = JSON.stringify(tokenizerConfig);
  const config = options.config === undefined
    ? { model_type: 'bert', hidden_size: options.hidden ?? 32, max_position_embeddings: options.maxPositions ?? 64 }
    : options.config;
  if (config) files['config.json'] = JSON.stringify(config);
  return writeFiles(folder, files);
}

interface Attribute {
  name: string;
  i?: number;
  ints?: number[];
}

/** Collects nodes and initializers; names values automatically so the model above reads as a formula. */
class GraphBuilder {
  private readonly nodes: OnnxTypes.INodeProto[] = [];
  private readonly initializers: OnnxTypes.ITensorProto[] = [];
  private counter = 0;

  constructor(private readonly random: () => number) {}

  node(opType: string, input: string[], attributes: Attribute[] = [], output = `${opType.toLowerCase()}_${this.counter++}`): string {
    const attribute = attributes.map(({ name, i, ints }) =>
      ints ? { name, type: INTS, ints } : { name, type: INT, i: i ?? 0 },
    );
    this.nodes.push({ opType, input, output: [output], name: output, attribute });
    return output;
  }

  /** A float initializer with values uniform in [-scale, scale]. */
  weights(name: string, dims: number[], scale: number): string {
    const values = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < values.length; i += 1) values[i] = (this.random() * 2 - 1) * scale;
    return this.initializer(name, dims, FLOAT, new Uint8Array(values.buffer));
  }

  floatScalar(name: string, value: number): string {
    return this.initializer(name, [], FLOAT, new Uint8Array(Float32Array.of(value).buffer));
  }

  int64Scalar(name: string, value: number): string {
    return this.initializer(name, [], INT64, new Uint8Array(BigInt64Array.of(BigInt(value)).buffer));
  }

  int64Vector(name: string, values: number[]): string {
    return this.initializer(name, [values.length], INT64, new Uint8Array(BigInt64Array.from(values, BigInt).buffer));
  }

  tensorInfo(name: string, elemType: number, dims: Array<string | number>): OnnxTypes.IValueInfoProto {
    const dim = dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
    return { name, type: { tensorType: { elemType, shape: { dim } } } };
  }

  model(inputs: OnnxTypes.IValueInfoProto[], outputs: OnnxTypes.IValueInfoProto[]): Uint8Array {
    const graph = { name: 'tiny-bert', node: this.nodes, initializer: this.initializers, input: inputs, output: outputs };
    const model = onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 13 }],
      producerName: 'relata-tests',
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }

  private initializer(name: string, dims: number[], dataType: number, rawData: Uint8Array): string {
    if (this.initializers.some((existing) => existing.name === name)) return name;
    this.initializers.push({ name, dims, dataType, rawData });
    return name;
  }
}
