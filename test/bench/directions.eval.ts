// Direction claims on SciFact's TRAIN split only (dev is kept for the reported evaluation and
// never tuned on): how many claims state a direction the extractor reads, and, on the labelled
// (claim, abstract) pairs, how many direction comparisons come out and how often their relation
// matches the label (supports ↔ SUPPORT, contradicts ↔ CONTRADICT). The claim and the abstract
// (title, blank line, text, as the evaluation folder writes it) are compared with no tie
// required: the figure is the rule's own precision, before discovery's pair gate.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compareItemClaims } from '../../server/src/extract/claims/compare.ts';
import { extractClaims } from '../../server/src/extract/claims/index.ts';
import { SCIFACT_DIR } from '../support/scifact.ts';
import { EVAL_ROOT } from '../support/tempFolder.ts';

interface PairRow {
  split: string;
  claim_id: string;
  claim: string;
  doc_id: string;
  label: 'SUPPORT' | 'CONTRADICT';
}

const pairsFile = path.join(EVAL_ROOT, 'scifact-claims', 'claim_evidence_pairs.jsonl');
const corpusFile = path.join(SCIFACT_DIR, 'corpus.jsonl');
if (!existsSync(pairsFile) || !existsSync(corpusFile)) {
  console.log('skipped: ../shared/eval/scifact-claims or ../shared/eval/scifact is absent');
  process.exit(0);
}
const rows = readFileSync(pairsFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as PairRow)
  .filter((row) => row.split === 'train');
const wanted = new Set(rows.map((row) => row.doc_id));
const abstracts = new Map<string, string>();
const titles = new Map<string, string>();
for (const line of readFileSync(corpusFile, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const doc = JSON.parse(line) as { _id: string; title: string; text: string };
  if (!wanted.has(doc._id)) continue;
  abstracts.set(doc._id, `${doc.title}\n\n${doc.text}\n`);
  titles.set(doc._id, doc.title);
}

const directions = (text: string, title?: string) => extractClaims(text, { title }).filter((claim) => claim.kind === 'direction');
const claimTexts = new Map(rows.map((row) => [row.claim_id, row.claim]));
const withDirection = [...claimTexts.values()].filter((text) => directions(text).length > 0).length;

let right = 0;
const outcomes: string[] = [];
const seen = new Set<string>();
for (const row of rows) {
  if (seen.has(`${row.claim_id}/${row.doc_id}`) || !abstracts.has(row.doc_id)) continue;
  seen.add(`${row.claim_id}/${row.doc_id}`);
  const findings = compareItemClaims(directions(row.claim), directions(abstracts.get(row.doc_id)!, titles.get(row.doc_id)));
  for (const finding of findings) {
    const ok = (finding.relation === 'supports') === (row.label === 'SUPPORT');
    if (ok) right += 1;
    outcomes.push(`${ok ? 'right' : 'WRONG'}\t${row.label}\t${finding.relation}\t${finding.detail}`);
  }
}
if (process.argv.includes('--list')) for (const line of outcomes) console.log(line);
const byRelation = (relation: string) => outcomes.filter((line) => line.split('\t')[2] === relation);
console.log(`SciFact train: ${claimTexts.size} claims, ${withDirection} yield a direction claim (${((100 * withDirection) / claimTexts.size).toFixed(1)}%)`);
console.log(`labelled pairs: ${seen.size}; direction comparisons: ${outcomes.length}, matching the label: ${right} (precision ${outcomes.length ? (right / outcomes.length).toFixed(2) : 'n/a'})`);
for (const relation of ['supports', 'contradicts']) {
  const list = byRelation(relation);
  console.log(`  ${relation}: ${list.length}, right ${list.filter((line) => line.startsWith('right')).length}`);
}
