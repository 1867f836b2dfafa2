// How should the embed stage spend USE-lite's 128 tokens? Compares, on SciFact's TRAIN claims
// only (test claims stay unseen for reporting), with the whole corpus (5,183 abstracts) as the
// collection:
//   abstract   the whole abstract (title + text) as one input, truncated by the model
//   chunk      the project's chunker on a title heading + abstract paragraph, one vector per chunk
//   windows    each chunk cut by packWindows into sentence-aligned windows of <= 128 tokens,
//              one vector per window; a document scores its best window (also: mean, first)
//   titled     (with --titled) windows prefixed with the document title, packed to 128 minus
//              the title's tokens: does repeating the heading help a window that lacks it?
// Vectors are cached in /tmp (keyed by text) so a second run only ranks.
//
//   node --import tsx test/bench/embedWindows.eval.ts [--titled] [--threads N]

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chunkBlocks } from '../../server/src/chunk/chunker.ts';
import type { Block } from '../../server/src/parse/types.ts';
import { createUseLiteEmbedder } from '../../server/src/embed/useLite/index.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { packWindows } from '../../server/src/embed/windows.ts';
import { dot } from '../../server/src/embed/vectors.ts';
import { loadAbstracts, loadClaims, loadQrels, ndcgAt, recallAt, scifactAvailable, type Abstract } from '../support/scifact.ts';

const args = process.argv.slice(2);
const titled = args.includes('--titled');
const threadsArg = args.indexOf('--threads');
const threads = threadsArg >= 0 ? Number(args[threadsArg + 1]) : undefined;

if (!scifactAvailable()) {
  console.log('SciFact is not at ../shared/eval/scifact: nothing to measure.');
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Vectors, cached by text

class VectorCache {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly file: string;

  constructor(private readonly embedder: Embedder) {
    const { id, version, dims } = embedder.descriptor;
    const dir = path.join(os.tmpdir(), 'relata-embed-cache');
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `${id}-v${version}.bin`);
    if (!existsSync(this.file)) return;
    const bytes = readFileSync(this.file);
    const record = 20 + dims * 4;
    for (let at = 0; at + record <= bytes.length; at += record) {
      const key = bytes.subarray(at, at + 20).toString('hex');
      const copy = new Uint8Array(bytes.subarray(at + 20, at + record));
      this.vectors.set(key, new Float32Array(copy.buffer));
    }
  }

  private key(text: string): string {
    return createHash('sha1').update(text).digest('hex');
  }

  async embedAll(texts: readonly string[], label: string): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(this.key(text))))];
    if (missing.length > 0) {
      const started = performance.now();
      const step = 256;
      for (let at = 0; at < missing.length; at += step) {
        const batch = missing.slice(at, at + step);
        const vectors = await this.embedder.embed(batch);
        const records: Buffer[] = [];
        batch.forEach((text, i) => {
          const key = this.key(text);
          this.vectors.set(key, vectors[i]!);
          records.push(Buffer.from(key, 'hex'), Buffer.from(vectors[i]!.buffer, vectors[i]!.byteOffset, vectors[i]!.byteLength));
        });
        appendFileSync(this.file, Buffer.concat(records));
        const done = Math.min(at + step, missing.length);
        const seconds = (performance.now() - started) / 1000;
        process.stderr.write(`\r${label}: ${done}/${missing.length} embedded, ${(done / seconds).toFixed(1)}/s   `);
      }
      process.stderr.write('\n');
    }
    return texts.map((text) => this.vectors.get(this.key(text))!);
  }
}

// ---------------------------------------------------------------------------------------------
// Passages per strategy

function chunksOf(doc: Abstract): string[] {
  const path = [doc.title];
  const blocks: Block[] = [
    { kind: 'heading', text: doc.title, headingPath: path, location: { kind: 'lines', start: 1, end: 1 } },
    { kind: 'paragraph', text: doc.text, headingPath: path, location: { kind: 'lines', start: 3, end: 3 } },
  ];
  return chunkBlocks(blocks).map((chunk) => chunk.text);
}

interface Strategy {
  name: string;
  /** Passages of each document, in document order. */
  passages: string[][];
}

// ---------------------------------------------------------------------------------------------
// Ranking

type Aggregate = (scores: number[]) => number;
const best: Aggregate = (scores) => Math.max(...scores);
const mean: Aggregate = (scores) => scores.reduce((a, b) => a + b, 0) / scores.length;
const first: Aggregate = (scores) => scores[0]!;

function evaluate(
  docIds: readonly string[],
  passageVectors: readonly Float32Array[][],
  queries: readonly { vector: Float32Array; relevant: Set<string> }[],
  aggregate: Aggregate,
): { ndcg10: number; recall100: number } {
  let ndcg = 0;
  let recall = 0;
  for (const query of queries) {
    const scored = docIds.map((id, d) => ({ id, score: aggregate(passageVectors[d]!.map((v) => dot(v, query.vector))) }));
    scored.sort((a, b) => b.score - a.score);
    const ranked = scored.slice(0, 100).map((s) => s.id);
    ndcg += ndcgAt(10, ranked, query.relevant);
    recall += recallAt(100, ranked, query.relevant);
  }
  return { ndcg10: ndcg / queries.length, recall100: recall / queries.length };
}

// ---------------------------------------------------------------------------------------------

const docs = loadAbstracts();
const claims = loadClaims();
const qrels = loadQrels('train');

const loadStarted = performance.now();
const embedder = await createUseLiteEmbedder(threads === undefined ? {} : { threads });
console.log(`USE-lite (${embedder.descriptor.id} v${embedder.descriptor.version}) loaded in ${Math.round(performance.now() - loadStarted)} ms`);
const cache = new VectorCache(embedder);
const maxTokens = embedder.descriptor.maxTokens;
const count = (text: string) => embedder.countTokens(text);

// Token statistics: how much of each abstract the model never reads when truncated.
const wholeTexts = docs.map((d) => `${d.title} ${d.text}`);
const wholeTokens = wholeTexts.map(count);
const totalTokens = wholeTokens.reduce((a, b) => a + b, 0);
const readTokens = wholeTokens.reduce((a, b) => a + Math.min(b, maxTokens), 0);
const sortedTokens = [...wholeTokens].sort((a, b) => a - b);

const chunkTexts = docs.map(chunksOf);
const windowTexts = chunkTexts.map((chunks) => chunks.flatMap((chunk) => packWindows(chunk, maxTokens, count).map((w) => w.text)));
const windowsFlat = windowTexts.flat();
const windowTokens = windowsFlat.map(count);
const sentenceSplitter = new Intl.Segmenter('en', { granularity: 'sentence' });
const overLimit = windowsFlat.filter((_, i) => windowTokens[i]! > maxTokens);
const overPacked = overLimit.filter((text) => [...sentenceSplitter.segment(text)].length > 1).length;

const strategies: Strategy[] = [
  { name: 'abstract (truncated to 128 tokens)', passages: wholeTexts.map((t) => [t]) },
  { name: 'chunk (chunker, one vector per chunk)', passages: chunkTexts },
  { name: 'windows (sentence-packed <= 128 tokens)', passages: windowTexts },
];
if (titled) {
  strategies.push({
    name: 'windows, title prefixed',
    passages: docs.map((doc, d) => {
      const budget = Math.max(16, maxTokens - count(doc.title) - 1);
      return chunkTexts[d]!.flatMap((chunk) =>
        packWindows(chunk, budget, count).map((w) => (w.text.startsWith(doc.title) ? w.text : `${doc.title}. ${w.text}`)),
      );
    }),
  });
}

console.log(
  `Corpus: ${docs.length} abstracts, ${totalTokens} tokens (median ${sortedTokens[sortedTokens.length >> 1]}, ` +
    `p90 ${sortedTokens[Math.floor(sortedTokens.length * 0.9)]}); truncation at ${maxTokens} lets the model read ` +
    `${((100 * readTokens) / totalTokens).toFixed(1)}% of them; ${wholeTokens.filter((n) => n > maxTokens).length} abstracts exceed ${maxTokens}.`,
);
console.log(
  `Chunks: ${chunkTexts.flat().length}. Windows: ${windowsFlat.length} (${(windowsFlat.length / docs.length).toFixed(2)} per abstract, ` +
    `mean ${(windowTokens.reduce((a, b) => a + b, 0) / windowTokens.length).toFixed(1)} tokens; ${overLimit.length} over ${maxTokens}, ` +
    `of which ${overPacked} hold more than one sentence, i.e. were packed over the limit by summing per-sentence counts).`,
);

const trainQueries = [...qrels.entries()].filter(([id]) => claims.has(id));
const queryVectors = await cache.embedAll(trainQueries.map(([id]) => claims.get(id)!.text), 'train claims');
const queries = trainQueries.map(([, relevant], i) => ({ vector: queryVectors[i]!, relevant }));
console.log(`Train claims with judgements: ${queries.length}`);

const docIds = docs.map((d) => d.id);
const rows: string[] = [];
for (const strategy of strategies) {
  const flat = strategy.passages.flat();
  const started = performance.now();
  const vectors = await cache.embedAll(flat, strategy.name);
  const embedSeconds = (performance.now() - started) / 1000;
  const perDoc: Float32Array[][] = [];
  let at = 0;
  for (const passages of strategy.passages) {
    perDoc.push(vectors.slice(at, at + passages.length));
    at += passages.length;
  }
  const aggregates: [string, Aggregate][] = strategy.passages.some((p) => p.length > 1)
    ? [['best', best], ['mean', mean], ['first', first]]
    : [['best', best]];
  for (const [label, aggregate] of aggregates) {
    const { ndcg10, recall100 } = evaluate(docIds, perDoc, queries, aggregate);
    const row = `| ${strategy.name} | ${label} | ${flat.length} | ${ndcg10.toFixed(3)} | ${recall100.toFixed(3)} |`;
    rows.push(row);
    console.log(row, embedSeconds > 1 ? `(embedded in ${embedSeconds.toFixed(0)} s)` : '(cached)');
  }
}
await embedder.close();

console.log(`\nSciFact train claims (${queries.length}), collection ${docs.length} abstracts, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`);
console.log('| strategy | document score | passages | nDCG@10 | Recall@100 |');
console.log('|---|---|---:|---:|---:|');
for (const row of rows) console.log(row);
