// The folders of the relationships evaluation, written once into a cache directory (the data in
// ../shared/eval is read-only and is never copied into the repository): the Open Source Guides,
// the Rust book, a SciFact folder of claims and their labelled abstracts, the first 60 CUAD
// contracts, and docs/demo in place. Each comes with what the evaluation needs to judge it.

import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { normaliseOrganisation } from '../../server/src/extract/entities/index.ts';
import { CUAD_DIR, parseParties } from './cuad.ts';
import { SCIFACT_DIR } from './scifact.ts';
import { EVAL_ROOT, REPO_ROOT } from './tempFolder.ts';

export type FolderKind = 'links' | 'scifact' | 'cuad' | 'demo';

export interface EvalFolder {
  name: string;
  kind: FolderKind;
  folder: string;
  /** How the folder was made, for the report. */
  sampling: string;
}

export type SkippedFolder = { name: string; skipped: string };

export type ScifactLabel = 'SUPPORT' | 'CONTRADICT';

export interface ScifactTruth {
  /** pairKey(claim path, abstract path) -> label. */
  labels: Map<string, ScifactLabel>;
  claimPaths: string[];
  /** claim path -> its labelled abstracts' paths. */
  abstractsOf: Map<string, Set<string>>;
}

export const CUAD_CONTRACTS = 60;
export const SCIFACT_PAIRS = 150;

const done = (target: string) => `${target}.done`;

/** Builds the folder with `write` unless an earlier run finished it. */
function cached(target: string, write: (target: string) => void): string {
  if (existsSync(done(target))) return target;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  write(target);
  writeFileSync(done(target), '');
  return target;
}

export function copiedFolder(cacheDir: string, name: string, source: string): EvalFolder | SkippedFolder {
  const from = path.join(EVAL_ROOT, source);
  if (!existsSync(from)) return { name, skipped: `../shared/eval/${source} is absent` };
  const folder = cached(path.join(cacheDir, name), (target) => cpSync(from, target, { recursive: true }));
  return { name, kind: 'links', folder, sampling: `every file of ../shared/eval/${source}` };
}

export function demoFolder(): EvalFolder {
  return { name: 'docs-demo', kind: 'demo', folder: path.join(REPO_ROOT, 'docs', 'demo'), sampling: 'docs/demo in place' };
}

interface PairRow {
  split: string;
  claim_id: string;
  claim: string;
  doc_id: string;
  label: ScifactLabel;
}

/**
 * The first `SCIFACT_PAIRS` distinct (claim, abstract) pairs of one split, in file order: one
 * .txt per claim (`claims/claim-<id>.txt`) and one per abstract, title then text
 * (`abstracts/<doc id>.txt`). The `dev` split is reported and never tuned on; `train` is for tuning.
 */
export function scifactFolder(cacheDir: string, split: 'dev' | 'train'): { folder: EvalFolder; truth: ScifactTruth } | SkippedFolder {
  const name = `scifact-claims-${split}`;
  const pairsFile = path.join(EVAL_ROOT, 'scifact-claims', 'claim_evidence_pairs.jsonl');
  const corpusFile = path.join(SCIFACT_DIR, 'corpus.jsonl');
  if (!existsSync(pairsFile) || !existsSync(corpusFile)) return { name, skipped: '../shared/eval/scifact-claims or ../shared/eval/scifact is absent' };
  const seen = new Map<string, PairRow>();
  for (const line of readFileSync(pairsFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as PairRow;
    if (row.split !== split || seen.has(`${row.claim_id}/${row.doc_id}`)) continue;
    seen.set(`${row.claim_id}/${row.doc_id}`, row);
    if (seen.size === SCIFACT_PAIRS) break;
  }
  const rows = [...seen.values()];
  const claimPath = (row: PairRow) => `claims/claim-${row.claim_id}.txt`;
  const abstractPath = (doc: string) => `abstracts/${doc}.txt`;
  const folder = cached(path.join(cacheDir, name), (target) => {
    mkdirSync(path.join(target, 'claims'));
    mkdirSync(path.join(target, 'abstracts'));
    for (const row of rows) writeFileSync(path.join(target, claimPath(row)), `${row.claim}\n`);
    const wanted = new Set(rows.map((row) => row.doc_id));
    for (const line of readFileSync(corpusFile, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const doc = JSON.parse(line) as { _id: string; title: string; text: string };
      if (wanted.has(doc._id)) writeFileSync(path.join(target, abstractPath(doc._id)), `${doc.title}\n\n${doc.text}\n`);
    }
  });
  const labels = new Map<string, ScifactLabel>();
  const abstractsOf = new Map<string, Set<string>>();
  for (const row of rows) {
    const [claim, abstract] = [claimPath(row), abstractPath(row.doc_id)];
    labels.set(claim < abstract ? `${claim}\t${abstract}` : `${abstract}\t${claim}`, row.label);
    if (!abstractsOf.has(claim)) abstractsOf.set(claim, new Set());
    abstractsOf.get(claim)!.add(abstract);
  }
  const claims = new Set(rows.map(claimPath));
  const docs = new Set(rows.map((row) => row.doc_id));
  return {
    folder: {
      name,
      kind: 'scifact',
      folder,
      sampling: `the first ${rows.length} distinct (claim, abstract) pairs of split "${split}" in claim_evidence_pairs.jsonl ` +
        `(${rows.filter((r) => r.label === 'SUPPORT').length} SUPPORT, ${rows.filter((r) => r.label === 'CONTRADICT').length} CONTRADICT): ` +
        `${claims.size} claim files, ${docs.size} abstract files`,
    },
    truth: { labels, claimPaths: [...claims].sort(), abstractsOf },
  };
}

/** A party name as compared across contracts: the extractor's organisation key, else letters and digits only. */
function partyKey(name: string, key: string | null): string {
  return key ?? normaliseOrganisation(name) ?? name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The first `CUAD_CONTRACTS` contracts by file name, and each one's parties (normalised names). */
export function cuadFolder(cacheDir: string): { folder: EvalFolder; parties: Map<string, Set<string>> } | SkippedFolder {
  const name = `cuad-${CUAD_CONTRACTS}`;
  const source = path.join(CUAD_DIR, 'full_contract_txt');
  const gold = path.join(CUAD_DIR, 'gold_metadata.jsonl');
  if (!existsSync(source) || !existsSync(gold)) return { name, skipped: '../shared/eval/cuad is absent' };
  const files = readdirSync(source).filter((file) => file.endsWith('.txt')).sort().slice(0, CUAD_CONTRACTS);
  const folder = cached(path.join(cacheDir, name), (target) => {
    for (const file of files) copyFileSync(path.join(source, file), path.join(target, file));
  });
  const wanted = new Set(files);
  const parties = new Map<string, Set<string>>();
  for (const line of readFileSync(gold, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { txt_file: string; parties: string };
    if (!wanted.has(row.txt_file)) continue;
    parties.set(row.txt_file, new Set(parseParties(row.parties).map((party) => partyKey(party.name, party.key)).filter((key) => key !== '')));
  }
  return { folder: { name, kind: 'cuad', folder, sampling: `the first ${files.length} contracts of ../shared/eval/cuad/full_contract_txt by file name` }, parties };
}
