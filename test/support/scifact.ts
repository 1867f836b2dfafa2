// SciFact (../shared/eval/scifact) for tests and evaluations: abstracts, claims, relevance
// judgements, and the two figures BEIR reports (nDCG@10, Recall@100). Callers check
// `scifactAvailable()` first and skip with a reason when the shared data is absent.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EVAL_ROOT } from './tempFolder.ts';

export const SCIFACT_DIR = path.join(EVAL_ROOT, 'scifact');

export interface Abstract {
  id: string;
  title: string;
  text: string;
}

export interface Claim {
  id: string;
  text: string;
}

/** query id -> relevant corpus ids (SciFact's judgements are all binary). */
export type Qrels = Map<string, Set<string>>;

export function scifactAvailable(): boolean {
  return existsSync(path.join(SCIFACT_DIR, 'corpus.jsonl'));
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(path.join(SCIFACT_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export function loadAbstracts(): Abstract[] {
  return readJsonl<{ _id: string; title: string; text: string }>('corpus.jsonl').map((d) => ({
    id: d._id,
    title: d.title,
    text: d.text,
  }));
}

export function loadClaims(): Map<string, Claim> {
  const claims = new Map<string, Claim>();
  for (const q of readJsonl<{ _id: string; text: string }>('queries.jsonl')) claims.set(q._id, { id: q._id, text: q.text });
  return claims;
}

/** Judgements of one split, in file order (a claim's first appearance). */
export function loadQrels(split: 'train' | 'test'): Qrels {
  const qrels: Qrels = new Map();
  const lines = readFileSync(path.join(SCIFACT_DIR, 'qrels', `${split}.tsv`), 'utf8').split('\n').slice(1);
  for (const line of lines) {
    const [query, doc, score] = line.trim().split('\t');
    if (!query || !doc || Number(score) <= 0) continue;
    if (!qrels.has(query)) qrels.set(query, new Set());
    qrels.get(query)!.add(doc);
  }
  return qrels;
}

/** nDCG@k with binary gains, as BEIR computes it. `ranked` is best first. */
export function ndcgAt(k: number, ranked: readonly string[], relevant: ReadonlySet<string>): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((doc, i) => {
    if (relevant.has(doc)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function recallAt(k: number, ranked: readonly string[], relevant: ReadonlySet<string>): number {
  if (relevant.size === 0) return 0;
  let found = 0;
  for (const doc of ranked.slice(0, k)) if (relevant.has(doc)) found++;
  return found / relevant.size;
}
