// A tiny llama-architecture GGUF with seeded random weights, written by the tests themselves: no
// language model can be downloaded here, and none ships in a package. It loads in node-llama-cpp
// like a real model and generates nonsense, which is exactly what the answer guarantees must
// survive. Layout (GGUF v3, little-endian): header, metadata key-values, tensor infos, padding to
// the alignment, then each F32 tensor at an aligned offset. The vocabulary is a SentencePiece-style
// one: control tokens, printable ASCII pieces and the 256 byte-fallback tokens, so any text
// tokenises and a JSON grammar can spell anything it needs.

import { writeFileSync } from 'node:fs';
import { seededRandom } from './generateCorpus.ts';

const ALIGNMENT = 32;

const enum ValueType {
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  String = 8,
  Array = 9,
}

const GGML_TYPE_F32 = 0;

const enum TokenType {
  Normal = 1,
  Unknown = 2,
  Control = 3,
  Byte = 6,
}

type MetadataValue =
  | { type: ValueType.Uint32 | ValueType.Int32 | ValueType.Float32; value: number }
  | { type: ValueType.String; value: string }
  | { type: ValueType.Array; items: ValueType.String; value: string[] }
  | { type: ValueType.Array; items: ValueType.Float32 | ValueType.Int32; value: number[] };

interface Tensor {
  name: string;
  /** ggml order: the first dimension is the innermost (contiguous) one. */
  dims: number[];
  data: Float32Array;
}

export interface TinyGgufOptions {
  embedding?: number;
  heads?: number;
  layers?: number;
  feedForward?: number;
  contextLength?: number;
  seed?: number;
}

/** Byte-level writer that grows as needed. */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
  u32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }
  i32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }
  u64(value: number): void {
    this.reserve(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(value), this.length);
  }
  f32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeFloatLE(value, this.length);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(padding));
  }
  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Control tokens, then one piece per printable ASCII character ("▁" stands for a space), then the byte fallbacks. */
function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TokenType.Unknown, TokenType.Control, TokenType.Control];
  const scores = [0, 0, 0];
  for (let code = 0x20; code < 0x7f; code += 1) {
    tokens.push(code === 0x20 ? '▁' : String.fromCharCode(code));
    types.push(TokenType.Normal);
    scores.push(-1);
  }
  for (let byte = 0; byte < 256; byte += 1) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TokenType.Byte);
    scores.push(0);
  }
  return { tokens, scores, types };
}

function writeValue(writer: ByteWriter, entry: MetadataValue): void {
  writer.u32(entry.type);
  switch (entry.type) {
    case ValueType.Uint32:
      writer.u32(entry.value);
      return;
    case ValueType.Int32:
      writer.i32(entry.value);
      return;
    case ValueType.Float32:
      writer.f32(entry.value);
      return;
    case ValueType.String:
      writer.string(entry.value);
      return;
    case ValueType.Array:
      writer.u32(entry.items);
      writer.u64(entry.value.length);
      for (const item of entry.value) {
        if (typeof item === 'string') writer.string(item);
        else if (entry.items === ValueType.Int32) writer.i32(item);
        else writer.f32(item);
      }
  }
}

/** Writes the model to `file` and returns its size in bytes. */
export function writeTinyGguf(file: string, options: TinyGgufOptions = {}): number {
  const embedding = options.embedding ?? 32;
  const heads = options.heads ?? 2;
  const layers = options.layers ?? 2;
  const feedForward = options.feedForward ?? 64;
  const contextLength = options.contextLength ?? 4096;
  const random = seededRandom(options.seed ?? 7);
  const { tokens, scores, types } = vocabulary();

  const u32 = (value: number): MetadataValue => ({ type: ValueType.Uint32, value });
  const metadata: [string, MetadataValue][] = [
    ['general.architecture', { type: ValueType.String, value: 'llama' }],
    ['general.name', { type: ValueType.String, value: 'relata-tiny-random' }],
    ['general.alignment', u32(ALIGNMENT)],
    ['llama.context_length', u32(contextLength)],
    ['llama.embedding_length', u32(embedding)],
    ['llama.block_count', u32(layers)],
    ['llama.feed_forward_length', u32(feedForward)],
    ['llama.attention.head_count', u32(heads)],
    ['llama.attention.head_count_kv', u32(heads)],
    ['llama.rope.dimension_count', u32(embedding / heads)],
    ['llama.attention.layer_norm_rms_epsilon', { type: ValueType.Float32, value: 1e-5 }],
    ['tokenizer.ggml.model', { type: ValueType.String, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ValueType.Array, items: ValueType.String, value: tokens }],
    ['tokenizer.ggml.scores', { type: ValueType.Array, items: ValueType.Float32, value: scores }],
    ['tokenizer.ggml.token_type', { type: ValueType.Array, items: ValueType.Int32, value: types }],
    ['tokenizer.ggml.unknown_token_id', u32(0)],
    ['tokenizer.ggml.bos_token_id', u32(1)],
    ['tokenizer.ggml.eos_token_id', u32(2)],
  ];

  const randomTensor = (name: string, dims: number[]): Tensor => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i += 1) data[i] = (random() * 2 - 1) * 0.2;
    return { name, dims, data };
  };
  const ones = (name: string, size: number): Tensor => ({ name, dims: [size], data: new Float32Array(size).fill(1) });
  const tensors: Tensor[] = [randomTensor('token_embd.weight', [embedding, tokens.length])];
  for (let layer = 0; layer < layers; layer += 1) {
    const prefix = `blk.${layer}`;
    tensors.push(
      ones(`${prefix}.attn_norm.weight`, embedding),
      randomTensor(`${prefix}.attn_q.weight`, [embedding, embedding]),
      randomTensor(`${prefix}.attn_k.weight`, [embedding, embedding]),
      randomTensor(`${prefix}.attn_v.weight`, [embedding, embedding]),
      randomTensor(`${prefix}.attn_output.weight`, [embedding, embedding]),
      ones(`${prefix}.ffn_norm.weight`, embedding),
      randomTensor(`${prefix}.ffn_gate.weight`, [embedding, feedForward]),
      randomTensor(`${prefix}.ffn_up.weight`, [embedding, feedForward]),
      randomTensor(`${prefix}.ffn_down.weight`, [feedForward, embedding]),
    );
  }
  tensors.push(ones('output_norm.weight', embedding), randomTensor('output.weight', [embedding, tokens.length]));

  const writer = new ByteWriter();
  writer.bytes(Buffer.from('GGUF', 'ascii'));
  writer.u32(3);
  writer.u64(tensors.length);
  writer.u64(metadata.length);
  for (const [key, value] of metadata) {
    writer.string(key);
    writeValue(writer, value);
  }
  let offset = 0;
  const offsets = tensors.map((tensor) => {
    const at = offset;
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
    return at;
  });
  tensors.forEach((tensor, index) => {
    writer.string(tensor.name);
    writer.u32(tensor.dims.length);
    for (const dim of tensor.dims) writer.u64(dim);
    writer.u32(GGML_TYPE_F32);
    writer.u64(offsets[index]!);
  });
  writer.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    writer.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    writer.padTo(ALIGNMENT);
  }
  const bytes = writer.result();
  writeFileSync(file, bytes);
  return bytes.length;
}
