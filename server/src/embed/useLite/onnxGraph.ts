// USE-lite's own graph and weights, rewritten as an ONNX model in memory, so that onnxruntime's
// native kernels (AVX2/AVX-512 with FMA) run it instead of TF.js's 128-bit WASM SIMD: after
// kernels.ts, ~90% of a window's time is the graph's multiply-adds at the rate WASM allows
// (docs/EMBEDDINGS.md). No converter is installable here (tf2onnx needs Python and TensorFlow),
// and the graph is small (317 nodes, 42 op types), so this file translates exactly the ops that
// model.json uses, node by node with the same names, and refuses any other op by name: a newer
// model package with another op fails loudly at load time, and the embedder falls back to TF.js.
//
// Every TF integer (int32 or int64) becomes ONNX int64: onnxruntime's shape ops (Shape, NonZero,
// Range, Slice) work in int64, and a single integer type spares a Cast after each of them.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import type { onnx as OnnxTypes } from 'onnx-proto';

const { onnx } = onnxProto;
const { FLOAT, INT64, BOOL } = onnx.TensorProto.DataType;
const { INT, INTS, TENSOR } = onnx.AttributeProto.AttributeType;

/** Opset 18: reductions, Squeeze/Unsqueeze and Split take their axes as inputs; ScatterND is there. */
const OPSET = 18;
const INT64_MAX = 2n ** 63n - 1n;

/** What model.json holds (the TF.js graph-model format). */
interface GraphModelJson {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}
interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}
interface TfAttr {
  i?: string | number;
  b?: boolean;
  type?: number | string;
  s?: string | number[];
  list?: { i?: (string | number)[] };
  shape?: unknown;
}

/** A weight read from the shards: float32 values, or integers (any TF integer type). */
type Weight = { kind: 'float'; dims: number[]; values: Float32Array } | { kind: 'int'; dims: number[]; values: bigint[] };

/** The graph, or a part of it, is not one this converter translates; the message names the file. */
class UnsupportedGraphError extends Error {}

/** The ONNX model's bytes, built from model.json and its weight shards in `modelDir`. */
export function useLiteOnnxModel(modelDir: string): Uint8Array {
  const modelFile = path.join(modelDir, 'model.json');
  let json: GraphModelJson;
  try {
    json = JSON.parse(readFileSync(modelFile, 'utf8')) as GraphModelJson;
  } catch (error) {
    throw new UnsupportedGraphError(`${modelFile} cannot be read as a TF.js graph model (${(error as Error).message})`);
  }
  if (!Array.isArray(json?.modelTopology?.node) || !Array.isArray(json.weightsManifest)) {
    throw new UnsupportedGraphError(`${modelFile} is not a TF.js graph model (no modelTopology.node or weightsManifest)`);
  }
  return convertGraph(json, readWeights(modelDir, json), modelFile);
}

/** Decodes the weight shards: each group is its shards concatenated, weights in manifest order. */
function readWeights(modelDir: string, json: GraphModelJson): Map<string, Weight> {
  const weights = new Map<string, Weight>();
  for (const group of json.weightsManifest) {
    const bytes = Buffer.concat(group.paths.map((shard) => readFileSync(path.join(modelDir, shard))));
    let offset = 0;
    for (const { name, shape, dtype } of group.weights) {
      const count = shape.reduce((a, b) => a * b, 1);
      const end = offset + count * 4;
      if (end > bytes.length) throw new UnsupportedGraphError(`weight ${name} runs past the end of its shards in ${modelDir}`);
      // A copy: the shard buffer's offsets need not be 4-byte aligned. Little-endian, as the
      // shards are and as every platform onnxruntime-node ships for is.
      const copy = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + end);
      if (dtype === 'float32') {
        weights.set(name, { kind: 'float', dims: shape, values: new Float32Array(copy) });
      } else if (dtype === 'int32') {
        weights.set(name, { kind: 'int', dims: shape, values: Array.from(new Int32Array(copy), BigInt) });
      } else {
        throw new UnsupportedGraphError(`weight ${name} in ${modelDir} is ${dtype}; only float32 and int32 are converted`);
      }
      offset = end;
    }
  }
  return weights;
}

/** A string attribute: bytes as numbers, or base64 (both forms occur in TF.js's model.json). */
function text(value: TfAttr | undefined): string | undefined {
  if (Array.isArray(value?.s)) return Buffer.from(value.s).toString('latin1');
  if (typeof value?.s === 'string') return Buffer.from(value.s, 'base64').toString('latin1');
  return undefined;
}

/** TF's DataType numbers, mapped to the ONNX type this converter gives them. */
function onnxType(tfType: number | string | undefined, where: string): number {
  switch (tfType) {
    case 1: case 'DT_FLOAT': return FLOAT;
    case 3: case 'DT_INT32': case 9: case 'DT_INT64': return INT64;
    case 10: case 'DT_BOOL': return BOOL;
    default: throw new UnsupportedGraphError(`${where}: TF type ${String(tfType)} is not converted`);
  }
}

function convertGraph(json: GraphModelJson, weights: Map<string, Weight>, modelFile: string): Uint8Array {
  const g = new OnnxGraph();
  const byName = new Map(json.modelTopology.node.map((node) => [node.name, node]));
  const nodes = topologicalOrder(json.modelTopology.node, byName, modelFile);
  const consumed = new Set<string>();
  for (const node of nodes) for (const input of node.input ?? []) consumed.add(input.replace(/:\d+$/, ''));

  /** A Const node's values, for the attributes ONNX wants fixed (axes, permutations, slices). */
  const constInts = (input: string, where: string): bigint[] => {
    const weight = byName.get(input)?.op === 'Const' ? weights.get(input) : undefined;
    if (weight?.kind !== 'int') throw new UnsupportedGraphError(`${where}: input ${input} is not an integer constant`);
    return weight.values;
  };

  const graphInputs: OnnxTypes.IValueInfoProto[] = [];
  for (const node of nodes) {
    const where = `${modelFile}: node ${node.name} (${node.op})`;
    const inputs = (node.input ?? []).map((input) => {
      if (input.startsWith('^')) throw new UnsupportedGraphError(`${where}: control dependencies are not converted`);
      return input.replace(/:0$/, '');
    });
    const out = node.name;
    const attr = node.attr ?? {};
    const int = (key: string) => Number(attr[key]?.i ?? 0);
    const keepDims = attr.keep_dims?.b === true ? 1 : 0;
    /** The second input's constant axes as the 1-D tensor ONNX wants (TF also takes a scalar). */
    const axes = () => g.ints(constInts(inputs[1]!, where));

    switch (node.op) {
      case 'Const': {
        const weight = weights.get(node.name);
        if (weight === undefined) throw new UnsupportedGraphError(`${where}: no weight of that name in the shards`);
        g.initializer(out, weight);
        break;
      }
      case 'Placeholder': {
        // `indices` and `values`, TF int32: int64 here like every integer.
        const dims = (attr.shape as { shape?: { dim?: { size: string }[] } } | undefined)?.shape?.dim?.map((d) => Number(d.size)) ?? [];
        graphInputs.push(g.tensorInfo(node.name, INT64, dims.map((size, axis) => (size < 0 ? `${node.name}_${axis}` : size))));
        break;
      }
      case 'Add': case 'BiasAdd': g.node('Add', inputs, out); break;
      case 'Sub': g.node('Sub', inputs, out); break;
      case 'Mul': g.node('Mul', inputs, out); break;
      case 'RealDiv': g.node('Div', inputs, out); break;
      case 'Maximum': g.node('Max', inputs, out); break;
      case 'Less': g.node('Less', inputs, out); break;
      case 'Greater': g.node('Greater', inputs, out); break;
      case 'LogicalNot': g.node('Not', inputs, out); break;
      case 'Sin': g.node('Sin', inputs, out); break;
      case 'Cos': g.node('Cos', inputs, out); break;
      case 'Relu': g.node('Relu', inputs, out); break;
      case 'Tanh': g.node('Tanh', inputs, out); break;
      case 'Shape': g.node('Shape', inputs, out); break;
      case 'Range': g.node('Range', inputs, out); break;
      case 'GatherNd': g.node('GatherND', inputs, out); break;
      case 'Square': g.node('Mul', [inputs[0]!, inputs[0]!], out); break;
      case 'Rsqrt': g.node('Reciprocal', [g.node('Sqrt', [inputs[0]!])], out); break;
      case 'Softmax': g.node('Softmax', inputs, out, [{ name: 'axis', i: -1 }]); break;
      case 'Cast': g.node('Cast', inputs, out, [{ name: 'to', i: onnxType(attr.DstT?.type, where) }]); break;
      case 'Reshape': g.node('Reshape', inputs, out); break;
      case 'Squeeze': g.node('Squeeze', [inputs[0]!, g.ints((attr.squeeze_dims?.list?.i ?? []).map(BigInt))], out); break;
      case 'ExpandDims': g.node('Unsqueeze', [inputs[0]!, axes()], out); break;
      case 'Transpose': g.node('Transpose', [inputs[0]!], out, [{ name: 'perm', ints: constInts(inputs[1]!, where).map(Number) }]); break;
      case 'Sum': g.node('ReduceSum', [inputs[0]!, axes()], out, [{ name: 'keepdims', i: keepDims }]); break;
      case 'Mean': g.node('ReduceMean', [inputs[0]!, axes()], out, [{ name: 'keepdims', i: keepDims }]); break;
      case 'Max': g.node('ReduceMax', [inputs[0]!, axes()], out, [{ name: 'keepdims', i: keepDims }]); break;
      case 'Prod': g.node('ReduceProd', [inputs[0]!, axes()], out, [{ name: 'keepdims', i: keepDims }]); break;
      case 'GatherV2': {
        const [axis] = constInts(inputs[2]!, where);
        g.node('Gather', [inputs[0]!, inputs[1]!], out, [{ name: 'axis', i: Number(axis) }]);
        break;
      }
      case 'ConcatV2': {
        const [axis] = constInts(inputs[inputs.length - 1]!, where);
        g.node('Concat', inputs.slice(0, -1), out, [{ name: 'axis', i: Number(axis) }]);
        break;
      }
      case 'Pack': {
        const axis = g.ints([BigInt(int('axis'))]);
        g.node('Concat', inputs.map((input) => g.node('Unsqueeze', [input, axis])), out, [{ name: 'axis', i: int('axis') }]);
        break;
      }
      case 'Where': {
        // One argument: the coordinates of the true elements, one row each (ONNX gives them as columns).
        if (inputs.length !== 1) throw new UnsupportedGraphError(`${where}: only the one-argument form is converted`);
        g.node('Transpose', [g.node('NonZero', inputs)], out, [{ name: 'perm', ints: [1, 0] }]);
        break;
      }
      case 'SparseToDense': {
        const [indices, shape, values, fill] = inputs as [string, string, string, string];
        g.node('ScatterND', [g.node('Expand', [fill, shape]), indices, values], out);
        break;
      }
      case 'ScatterNd': {
        // Into zeros; the graph's indices come from Where, so no two updates share a place and
        // TF's summing of duplicates never applies.
        const [indices, updates, shape] = inputs as [string, string, string];
        const zeros = g.node('ConstantOfShape', [shape], undefined, [{ name: 'value', t: g.tensor('zero', { kind: 'float', dims: [1], values: Float32Array.of(0) }) }]);
        g.node('ScatterND', [zeros, indices, updates], out);
        break;
      }
      case 'StridedSlice': g.stridedSlice(inputs, out, constInts(inputs[1]!, where), constInts(inputs[2]!, where), constInts(inputs[3]!, where), attr, where); break;
      case 'Slice': {
        const begin = constInts(inputs[1]!, where);
        const size = constInts(inputs[2]!, where);
        const ends = size.map((n, i) => (n < 0n ? INT64_MAX : begin[i]! + n));
        g.node('Slice', [inputs[0]!, g.ints(begin), g.ints(ends)], out);
        break;
      }
      case 'SplitV': {
        const [axis] = constInts(inputs[2]!, where);
        const count = int('num_split');
        const outputs = Array.from({ length: count }, (_, i) => (i === 0 ? out : `${out}:${i}`));
        g.multiNode('Split', [inputs[0]!, inputs[1]!], outputs, [{ name: 'axis', i: Number(axis) }]);
        break;
      }
      case 'MatMul': case 'BatchMatMul': {
        const [a, b] = [inputs[0]!, inputs[1]!];
        const flipA = attr.transpose_a?.b === true || attr.adj_x?.b === true;
        const flipB = attr.transpose_b?.b === true || attr.adj_y?.b === true;
        g.node('MatMul', [flipA ? g.swapLastTwo(a, node.op) : a, flipB ? g.swapLastTwo(b, node.op) : b], out);
        break;
      }
      case 'Conv2D': {
        // Only the 1×1, stride 1, NHWC convolutions the graph uses for its q/k/v and output
        // projections: a product over the channel axis, so a MatMul with the kernel's [in, out] matrix.
        const kernel = weights.get(inputs[1]!);
        const ones = (key: string) => (attr[key]?.list?.i ?? []).every((v) => Number(v) === 1);
        const nhwc = text(attr.data_format) === 'NHWC';
        if (kernel?.kind !== 'float' || kernel.dims[0] !== 1 || kernel.dims[1] !== 1 || !ones('strides') || !ones('dilations') || !nhwc) {
          throw new UnsupportedGraphError(`${where}: only 1×1 NHWC convolutions with stride and dilation 1 are converted`);
        }
        const matrix = g.initializer(`${inputs[1]}__matrix`, { ...kernel, dims: kernel.dims.slice(2) });
        g.node('MatMul', [inputs[0]!, matrix], out);
        break;
      }
      default:
        throw new UnsupportedGraphError(`${where}: this op is not converted`);
    }
  }

  const outputs = nodes.filter((node) => !consumed.has(node.name) && node.op !== 'Const');
  if (outputs.length !== 1) throw new UnsupportedGraphError(`${modelFile}: expected one output node, found ${outputs.length}`);
  return g.model(graphInputs, [g.tensorInfo(outputs[0]!.name, FLOAT, ['texts', 512])]);
}

/** ONNX wants every node after its inputs; model.json does not promise that order. */
function topologicalOrder(nodes: TfNode[], byName: Map<string, TfNode>, modelFile: string): TfNode[] {
  const ordered: TfNode[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: TfNode): void => {
    const seen = state.get(node.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new UnsupportedGraphError(`${modelFile}: node ${node.name} is part of a cycle`);
    state.set(node.name, 'visiting');
    for (const input of node.input ?? []) {
      const source = byName.get(input.replace(/^\^/, '').replace(/:\d+$/, ''));
      if (source === undefined) throw new UnsupportedGraphError(`${modelFile}: node ${node.name} reads ${input}, which no node makes`);
      visit(source);
    }
    state.set(node.name, 'done');
    ordered.push(node);
  };
  // Recursive: USE-lite's longest path is a few hundred nodes, far from the stack's limit.
  for (const node of nodes) visit(node);
  return ordered;
}

interface Attribute {
  name: string;
  i?: number;
  ints?: number[];
  t?: OnnxTypes.ITensorProto;
}

/** Collects ONNX nodes and initializers under the TF graph's names. */
class OnnxGraph {
  private readonly nodes: OnnxTypes.INodeProto[] = [];
  private readonly initializers: OnnxTypes.ITensorProto[] = [];
  private counter = 0;

  node(opType: string, input: string[], output = `${opType}__${this.counter++}`, attributes: Attribute[] = []): string {
    this.multiNode(opType, input, [output], attributes);
    return output;
  }

  multiNode(opType: string, input: string[], output: string[], attributes: Attribute[] = []): void {
    const attribute = attributes.map(({ name, i, ints, t }) =>
      t ? { name, type: TENSOR, t } : ints ? { name, type: INTS, ints } : { name, type: INT, i: i ?? 0 },
    );
    this.nodes.push({ opType, input, output, name: output[0], attribute });
  }

  initializer(name: string, weight: Weight): string {
    this.initializers.push(this.tensor(name, weight));
    return name;
  }

  tensor(name: string, weight: Weight): OnnxTypes.ITensorProto {
    if (weight.kind === 'float') {
      const values = weight.values;
      return { name, dims: weight.dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) };
    }
    return { name, dims: weight.dims, dataType: INT64, rawData: new Uint8Array(BigInt64Array.from(weight.values).buffer) };
  }

  /** A 1-D int64 constant (axes, slice bounds). */
  ints(values: bigint[]): string {
    return this.initializer(`ints__${this.counter++}`, { kind: 'int', dims: [values.length], values });
  }

  /** Batched matrices transposed: perm keeps the leading axes (the graph's products are 4-D). */
  swapLastTwo(input: string, op: string): string {
    const perm = op === 'MatMul' ? [1, 0] : [0, 1, 3, 2];
    return this.node('Transpose', [input], undefined, [{ name: 'perm', ints: perm }]);
  }

  /** TF's StridedSlice with constant bounds and masks: a Slice, then a Squeeze for shrunk axes. */
  stridedSlice(inputs: string[], out: string, begin: bigint[], end: bigint[], strides: bigint[], attr: Record<string, TfAttr>, where: string): void {
    const mask = (key: string) => Number(attr[key]?.i ?? 0);
    if (mask('ellipsis_mask') !== 0 || mask('new_axis_mask') !== 0) throw new UnsupportedGraphError(`${where}: ellipsis and new-axis masks are not converted`);
    if (strides.some((s) => s !== 1n)) throw new UnsupportedGraphError(`${where}: only stride 1 is converted`);
    const starts: bigint[] = [];
    const ends: bigint[] = [];
    const shrunk: bigint[] = [];
    begin.forEach((b, axis) => {
      const bit = 1 << axis;
      const start = mask('begin_mask') & bit ? 0n : b;
      starts.push(start);
      if (mask('shrink_axis_mask') & bit) {
        ends.push(start === -1n ? INT64_MAX : start + 1n);
        shrunk.push(BigInt(axis));
      } else {
        ends.push(mask('end_mask') & bit ? INT64_MAX : end[axis]!);
      }
    });
    const axes = this.ints(begin.map((_, axis) => BigInt(axis)));
    const sliced = this.node('Slice', [inputs[0]!, this.ints(starts), this.ints(ends), axes], shrunk.length > 0 ? undefined : out);
    if (shrunk.length > 0) this.node('Squeeze', [sliced, this.ints(shrunk)], out);
  }

  tensorInfo(name: string, elemType: number, dims: Array<string | number>): OnnxTypes.IValueInfoProto {
    const dim = dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
    return { name, type: { tensorType: { elemType, shape: { dim } } } };
  }

  model(inputs: OnnxTypes.IValueInfoProto[], outputs: OnnxTypes.IValueInfoProto[]): Uint8Array {
    // Constants the conversion read as attributes (axes, permutations) or re-shaped (the 1×1
    // convolution kernels) are left out: nothing reads them.
    const read = new Set(this.nodes.flatMap((node) => node.input ?? []));
    const initializer = this.initializers.filter((tensor) => read.has(tensor.name!));
    const graph = { name: 'use-lite', node: this.nodes, initializer, input: inputs, output: outputs };
    const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: OPSET }], producerName: 'relata', graph });
    return onnx.ModelProto.encode(model).finish();
  }
}
