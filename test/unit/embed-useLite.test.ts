// The offline default embedder, for real: two worker threads with the USE-lite model. Checks the
// contract (512-d unit vectors, in order, deterministic), that the calling thread stays free,
// that it retrieves a relevant SciFact abstract among distractors, and that failing threads
// reject calls instead of hanging them (with stand-in workers that fail on purpose).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';

import { dot } from '../../server/src/embed/vectors.ts';
import { USE_LITE_DESCRIPTOR } from '../../server/src/embed/useLite/descriptor.ts';
import { UseLiteModel } from '../../server/src/embed/useLite/useLiteModel.ts';
import { useLiteFiles } from '../../server/src/embed/useLite/modelFiles.ts';
import { createUseLiteEmbedder, UseLiteEmbedder } from '../../server/src/embed/useLite/index.ts';
import { startUseLiteWorker } from '../../server/src/embed/useLite/workerScript.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import { loadAbstracts, loadClaims, loadQrels, scifactAvailable } from '../support/scifact.ts';

const PASSAGES = [
  'The cat sat on the mat and watched the birds outside.',
  'Quarterly revenue grew by twelve percent, driven by exports.',
  'A kitten rests on a rug, looking at sparrows through the window.',
  'The forklift failed its annual safety inspection in bay 4.',
];

function norm(vector: Float32Array): number {
  return Math.sqrt(dot(vector, vector));
}

describe('USE-lite embedder (two model threads)', () => {
  let embedder: Embedder;
  const workers: Worker[] = [];

  before(async () => {
    embedder = await createUseLiteEmbedder({
      threads: 2,
      startWorker: () => {
        const worker = startUseLiteWorker();
        workers.push(worker);
        return worker;
      },
    });
  });
  after(() => embedder?.close());

  it('names the model and its limits', () => {
    assert.deepEqual(embedder.descriptor, { id: 'use-lite@0.2.0', dims: 512, version: '1', maxTokens: 128 });
    assert.equal(embedder.descriptor, USE_LITE_DESCRIPTOR);
  });

  it('returns one 512-d unit vector per text, similar texts closer than unrelated ones', async () => {
    const vectors = await embedder.embed(PASSAGES);
    assert.equal(vectors.length, PASSAGES.length);
    for (const v of vectors) {
      assert.ok(v instanceof Float32Array);
      assert.equal(v.length, 512);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
      assert.equal(v.buffer.byteLength, 512 * 4, 'each vector owns its bytes');
    }
    assert.ok(dot(vectors[0]!, vectors[2]!) > dot(vectors[0]!, vectors[1]!) + 0.2);
    assert.deepEqual(await embedder.embed([]), []);
  });

  it('is deterministic and keeps batch order across threads and batch sizes', async () => {
    const random = seededRandom(5);
    const texts = Array.from({ length: 70 }, (_, i) => `${PASSAGES[Math.floor(random() * PASSAGES.length)]} (${i})`);
    const batch = await embedder.embed(texts);
    const again = await embedder.embed(texts);
    const reversed = (await embedder.embed([...texts].reverse())).reverse();
    const oneByOne = await Promise.all(texts.slice(0, 8).map(async (text) => (await embedder.embed([text]))[0]!));
    texts.forEach((_, i) => {
      assert.deepEqual(again[i], batch[i], `text ${i} gives the same vector twice`);
      assert.ok(dot(reversed[i]!, batch[i]!) > 0.99999, `text ${i} gives the same vector in another batch position`);
    });
    oneByOne.forEach((v, i) => assert.ok(dot(v, batch[i]!) > 0.99999, `text ${i} alone matches its batch vector`));
  });

  it('embeds empty and blank texts wherever they are in a batch', async () => {
    const [alone] = await embedder.embed(['']);
    const mixed = await embedder.embed(['', 'Some text.', ' \n ', '']);
    assert.equal(mixed.length, 4);
    for (const v of [mixed[0]!, mixed[2]!, mixed[3]!]) assert.ok(dot(v, alone!) > 0.99999);
  });

  it('counts tokens in the calling thread, as the model sees them', () => {
    assert.equal(embedder.countTokens(''), 0);
    assert.equal(embedder.countTokens('The cat sat on the mat.'), 8);
    assert.equal(embedder.countTokens('The cat\n\nsat on the mat. '), 8);
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    assert.ok(embedder.countTokens(long) > 128, 'counts past the model limit');
  });

  it('reads only the first 128 tokens of a text', async () => {
    const head = Array.from({ length: 140 }, (_, i) => `alpha${i % 7}`).join(' ');
    assert.ok(embedder.countTokens(head) >= 128);
    const [a, b] = await embedder.embed([head, `${head} and a very different ending about revenue and forklifts`]);
    assert.ok(dot(a!, b!) > 0.99999);
  });

  it('leaves the calling event loop free while it embeds', async (t) => {
    const random = seededRandom(9);
    const passages = Array.from({ length: 64 }, (_, i) =>
      Array.from({ length: 90 }, () => PASSAGES[Math.floor(random() * 4)]!.split(' ')[Math.floor(random() * 8)]).join(' ') + ` ${i}.`,
    );
    let ticks = 0;
    let last = performance.now();
    let maxGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 10);
    const started = performance.now();
    await embedder.embed(passages);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    t.diagnostic(`64 passages in ${seconds.toFixed(2)} s (${(64 / seconds).toFixed(1)}/s); a 10 ms timer fired ${ticks} times, longest gap ${maxGap.toFixed(0)} ms`);
    // Counted, not rated: how often a 10 ms timer fires says how loaded the machine is; that it kept
    // firing, and its longest gap below, say the loop was free.
    assert.ok(ticks >= 3, `the timer kept firing (${ticks} ticks)`);
    // Relative to the embedding's own duration, which grows with the machine's load as a gap does:
    // embedding on this thread would stall it for the whole batch.
    assert.ok(maxGap < (seconds * 1000) / 4, `longest timer gap ${maxGap.toFixed(0)} ms during ${seconds.toFixed(2)} s of embedding`);
  });

  it('ranks a SciFact test claim\'s relevant abstract in the top 3 among 20 random ones, most of the time', {
    skip: !scifactAvailable() && 'SciFact is not at ../shared/eval/scifact',
  }, async (t) => {
    const abstracts = new Map(loadAbstracts().map((d) => [d.id, `${d.title} ${d.text}`]));
    const claims = loadClaims();
    const qrels = [...loadQrels('test').entries()].filter(([id]) => claims.has(id)).slice(0, 50);
    // Distractors come from one seeded pool of 200, so that 50 claims cost 250 abstracts, not 1,050.
    const random = seededRandom(42);
    const ids = [...abstracts.keys()];
    const pool = Array.from({ length: 200 }, () => ids[Math.floor(random() * ids.length)]!);
    const relevantIds = qrels.map(([, relevant]) => [...relevant][0]!);
    const unique = [...new Set([...pool, ...relevantIds])];
    const vectors = await embedder.embed(unique.map((id) => abstracts.get(id)!));
    const vectorOf = new Map(unique.map((id, i) => [id, vectors[i]!]));
    const claimVectors = await embedder.embed(qrels.map(([id]) => claims.get(id)!.text));

    let top3 = 0;
    qrels.forEach(([, relevant], q) => {
      const distractors: string[] = [];
      while (distractors.length < 20) {
        const id = pool[Math.floor(random() * pool.length)]!;
        if (!relevant.has(id) && !distractors.includes(id)) distractors.push(id);
      }
      const target = dot(claimVectors[q]!, vectorOf.get(relevantIds[q]!)!);
      const better = distractors.filter((id) => dot(claimVectors[q]!, vectorOf.get(id)!) > target).length;
      if (better < 3) top3++;
    });
    const share = top3 / qrels.length;
    t.diagnostic(`relevant abstract in the top 3 of 21 for ${top3}/${qrels.length} test claims (${(share * 100).toFixed(0)}%)`);
    assert.ok(share >= 0.6, `${(share * 100).toFixed(0)}% in the top 3`);
  });

  it('close() ends its threads, and later calls fail clearly', async () => {
    const spare = await UseLiteEmbedder.start({ threads: 1 });
    await spare.embed(['warm']);
    await spare.close();
    await assert.rejects(spare.embed(['after close']), /closed/);
    // The shared embedder's threads end when it closes too.
    const exits = workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
    await embedder.close();
    await Promise.all(exits);
    await assert.rejects(embedder.embed(['x']), /closed/);
  });
});

describe('USE-lite embedder failures', () => {
  /** A stand-in worker thread running `body` (CommonJS, with parentPort in scope). */
  const fake = (body: string) => () =>
    new Worker(`const { parentPort } = require('node:worker_threads');\n${body}`, { eval: true });

  it('rejects start with the thread\'s reason when a model does not load', async () => {
    await assert.rejects(
      UseLiteEmbedder.start({ threads: 2, startWorker: fake(`parentPort.postMessage({ kind: 'broken', message: 'USE-lite model failed to load: no model.json' });`) }),
      /USE-lite model failed to load: no model.json/,
    );
    await assert.rejects(
      UseLiteEmbedder.start({ threads: 1, startWorker: fake(`throw new Error('cannot start');`) }),
      /worker thread failed while loading its model: cannot start/,
    );
    await assert.rejects(
      UseLiteEmbedder.start({ threads: 1, startWorker: fake(`process.exit(3);`) }),
      /exited while loading its model \(code 3\)/,
    );
  });

  it('reports a missing model file from the real loader', async () => {
    await assert.rejects(UseLiteModel.load({ ...useLiteFiles(), modelUrl: 'file:///nonexistent/use-lite/model.json' }), /nonexistent/);
  });

  it('rejects pending calls when a thread dies mid-job; the other thread carries on', async () => {
    const echo = `parentPort.postMessage({ kind: 'ready', loadMs: 0 });
      parentPort.on('message', ({ job, texts }) => {
        const buffer = new Float32Array(texts.length * 512).fill(1 / Math.sqrt(512)).buffer;
        parentPort.postMessage({ kind: 'vectors', job, buffer, count: texts.length }, [buffer]);
      });`;
    const crash = `parentPort.postMessage({ kind: 'ready', loadMs: 0 });
      parentPort.on('message', () => { throw new Error('out of memory, say'); });`;
    const bodies = [crash, echo];
    const embedder = await UseLiteEmbedder.start({ threads: 2, startWorker: () => fake(bodies.shift()!)() });
    try {
      await assert.rejects(embedder.embed(['a', 'b']), /USE-lite worker thread failed: out of memory, say/);
      const vectors = await embedder.embed(['c', 'd', 'e']);
      assert.equal(vectors.length, 3);
    } finally {
      await embedder.close();
    }
  });

  it('rejects every pending call, never hangs, when the last thread dies', async () => {
    const embedder = await UseLiteEmbedder.start({
      threads: 1,
      startWorker: fake(`parentPort.postMessage({ kind: 'ready', loadMs: 0 }); parentPort.on('message', () => process.exit(7));`),
    });
    const calls = [embedder.embed(['a']), embedder.embed(['b']), embedder.embed(['c'])];
    for (const call of calls) await assert.rejects(call, /exited \(code 7\)/);
    await assert.rejects(embedder.embed(['d']), /exited \(code 7\)/);
    await embedder.close();
  });

  it('rejects a job the thread reports as failed, and keeps the thread', async () => {
    const embedder = await UseLiteEmbedder.start({
      threads: 1,
      startWorker: fake(`parentPort.postMessage({ kind: 'ready', loadMs: 0 });
        let calls = 0;
        parentPort.on('message', ({ job, texts }) => {
          if (calls++ === 0) return parentPort.postMessage({ kind: 'failed', job, message: 'USE-lite could not embed 1 texts: bad input' });
          const buffer = new Float32Array(texts.length * 512).buffer;
          parentPort.postMessage({ kind: 'vectors', job, buffer, count: texts.length }, [buffer]);
        });`),
    });
    try {
      await assert.rejects(embedder.embed(['x']), /could not embed 1 texts: bad input/);
      assert.equal((await embedder.embed(['y'])).length, 1);
    } finally {
      await embedder.close();
    }
  });
});
