// USE-lite runs three kernels of its own (useLite/kernels.ts) instead of TF.js's. These tests
// compare the two in one thread, computed here from both paths: each kernel's results, and the
// model's vectors for fixed texts, batched in input order (the path before) and sorted by length
// (the embedder's order now).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { dot } from '../../server/src/embed/vectors.ts';
import { useFastKernels, type KernelRegistry } from '../../server/src/embed/useLite/kernels.ts';
import { USE_LITE_DIMS } from '../../server/src/embed/useLite/descriptor.ts';
import { requireRuntime } from '../../server/src/embed/useLite/modelFiles.ts';
import { UseLiteModel } from '../../server/src/embed/useLite/useLiteModel.ts';
import { seededRandom } from '../support/generateCorpus.ts';

interface Tensor {
  dataSync(): Float32Array;
  dispose(): void;
}
type Runtime = KernelRegistry & {
  tensor(values: Float32Array | Int32Array, shape: number[], dtype?: string): Tensor;
  matMul(a: Tensor, b: Tensor, transposeA?: boolean, transposeB?: boolean): Tensor;
  gather(x: Tensor, indices: Tensor, axis?: number): Tensor;
  sin(x: Tensor): Tensor;
  cos(x: Tensor): Tensor;
  split(x: Tensor, sizes: number | number[], axis?: number): Tensor[];
  memory(): { numTensors: number; numBytes: number };
};

const TEXTS = [
  'Vitamin D supplementation does not reduce the risk of fractures in older adults.',
  'The forklift failed its annual safety inspection in bay 4.',
  '',
  'Tumour-associated macrophages promote angiogenesis and metastasis in breast cancer models; ' +
    'depleting them with clodronate liposomes slowed growth of xenografts in mice, while restoring ' +
    'CSF-1 signalling brought the growth back. The effect depended on VEGF-A produced by the ' +
    'macrophages themselves, as shown by conditional knockouts, and it was absent in animals lacking ' +
    'the receptor on endothelial cells. We discuss what this means for combination therapy.',
  'Quarterly revenue grew by twelve percent, driven by exports.',
  'Ok.',
  'A kitten rests on a rug, looking at sparrows through the window, while the rain keeps falling on the garden outside.',
];

function cosines(a: Float32Array, b: Float32Array): number[] {
  const result: number[] = [];
  for (let row = 0; row < a.length / USE_LITE_DIMS; row++) {
    result.push(dot(a.subarray(row * USE_LITE_DIMS, (row + 1) * USE_LITE_DIMS), b.subarray(row * USE_LITE_DIMS, (row + 1) * USE_LITE_DIMS)));
  }
  return result;
}

describe('USE-lite kernels', () => {
  let model: UseLiteModel;
  let tf: Runtime;

  before(async () => {
    model = await UseLiteModel.load(undefined, { engine: 'tfjs' });
    tf = requireRuntime() as Runtime;
  });

  it('computes the same matrix products as TF.js\'s own kernel, for batches, transposes and a single product', () => {
    const random = seededRandom(19);
    const values = (size: number) => Float32Array.from({ length: size }, () => random() * 2 - 1);
    const cases: { a: number[]; b: number[]; transposeA: boolean; transposeB: boolean }[] = [
      { a: [2, 3, 5, 7], b: [2, 3, 7, 4], transposeA: false, transposeB: false },
      { a: [2, 3, 5, 7], b: [2, 3, 4, 7], transposeA: false, transposeB: true },
      { a: [1, 6, 8], b: [1, 5, 8], transposeA: false, transposeB: true },
      { a: [4, 7, 5], b: [4, 7, 3], transposeA: true, transposeB: false },
      { a: [1, 9, 6], b: [1, 6, 2], transposeA: false, transposeB: false },
    ];
    for (const { a, b, transposeA, transposeB } of cases) {
      const left = tf.tensor(values(a.reduce((x, y) => x * y)), a);
      const right = tf.tensor(values(b.reduce((x, y) => x * y)), b);
      const product = (batched: boolean) => {
        useFastKernels(tf, batched);
        const out = tf.matMul(left, right, transposeA, transposeB);
        const data = out.dataSync().slice();
        out.dispose();
        return data;
      };
      const expected = product(false);
      const actual = product(true);
      assert.equal(actual.length, expected.length);
      for (let i = 0; i < actual.length; i++) assert.ok(Math.abs(actual[i]! - expected[i]!) < 1e-5, `${a} × ${b}: element ${i}`);
      left.dispose();
      right.dispose();
    }
  });

  it('gathers rows and splits tensors exactly as TF.js\'s own kernels, on any axis', () => {
    const random = seededRandom(7);
    const x = tf.tensor(Float32Array.from({ length: 4 * 6 * 5 }, () => random()), [4, 6, 5]);
    const ids = tf.tensor(Int32Array.from([3, 0, 0, 2, 1, 3]), [2, 3], 'int32');
    const results = (fast: boolean) => {
      useFastKernels(tf, fast);
      const outputs = [
        tf.gather(x, ids, 0), tf.gather(x, ids, 1), tf.gather(x, ids, -1),
        ...tf.split(x, [2, 1, 2], -1), ...tf.split(x, [4, -1], 1), ...tf.split(x, 2, 0), ...tf.split(x, [0, 6], 1),
      ];
      const data = outputs.map((tensor) => Array.from(tensor.dataSync()));
      for (const tensor of outputs) tensor.dispose();
      return data;
    };
    assert.deepEqual(results(true), results(false));
    x.dispose();
    ids.dispose();
  });

  it('computes sines and cosines within 1e-5 of TF.js\'s own kernels, and as closely as float32 allows', () => {
    const x = tf.tensor(Float32Array.from({ length: 2000 }, (_, i) => (i - 1000) * 0.137), [40, 50]);
    const results = (fast: boolean) => {
      useFastKernels(tf, fast);
      const outputs = [tf.sin(x), tf.cos(x)];
      const data = outputs.map((tensor) => tensor.dataSync().slice());
      for (const tensor of outputs) tensor.dispose();
      return data;
    };
    const [expected, actual] = [results(false), results(true)];
    // The backend's own cosine strays by up to ~4.5e-6 near |x| = 130; V8's is the exact value rounded.
    const input = x.dataSync();
    for (const [n, values] of actual.entries()) {
      for (let i = 0; i < values.length; i++) {
        assert.ok(Math.abs(values[i]! - expected[n]![i]!) <= 1e-5, `${n ? 'cos' : 'sin'} of element ${i}`);
        assert.equal(values[i], Math.fround((n ? Math.cos : Math.sin)(input[i]!)));
      }
    }
    x.dispose();
  });

  it('gives the vectors of the path before it (TF.js\'s kernels, input order) to cosine 0.9999, batched by length', async () => {
    useFastKernels(tf, false);
    const before = await model.embed(TEXTS);
    useFastKernels(tf, true);
    const order = TEXTS.map((_, i) => i).sort((a, b) => TEXTS[a]!.length - TEXTS[b]!.length);
    const sorted = await model.embed(order.map((i) => TEXTS[i]!));
    const after = new Float32Array(before.length);
    order.forEach((i, rank) => after.set(sorted.subarray(rank * USE_LITE_DIMS, (rank + 1) * USE_LITE_DIMS), i * USE_LITE_DIMS));
    for (const [i, cosine] of cosines(before, after).entries()) assert.ok(cosine >= 0.9999, `text ${i}: cosine ${cosine}`);
    // Alone or in a batch, a text keeps its vector.
    const alone = await model.embed([TEXTS[3]!]);
    assert.ok(cosines(alone, after.subarray(3 * USE_LITE_DIMS, 4 * USE_LITE_DIMS))[0]! >= 0.9999);
  });

  it('leaves no tensor memory behind', async () => {
    useFastKernels(tf, true);
    await model.embed(TEXTS);
    const { numTensors, numBytes } = tf.memory();
    for (let i = 0; i < 3; i++) await model.embed(TEXTS);
    assert.deepEqual(tf.memory(), { ...tf.memory(), numTensors, numBytes });
  });
});
