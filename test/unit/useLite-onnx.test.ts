// USE-lite runs on onnxruntime, on a graph converted at load time from the installed TF.js model
// (useLite/onnxGraph.ts), with TF.js as the fallback. These tests load both engines in this
// thread and hold the converted graph to TF.js's vectors (cosine ≥ 0.9999, the bar under which
// the model id would have to change), check that a graph onnxruntime refuses falls back to TF.js
// with the reason said once, and that the converter names the file and the op it cannot convert.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import onnxProto from 'onnx-proto';

import { dot } from '../../server/src/embed/vectors.ts';
import { USE_LITE_DIMS } from '../../server/src/embed/useLite/descriptor.ts';
import { useLiteFiles } from '../../server/src/embed/useLite/modelFiles.ts';
import { useLiteOnnxModel } from '../../server/src/embed/useLite/onnxGraph.ts';
import { UseLiteEmbedder } from '../../server/src/embed/useLite/useLiteEmbedder.ts';
import { UseLiteModel } from '../../server/src/embed/useLite/useLiteModel.ts';
import { tempDir } from '../support/tempFolder.ts';

const LONG = Array.from(
  { length: 60 },
  (_, i) => `Paragraph ${i}: the trial enrolled patients with chronic kidney disease and measured the change in filtration rate after twelve months of treatment.`,
).join(' ');

const TEXTS = [
  'Alterations of the architecture of cerebral white matter in the developing human brain can affect cortical development.',
  'Vitamin D deficiency is associated with a higher risk of fractures in elderly women.',
  'The contract may be terminated by either party with ninety days written notice.',
  'Invoices are payable within thirty days of receipt.',
  'A kitten rests on a rug, looking at sparrows through the window.',
  'The forklift failed its annual safety inspection in bay 4.',
  'Quarterly revenue grew by 12% (to $4.3M), driven by exports to the EU.',
  'BRCA1 mutations increase lifetime breast cancer risk to 55-72%.',
  'What did the refurbishment of the warehouse cost?',
  'Ok.',
  'no',
  'e = mc^2; ∑ x_i → ∞ as n ≫ 1',
  'https://example.org/path?query=1&other=two#anchor',
  'The quick brown fox jumps over the lazy dog.',
  'Sprinkler heads in aisle 7 were replaced after the leak was reported on 3 March 2024.',
  'Smoking cessation reduces the risk of cardiovascular events within five years.',
  'The supplier agreed to deliver 4,000 units per month, subject to force majeure.',
  'In mice, knockout of the gene led to embryonic lethality at day E12.5.',
  'Ceci est une phrase en français, avec des accents: été, où, garçon.',
  'Dies ist ein deutscher Satz über Verträge und Rechnungen.',
  'Это предложение написано по-русски.',
  'Η σύμβαση υπογράφηκε στην Αθήνα.',
  'هذه جملة باللغة العربية.',
  'यह हिंदी में एक वाक्य है।',
  '这是一个关于合同的中文句子。',
  '日本語の文章です。契約書を確認してください。',
  '한국어 문장입니다.',
  '🚀🔥 launch day! ✅',
  '    spaced     out\t\ttext\n\nacross lines   ',
  '',
  '   ',
  LONG,
  `${LONG} ${LONG}`,
  'Short one after the long ones.',
];

function minCosine(a: Float32Array, b: Float32Array): number {
  let min = 1;
  for (let row = 0; row < a.length / USE_LITE_DIMS; row++) {
    const span = [row * USE_LITE_DIMS, (row + 1) * USE_LITE_DIMS] as const;
    min = Math.min(min, dot(a.subarray(...span), b.subarray(...span)));
  }
  return min;
}

describe('USE-lite on onnxruntime', () => {
  let tfjs: UseLiteModel;
  let onnx: UseLiteModel;

  before(async () => {
    tfjs = await UseLiteModel.load(undefined, { engine: 'tfjs' });
    onnx = await UseLiteModel.load();
  });
  after(async () => {
    await tfjs.dispose();
    await onnx.dispose();
  });

  it('runs on onnxruntime by default', () => {
    assert.equal(onnx.engineName, 'onnx');
    assert.equal(onnx.fallback, undefined);
    assert.equal(tfjs.engineName, 'tfjs');
  });

  it('gives TF.js\'s vectors for real, empty, very long and non-Latin texts, in one batch and one by one', async () => {
    const expected = await tfjs.embed(TEXTS);
    const batched = await onnx.embed(TEXTS);
    assert.equal(batched.length, TEXTS.length * USE_LITE_DIMS);
    assert.ok(batched.every(Number.isFinite), 'every value is finite');
    const batchedCosine = minCosine(expected, batched);
    assert.ok(batchedCosine >= 0.9999, `min cosine in one batch ${batchedCosine}`);

    const alone = new Float32Array(expected.length);
    for (const [i, text] of TEXTS.entries()) alone.set(await onnx.embed([text]), i * USE_LITE_DIMS);
    const aloneCosine = minCosine(expected, alone);
    assert.ok(aloneCosine >= 0.9999, `min cosine one by one ${aloneCosine}`);
  });

  it('tells different texts apart as TF.js does (the vectors are not all alike)', async () => {
    const [a, b] = [await onnx.embed([TEXTS[0]!]), await onnx.embed([TEXTS[2]!])];
    const [ta, tb] = [await tfjs.embed([TEXTS[0]!]), await tfjs.embed([TEXTS[2]!])];
    assert.ok(Math.abs(dot(a, b) - dot(ta, tb)) < 1e-4, `cosine between two texts: onnx ${dot(a, b)}, TF.js ${dot(ta, tb)}`);
    assert.ok(dot(a, b) < 0.9, 'a medical sentence and a contract clause are not near-duplicates');
  });
});

describe('USE-lite falls back to TF.js', () => {
  const { onnx } = onnxProto;

  it('when onnxruntime cannot create a session from the graph', async () => {
    // Stands for a converted graph onnxruntime refuses (a model package this converter misreads,
    // or an onnxruntime that cannot parse it): bytes that are no ONNX model at all.
    const model = await UseLiteModel.load(undefined, { onnx: { buildModel: () => new TextEncoder().encode('not an onnx model') } });
    try {
      assert.equal(model.engineName, 'tfjs');
      assert.match(model.fallback ?? '', /onnxruntime cannot run USE-lite \(.+\); TF\.js runs it instead/);
      const reference = await UseLiteModel.load(undefined, { engine: 'tfjs' });
      try {
        assert.ok(minCosine(await model.embed(TEXTS.slice(0, 5)), await reference.embed(TEXTS.slice(0, 5))) > 0.999999);
      } finally {
        await reference.dispose();
      }
    } finally {
      await model.dispose();
    }
  });

  it('when the graph loads but cannot run (the first run proves the engine)', async () => {
    // A valid ONNX model that takes no `indices` and `values`: onnxruntime creates the session,
    // then refuses the feeds.
    const graph = {
      name: 'wrong-inputs',
      node: [{ opType: 'Identity', input: ['x'], output: ['y'], name: 'y' }],
      input: [{ name: 'x', type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: [{ dimValue: 1 }] } } } }],
      output: [{ name: 'y', type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: [{ dimValue: 1 }] } } } }],
    };
    const bytes = onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 18 }], graph })).finish();
    const model = await UseLiteModel.load(undefined, { onnx: { buildModel: () => bytes } });
    try {
      assert.equal(model.engineName, 'tfjs');
      assert.match(model.fallback ?? '', /onnxruntime cannot run USE-lite/);
      assert.equal((await model.embed(['still embeds'])).length, USE_LITE_DIMS);
    } finally {
      await model.dispose();
    }
  });

  it('reports a fallback once for all threads, and the threads still embed', async () => {
    // Stand-in threads reporting what a real worker reports after falling back (a real one cannot
    // be handed a broken graph: functions do not cross into a worker).
    const fallbackWorker = () =>
      new Worker(
        `const { parentPort } = require('node:worker_threads');
        parentPort.postMessage({ kind: 'ready', loadMs: 0, engine: 'tfjs', fallback: 'onnxruntime cannot run USE-lite (no binary); TF.js runs it instead' });
        parentPort.on('message', ({ job, texts }) => {
          const buffer = new Float32Array(texts.length * 512).fill(1 / Math.sqrt(512)).buffer;
          parentPort.postMessage({ kind: 'vectors', job, buffer, count: texts.length }, [buffer]);
        });`,
        { eval: true },
      );
    const lines: string[] = [];
    const embedder = await UseLiteEmbedder.start({ threads: 2, startWorker: fallbackWorker, log: (line) => lines.push(line) });
    try {
      assert.deepEqual(embedder.engines(), ['tfjs', 'tfjs']);
      assert.deepEqual(lines, ['USE-lite: onnxruntime cannot run USE-lite (no binary); TF.js runs it instead']);
      assert.equal((await embedder.embed(['a', 'b', 'c'])).length, 3);
    } finally {
      await embedder.close();
    }
  });
});

describe('USE-lite embedder threads', () => {
  it('run the converted graph on onnxruntime in real worker threads, with TF.js\'s vectors', async () => {
    const lines: string[] = [];
    const embedder = await UseLiteEmbedder.start({ threads: 1, log: (line) => lines.push(line) });
    const reference = await UseLiteModel.load(undefined, { engine: 'tfjs' });
    try {
      assert.deepEqual(embedder.engines(), ['onnx']);
      assert.deepEqual(lines, [], 'no fallback reported');
      const vectors = await embedder.embed(TEXTS);
      const expected = await reference.embed(TEXTS);
      const joined = new Float32Array(expected.length);
      vectors.forEach((vector, i) => joined.set(vector, i * USE_LITE_DIMS));
      const cosine = minCosine(expected, joined);
      assert.ok(cosine >= 0.9999, `min cosine ${cosine}`);
    } finally {
      await embedder.close();
      await reference.dispose();
    }
  });
});

describe('USE-lite embedder restarts', () => {
  it('still run on onnxruntime after every thread that loaded it has exited', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../support/useLiteRestarts.ts', import.meta.url))], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    assert.equal(child.status, 0, child.stderr);
    const { engines, fallbacks } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { engines: string[][]; fallbacks: string[] };
    assert.deepEqual(fallbacks, []);
    assert.deepEqual(engines, [['onnx'], ['onnx'], ['onnx']]);
  });
});

describe('USE-lite embedder closed mid-batch', () => {
  it('lets onnxruntime finish the batch in hand: the process is not aborted', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../support/useLiteCloseMidRun.ts', import.meta.url))], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    assert.equal(child.signal, null, `ended by ${child.signal}: ${child.stderr}`);
    assert.equal(child.status, 0, child.stderr);
    const { outcomes } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { outcomes: string[] };
    assert.equal(outcomes.length, 4);
    // The embedder stops taking work when closed; what was in hand either finished or was refused, never lost silently.
    for (const outcome of outcomes) assert.match(outcome, /^(embedded|rejected: .+)$/);
  });
});

describe('USE-lite graph conversion', () => {
  it('names the file and the op it does not convert', (t) => {
    const dir = tempDir(t);
    const modelJson = {
      modelTopology: { node: [{ name: 'values', op: 'Placeholder', attr: {} }, { name: 'odd', op: 'Erf', input: ['values'] }] },
      weightsManifest: [],
    };
    writeFileSync(path.join(dir, 'model.json'), JSON.stringify(modelJson));
    assert.throws(() => useLiteOnnxModel(dir), (error: Error) => {
      assert.ok(error.message.includes(path.join(dir, 'model.json')), error.message);
      assert.match(error.message, /node odd \(Erf\): this op is not converted/);
      return true;
    });
  });

  it('names the file when model.json is not a graph model', (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, 'model.json'), '{ "modelTopology": ');
    assert.throws(() => useLiteOnnxModel(dir), /model\.json cannot be read as a TF\.js graph model/);
    writeFileSync(path.join(dir, 'model.json'), '{ "format": "layers-model" }');
    assert.throws(() => useLiteOnnxModel(dir), /model\.json is not a TF\.js graph model \(no modelTopology\.node or weightsManifest\)/);
  });

  it('converts the installed model to the same bytes each time, weights included', () => {
    const modelDir = path.dirname(fileURLToPath(useLiteFiles().modelUrl));
    const first = useLiteOnnxModel(modelDir);
    const second = useLiteOnnxModel(modelDir);
    assert.ok(first.length > 20_000_000, `${first.length} bytes: the weights are in the graph`);
    assert.ok(Buffer.from(first).equals(Buffer.from(second)), 'the same bytes twice');
  });
});
