// The ONNX embedder on BERT-shaped models generated here with random weights (no real model can
// be downloaded on these machines): tokenising, truncation, padding, pooling, batching, the
// descriptor and the errors a user sees for a folder that is not a usable model.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
// The test thread loads onnxruntime-node before any embedder starts its worker thread, as the
// embedder itself does (see sessionThread.ts), to read a graph's raw output.
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { createOnnxEmbedder, ModelFolderError } from '../../server/src/embed/onnx/index.ts';
import { modelMaxLength } from '../../server/src/embed/onnx/modelFolder.ts';
import { passageTokenizer } from '../../server/src/embed/onnx/passageTokenizer.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { TINY_VOCAB, writeTinyOnnxModel, type TinyModelFolderOptions } from '../support/tinyOnnxModel.ts';

function modelFolder(t: TestContext, options: TinyModelFolderOptions = {}, name = 'tiny-bert'): string {
  return writeTinyOnnxModel(path.join(tempDir(t, 'relata-onnx-'), name), options);
}

async function embedder(t: TestContext, dir: string, options: { batchSize?: number; threads?: number } = {}): Promise<Embedder> {
  const created = await createOnnxEmbedder(dir, { threads: 1, ...options });
  t.after(() => created.close());
  return created;
}

function assertClose(actual: Float32Array, expected: Float32Array, tolerance = 1e-5): void {
  assert.equal(actual.length, expected.length, 'same dimensions');
  const worst = Math.max(...actual.map((value, i) => Math.abs(value - expected[i]!)));
  assert.ok(worst <= tolerance, `vectors differ by up to ${worst}`);
}

function assertDifferent(a: Float32Array, b: Float32Array): void {
  assert.ok(Math.max(...a.map((value, i) => Math.abs(value - b[i]!))) > 1e-3, 'vectors differ');
}

const length = (vector: Float32Array) => Math.hypot(...vector);

describe('tokenising', () => {
  const fromVocab = (config: Record<string, unknown> = {}) =>
    passageTokenizer({ kind: 'vocab.txt', file: '/models/tiny/vocab.txt', vocab: [...TINY_VOCAB] }, config);

  test('known words stay whole, longer words split into ## pieces, unknown words become [UNK]', () => {
    const tokenizer = fromVocab();
    assert.deepEqual(tokenizer.tokens('the contracts embedding, unrelated zebra!'), [
      'the', 'contract', '##s', 'embed', '##ding', ',', 'un', '##related', '[UNK]', '!',
    ]);
  });

  test('vocab.txt input is lower-cased (and accents stripped) unless do_lower_case is false', () => {
    assert.deepEqual(fromVocab().tokens('The CONTRACT Réport'), ['the', 'contract', 'report']);
    assert.deepEqual(fromVocab({ do_lower_case: false }).tokens('The contract'), ['[UNK]', 'contract']);
  });

  test('a passage is framed by [CLS] and [SEP] with their ids from the vocabulary', () => {
    const { ids, typeIds } = fromVocab().encode('the model', 100);
    const id = (token: string) => TINY_VOCAB.indexOf(token);
    assert.deepEqual(ids, [id('[CLS]'), id('the'), id('model'), id('[SEP]')]);
    assert.deepEqual(typeIds, [0, 0, 0, 0]);
  });

  test('truncation keeps the first tokens and still ends with [SEP]', () => {
    const { ids } = fromVocab().encode('the contract of the party', 3);
    assert.deepEqual(ids.map((id) => TINY_VOCAB[id]), ['[CLS]', 'the', 'contract', 'of', '[SEP]']);
  });

  test('countTokens counts the passage’s own tokens, special tokens excluded, before truncation', async (t) => {
    const model = await embedder(t, modelFolder(t, { maxPositions: 16 }));
    assert.equal(model.countTokens('the contracts embedding'), 5);
    assert.equal(model.countTokens(''), 0);
    assert.equal(model.countTokens(Array(40).fill('search').join(' ')), 40);
    assert.equal(model.descriptor.maxTokens, 14, '16 positions minus [CLS] and [SEP]');
  });

  test('a tokenizer.json is used when present (here a cased one, so case now matters)', async (t) => {
    const cased = await embedder(t, modelFolder(t, { tokenizer: 'tokenizer.json', lowercase: false }));
    const [upper, lower, unknown] = await cased.embed(['CONTRACT', 'contract', 'zebra']);
    assertDifferent(upper!, lower!);
    assertClose(upper!, unknown!); // both are [UNK] to a cased tokenizer
    const uncased = await embedder(t, modelFolder(t, { tokenizer: 'vocab.txt' }));
    const [upperAgain, lowerAgain] = await uncased.embed(['CONTRACT', 'contract']);
    assertClose(upperAgain!, lowerAgain!);
  });
});

describe('maximum length', () => {
  test('sentence-transformers’ max_seq_length wins, then model_max_length, then 512; never beyond the position table', () => {
    assert.equal(modelMaxLength({ max_seq_length: 256 }, { model_max_length: 512 }, { max_position_embeddings: 512 }), 256);
    assert.equal(modelMaxLength({}, { model_max_length: 128 }, {}), 128);
    assert.equal(modelMaxLength({}, { model_max_length: 1e30 }, {}), 512, "Hugging Face's 'no limit' placeholder is ignored");
    assert.equal(modelMaxLength({}, {}, {}), 512);
    assert.equal(modelMaxLength({}, { model_max_length: 512 }, { max_position_embeddings: 64 }), 64);
  });

  test('a long passage embeds like its first maxTokens tokens (the model would fail on more positions than it has)', async (t) => {
    const model = await embedder(t, modelFolder(t, { maxPositions: 16 }));
    const words = Array.from({ length: 40 }, (_, i) => ['warehouse', 'crane', 'invoice', 'supplier', 'safety'][i % 5]!);
    const [long, prefix, shorter] = await model.embed([words.join(' '), words.slice(0, 14).join(' '), words.slice(0, 13).join(' ')]);
    assertClose(long!, prefix!);
    assertDifferent(long!, shorter!);
  });
});

describe('pooling and batching', () => {
  const texts = [
    'the contract',
    'a safety report on the crane in the warehouse',
    '',
    'supplier invoice review for the budget of the folder',
    'knowledge',
    'unrelated passages connect to the model',
  ];

  /** The graph's per-token output for one passage, read with onnxruntime directly: [tokens][dims]. */
  async function rawTokenVectors(t: TestContext, dir: string, text: string): Promise<Float32Array[]> {
    const { ids } = passageTokenizer({ kind: 'vocab.txt', file: '', vocab: [...TINY_VOCAB] }, {}).encode(text, 100);
    const session = await InferenceSession.create(path.join(dir, 'model.onnx'));
    t.after(() => session.release());
    const shape = [1, ids.length];
    const output = await session.run({
      input_ids: new Tensor('int64', BigInt64Array.from(ids, BigInt), shape),
      attention_mask: new Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape),
      token_type_ids: new Tensor('int64', new BigInt64Array(ids.length), shape),
    });
    const hidden = output.last_hidden_state!.data as Float32Array;
    const dims = hidden.length / ids.length;
    return ids.map((_, token) => hidden.slice(token * dims, (token + 1) * dims));
  }
  const unit = (vector: Float32Array) => vector.map((value) => value / length(vector));

  test('a vector is the L2-normalised mean of the model’s token vectors (checked against the raw graph output)', async (t) => {
    const dir = modelFolder(t);
    const model = await embedder(t, dir);
    const [vector] = await model.embed(['a safety report']);
    const tokens = await rawTokenVectors(t, dir, 'a safety report');
    const mean = new Float32Array(model.descriptor.dims);
    for (const token of tokens) token.forEach((value, d) => (mean[d]! += value / tokens.length));
    assertClose(vector!, unit(mean));
    assert.equal(model.descriptor.version, 'onnx-mean-pool@1');
  });

  test('a model whose 1_Pooling/config.json asks for the [CLS] token gets that token’s vector', async (t) => {
    const dir = modelFolder(t);
    writeFiles(dir, { '1_Pooling/config.json': JSON.stringify({ word_embedding_dimension: 32, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }) });
    const model = await embedder(t, dir);
    const [vector] = await model.embed(['a safety report']);
    const [cls] = await rawTokenVectors(t, dir, 'a safety report');
    assertClose(vector!, unit(cls!));
    assert.equal(model.descriptor.version, 'onnx-cls-pool@1');
  });

  test('every vector has unit length', async (t) => {
    const model = await embedder(t, modelFolder(t));
    for (const vector of await model.embed(texts)) assert.ok(Math.abs(length(vector) - 1) < 1e-5);
  });

  for (const attention of [false, true]) {
    test(`padding is masked out: a passage batched with a much longer one embeds as it does alone (${attention ? 'with' : 'without'} self-attention)`, async (t) => {
      const model = await embedder(t, modelFolder(t, { attention, maxPositions: 128 }));
      const [alone] = await model.embed(['the contract']);
      const [batched] = await model.embed(['the contract', Array(100).fill('warehouse crane').join(' ')]);
      assertClose(batched!, alone!);
    });
  }

  test('a batch gives the same vectors as one call per passage, in input order, across several inference batches', async (t) => {
    const model = await embedder(t, modelFolder(t, { attention: true }), { batchSize: 2 });
    const together = await model.embed(texts);
    assert.equal(together.length, texts.length);
    for (const [i, text] of texts.entries()) {
      const [single] = await model.embed([text]);
      assertClose(together[i]!, single!);
    }
    assert.deepEqual(await model.embed([]), []);
  });

  test('vectors are deterministic across calls and across embedders', async (t) => {
    const dir = modelFolder(t, { attention: true });
    const first = await embedder(t, dir);
    const second = await embedder(t, dir, { threads: 2 });
    const a = await first.embed(texts);
    const b = await first.embed(texts);
    const c = await second.embed(texts);
    for (const i of texts.keys()) {
      assert.deepEqual(a[i], b[i]);
      assertClose(a[i]!, c[i]!);
    }
  });

  test('a graph without token_type_ids (DistilBERT-style) is fed only what it declares', async (t) => {
    const model = await embedder(t, modelFolder(t, { inputs: ['attention_mask'] }));
    const [vector] = await model.embed(['the contract']);
    assert.equal(vector!.length, 32);
  });

  test('a graph that pools itself (sentence_embedding output) is used as is, then normalised', async (t) => {
    const dir = modelFolder(t, { attention: true, pooledDims: 16 });
    const model = await embedder(t, dir);
    assert.equal(model.descriptor.dims, 16);
    assert.equal(model.descriptor.version, 'onnx-model-pooled@1');
    const [short, , long] = await model.embed(['the contract', '', Array(30).fill('crane').join(' ')]);
    const [shortAlone] = await model.embed(['the contract']);
    assertClose(short!, shortAlone!);
    assert.ok(Math.abs(length(long!) - 1) < 1e-5);
  });
});

describe('descriptor', () => {
  test('names the folder and the model file’s sha256, with dims from the model and the pooling version', async (t) => {
    const dir = modelFolder(t, { hidden: 48 });
    const model = await embedder(t, dir);
    const sha256 = createHash('sha256').update(readFileSync(path.join(dir, 'model.onnx'))).digest('hex');
    assert.deepEqual(model.descriptor, {
      id: `onnx:tiny-bert#${sha256.slice(0, 12)}`,
      dims: 48,
      version: 'onnx-mean-pool@1',
      maxTokens: 62,
    });
  });

  test('two different models in folders of the same name have different ids', async (t) => {
    const one = await embedder(t, modelFolder(t, { seed: 1 }, 'model'));
    const two = await embedder(t, modelFolder(t, { seed: 2 }, 'model'));
    assert.match(one.descriptor.id, /^onnx:model#[0-9a-f]{12}$/);
    assert.notEqual(one.descriptor.id, two.descriptor.id);
  });

  test('a Hugging Face layout with the graph in onnx/model.onnx is accepted', async (t) => {
    const dir = modelFolder(t);
    mkdirSync(path.join(dir, 'onnx'));
    renameSync(path.join(dir, 'model.onnx'), path.join(dir, 'onnx', 'model.onnx'));
    const model = await embedder(t, dir);
    assert.equal(model.descriptor.dims, 32);
  });
});

describe('errors name the folder and the file', () => {
  const rejection = async (dir: string, pattern: RegExp) => {
    await assert.rejects(createOnnxEmbedder(dir, { threads: 1 }), (error: unknown) => {
      assert.ok(error instanceof ModelFolderError, `a ModelFolderError, got ${String(error)}`);
      assert.ok(error.message.includes(dir), `names ${dir}: ${error.message}`);
      assert.match(error.message, pattern);
      return true;
    });
  };

  test('a folder without model.onnx', async (t) => {
    const dir = modelFolder(t);
    rmSync(path.join(dir, 'model.onnx'));
    await rejection(dir, /no model\.onnx/);
  });

  test('a folder with neither tokenizer.json nor vocab.txt', async (t) => {
    await rejection(modelFolder(t, { tokenizer: 'none' }), /neither tokenizer\.json nor vocab\.txt/);
  });

  test('a folder that does not exist', async (t) => {
    await rejection(path.join(tempDir(t), 'missing'), /does not exist/);
  });

  test('a model.onnx that is not an ONNX graph', async (t) => {
    const dir = modelFolder(t);
    writeFileSync(path.join(dir, 'model.onnx'), 'not a model');
    await rejection(dir, /onnxruntime cannot load .*model\.onnx/);
  });

  test('a graph whose output is neither per-token vectors nor a sentence_embedding', async (t) => {
    const dir = modelFolder(t, { tokenOutput: null, pooledDims: 16, pooledOutput: 'pooler_output' });
    await rejection(dir, /output "pooler_output" has shape \[1, 16\], expected \[1, 2, hidden\]/);
  });

  test('a pooling mode Relata does not implement', async (t) => {
    const dir = modelFolder(t);
    writeFiles(dir, { '1_Pooling/config.json': JSON.stringify({ pooling_mode_max_tokens: true }) });
    await rejection(dir, /1_Pooling.config\.json asks for pooling_mode_max_tokens/);
  });

  test('a vocab.txt without [CLS]', async (t) => {
    const dir = modelFolder(t);
    writeFileSync(path.join(dir, 'vocab.txt'), TINY_VOCAB.filter((token) => token !== '[CLS]').join('\n'));
    await rejection(dir, /vocab\.txt .*no \[CLS\]/);
  });

  test('a closed embedder refuses further work', async (t) => {
    const model = await createOnnxEmbedder(modelFolder(t), { threads: 1 });
    await model.close();
    await assert.rejects(model.embed(['the contract']), /closed/);
  });
});

describe('responsiveness', () => {
  test('the calling thread’s event loop keeps running while a model computes', async (t) => {
    const model = await embedder(t, modelFolder(t, { hidden: 256, ffn: 1024, layers: 4, attention: true, maxPositions: 256 }));
    // One batch must take long enough for a stall to show, whatever the machine's speed: the batch
    // doubles until it takes over 200 ms, and only that batch is watched.
    let passages = Array.from({ length: 16 }, () => Array(120).fill('warehouse crane').join(' '));
    let longestGap = 0;
    let elapsed = 0;
    for (let round = 0; round < 6 && elapsed <= 200; round += 1, passages = [...passages, ...passages]) {
      longestGap = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
      }, 5);
      const started = performance.now();
      await model.embed(passages);
      elapsed = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
      clearInterval(timer);
    }
    assert.ok(elapsed > 200, `the batch is long enough to tell (${elapsed.toFixed(0)} ms)`);
    assert.ok(longestGap < elapsed / 2, `longest event-loop stall ${longestGap.toFixed(0)} ms during a ${elapsed.toFixed(0)} ms batch`);
  });
});
