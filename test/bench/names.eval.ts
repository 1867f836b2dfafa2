// How often is a name or identifier the rules extract (entities@2's kinds) really one? Three
// folders nobody on the team wrote, read as the pipeline reads them (parse, chunk, extract with
// the document's code blocks and author field): the Rust book, the Open Source Guides, and 200
// SciFact abstracts. Names that are evidence only when shared (product, code, person without an
// honorific) are sampled among those at least two files mention, as discovery uses them;
// identifiers, URLs, domains and e-mail addresses among all. A seeded sample of 50 keys per
// folder is written to test/bench/labels/names.tsv; a person labels each row right or wrong with
// a note, and the labels are kept when the sample is written again (by folder and key).
//
//   node --import tsx test/bench/names.eval.ts        (npm run eval:names)

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseFile } from '../../server/src/parse/registry.ts';
import { passagesOf } from '../../server/src/pipeline/stages/chunk.ts';
import { documentContext, extractionOf } from '../../server/src/pipeline/stages/extract.ts';
import type { ItemExtraction } from '../../server/src/store/contract.ts';

const EVAL = path.resolve(import.meta.dirname, '../../../shared/eval');
const LABELS = path.resolve(import.meta.dirname, 'labels/names.tsv');
const PER_FOLDER = 50;
const KINDS = new Set(['identifier', 'code', 'url', 'domain', 'email', 'product', 'person']);
/** Evidence only once two files share them (names.ts, code.ts). */
const SHARED_ONLY = new Set(['product', 'code', 'person']);
const HONORIFIC = /^(?:Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame|Lord|Lady|Rev|Mx)\b/i;

interface Doc {
  name: string;
  title: string | null;
  extraction: ItemExtraction;
  chunks: Map<string, string>;
}

async function markdownFolder(dir: string): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
    const parsed = await parseFile(readFileSync(path.join(dir, file)), file);
    const chunks = passagesOf('eval', file, file, parsed.blocks);
    const extraction = extractionOf(parsed.title, chunks, parsed.structure.headings.map((h) => h.text), undefined, documentContext(parsed));
    docs.push({ name: file, title: parsed.title, extraction, chunks: new Map(chunks.map((c) => [c.id, c.text])) });
  }
  return docs;
}

async function scifact(count: number): Promise<Doc[]> {
  const lines = readFileSync(path.join(EVAL, 'scifact/corpus.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, count);
  const docs: Doc[] = [];
  for (const line of lines) {
    const row = JSON.parse(line) as { _id: string; title: string; text: string };
    const name = `${row._id}.txt`;
    const parsed = await parseFile(Buffer.from(`${row.title}\n\n${row.text}`), name);
    const chunks = passagesOf('eval', name, name, parsed.blocks);
    const extraction = extractionOf(parsed.title, chunks, [], undefined, documentContext(parsed));
    docs.push({ name, title: parsed.title, extraction, chunks: new Map(chunks.map((c) => [c.id, c.text])) });
  }
  return docs;
}

/** mulberry32: a fixed seed gives the same sample on every machine. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ (t + Math.imul(t ^ (t >>> 14), 45 | t));
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Row {
  folder: string;
  kind: string;
  surface: string;
  key: string;
  files: number;
  context: string;
  label: string;
  note: string;
}

const clean = (text: string) => text.replace(/[\t\n\r]+/g, ' ').trim();

function sample(folder: string, docs: Doc[], seed: number): { rows: Row[]; counted: Map<string, number> } {
  const byKey = new Map<string, { kind: string; surface: string; files: Set<string>; context: string }>();
  for (const doc of docs) {
    for (const e of doc.extraction.entities) {
      if (!KINDS.has(e.type) || (e.type === 'person' && HONORIFIC.test(e.surface))) continue;
      const text = doc.chunks.get(e.chunkId) ?? '';
      const entry = byKey.get(e.key) ?? { kind: e.type, surface: e.surface, files: new Set<string>(), context: clean(`${text.slice(Math.max(0, e.start - 60), e.start)}[[${e.surface}]]${text.slice(e.end, e.end + 60)}`) };
      entry.files.add(doc.name);
      byKey.set(e.key, entry);
    }
  }
  const counted = new Map<string, number>();
  const eligible = [...byKey].filter(([, v]) => !SHARED_ONLY.has(v.kind) || v.files.size >= 2).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [, v] of eligible) counted.set(v.kind, (counted.get(v.kind) ?? 0) + 1);
  const next = random(seed);
  for (let i = eligible.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [eligible[i], eligible[j]] = [eligible[j]!, eligible[i]!];
  }
  const rows = eligible.slice(0, PER_FOLDER).map(([key, v]) => ({ folder, kind: v.kind, surface: v.surface, key, files: v.files.size, context: v.context, label: '', note: '' }));
  return { rows, counted };
}

const folders: [string, () => Promise<Doc[]>][] = [
  ['rust-book-en', () => markdownFolder(path.join(EVAL, 'linked-docs/rust-book-en'))],
  ['opensource-guide-en', () => markdownFolder(path.join(EVAL, 'knowledge-bases/opensource-guide-en'))],
  ['scifact-200', () => scifact(200)],
];

const previous = new Map<string, Row>();
if (existsSync(LABELS)) {
  for (const line of readFileSync(LABELS, 'utf8').split('\n').slice(1).filter(Boolean)) {
    const [folder, kind, surface, key, files, context, label, note] = line.split('\t');
    previous.set(`${folder}\t${key}`, { folder: folder!, kind: kind!, surface: surface!, key: key!, files: Number(files), context: context!, label: label ?? '', note: note ?? '' });
  }
}

console.log(`Names and identifiers (${process.env.ENTITY_VERSION ?? 'entities@2'}), machine: 2 shared cores, Node ${process.version}`);
const all: Row[] = [];
for (const [i, [folder, load]] of folders.entries()) {
  const started = performance.now();
  const docs = await load();
  const ms = performance.now() - started;
  const { rows, counted } = sample(folder, docs, 26 + i);
  const chars = docs.reduce((n, d) => n + [...d.chunks.values()].reduce((m, t) => m + t.length, 0), 0);
  console.log(`  ${folder}: ${docs.length} files, ${(chars / 1e3).toFixed(0)} K characters, parse+chunk+extract ${(ms / 1000).toFixed(1)} s; names as they count: ${[...counted].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const row of rows) {
    const kept = previous.get(`${folder}\t${row.key}`);
    all.push(kept ? { ...row, label: kept.label, note: kept.note } : row);
  }
}

writeFileSync(LABELS, ['folder\tkind\tsurface\tkey\tfiles\tcontext\tlabel\tnote', ...all.map((r) => [r.folder, r.kind, r.surface, r.key, r.files, r.context, r.label, r.note].join('\t'))].join('\n') + '\n');

const labelled = all.filter((r) => r.label === 'right' || r.label === 'wrong');
console.log(`\nSample: ${all.length} rows, ${labelled.length} labelled (${LABELS})`);
const groups = new Map<string, Row[]>();
for (const r of labelled) for (const g of [r.kind, r.folder, 'overall']) groups.set(g, [...(groups.get(g) ?? []), r]);
for (const [group, rows] of [...groups].sort(([a], [b]) => (a === 'overall' ? 1 : b === 'overall' ? -1 : a < b ? -1 : 1))) {
  const right = rows.filter((r) => r.label === 'right').length;
  console.log(`  ${group.padEnd(20)} precision ${(right / rows.length).toFixed(2)}  (${right}/${rows.length})`);
}
