// Hand labels of proposals, committed beside the evaluation (test/bench/labels/<folder>.tsv), so
// that "how many proposals are right" can be re-checked by anyone. The sampler picks proposals
// with a seed and writes them without their score, so whoever labels them is not led by it; the
// evaluation then counts the labels whose pair and type are still proposed.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from './generateCorpus.ts';
import { REPO_ROOT } from './tempFolder.ts';

export const LABELS_DIR = path.join(REPO_ROOT, 'test', 'bench', 'labels');
export const LABEL_SAMPLE = 30;
export const LABELS = ['right', 'trivial', 'wrong'] as const;
export type Label = (typeof LABELS)[number];

export interface LabelledProposal {
  /** "a.md -> b.md" in the stored direction. */
  pair: string;
  type: string;
  label: Label | '';
  note: string;
}

export interface ProposalRef {
  from: string;
  to: string;
  type: string;
}

const HEADER = 'pair\ttype\tlabel\tnote';

export function labelsFile(folderName: string): string {
  return path.join(LABELS_DIR, `${folderName}.tsv`);
}

/** The same pair and type, whichever way round it is stored. */
export function proposalKey(from: string, to: string, type: string): string {
  return `${from < to ? `${from}\t${to}` : `${to}\t${from}`}\t${type}`;
}

export function readLabels(folderName: string): LabelledProposal[] {
  const file = labelsFile(folderName);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [pair = '', type = '', label = '', note = ''] = line.split('\t');
      const known = (LABELS as readonly string[]).includes(label.trim()) ? (label.trim() as Label) : '';
      return { pair, type, label: known, note };
    });
}

export function labelKey(row: LabelledProposal): string {
  const [from = '', to = ''] = row.pair.split(' -> ');
  return proposalKey(from, to, row.type);
}

/**
 * Tops the folder's label file up to a seeded sample of 30 of these proposals (all when fewer):
 * rows already there are kept with their labels, and proposals not yet in the file are added
 * without their score, to be labelled. Returns the file and how many rows were added.
 */
export function sampleMoreLabels(folderName: string, proposals: readonly ProposalRef[], seed = 26): { file: string; added: number } {
  const existing = readLabels(folderName);
  const known = new Set(existing.map(labelKey));
  const keyOf = (p: ProposalRef) => proposalKey(p.from, p.to, p.type);
  const inFile = proposals.filter((p) => known.has(keyOf(p))).length;
  const wanted = Math.max(0, Math.min(LABEL_SAMPLE, proposals.length) - inFile);
  const random = seededRandom(seed);
  const fresh = proposals.filter((p) => !known.has(keyOf(p))).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  for (let i = fresh.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [fresh[i], fresh[j]] = [fresh[j]!, fresh[i]!];
  }
  const rows = [
    ...existing.map((row) => [row.pair, row.type, row.label, row.note].join('\t')),
    ...fresh.slice(0, wanted).map((p) => `${p.from} -> ${p.to}\t${p.type}\t\t`),
  ];
  mkdirSync(LABELS_DIR, { recursive: true });
  const file = labelsFile(folderName);
  writeFileSync(file, `${[HEADER, ...rows].join('\n')}\n`);
  return { file, added: Math.min(wanted, fresh.length) };
}

export interface LabelShares {
  labelled: number;
  /** Labelled rows whose pair and type are still proposed. */
  current: number;
  counts: Record<Label, number>;
}

export function labelShares(rows: readonly LabelledProposal[], proposed: ReadonlySet<string>): LabelShares {
  const counts: Record<Label, number> = { right: 0, trivial: 0, wrong: 0 };
  let labelled = 0;
  let current = 0;
  for (const row of rows) {
    if (row.label === '') continue;
    labelled += 1;
    if (!proposed.has(labelKey(row))) continue;
    current += 1;
    counts[row.label] += 1;
  }
  return { labelled, current, counts };
}
