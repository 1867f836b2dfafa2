// Generated folders of Markdown, text and JSON files for crash tests and benchmarks. The text is
// varied (seeded, so a run can be reproduced) so that chunks, hashes and search are realistic.

import { writeFiles } from './tempFolder.ts';

const WORDS = (
  'warehouse crane forklift inspection supplier invoice contract refurbishment bay dock shipment pallet ' +
  'safety incident report summary timeline cause action budget cost delivery schedule maintenance audit ' +
  'operator shift sensor alarm sprinkler leak repair approval review policy training checklist vendor'
).split(' ');

/** mulberry32: a small seeded PRNG, so generated data can be reproduced from its seed. */
/** Questions in the corpus's words, alone and combined, for the benchmarks that search it (each adds its own). */
export const CORPUS_QUERIES: readonly string[] = [
  'crane inspection',
  'forklift incident report',
  'supplier invoice approval',
  'warehouse sprinkler leak repair',
  'budget',
  'maintenance schedule for the dock',
  'safety training checklist',
  'who approved the contract refurbishment',
  'pallet shipment delivery delay',
  'sensor alarm on the night shift',
  'vendor audit policy review',
  'cost of the gantry crane',
];

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(random: () => number): string {
  const length = 6 + Math.floor(random() * 14);
  const words = Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(random: () => number): string {
  return Array.from({ length: 2 + Math.floor(random() * 6) }, () => sentence(random)).join(' ');
}

export function markdownDocument(random: () => number, n: number): string {
  const sections = 1 + Math.floor(random() * 5);
  const parts = [`# Document ${n}`, paragraph(random)];
  for (let section = 0; section < sections; section += 1) {
    parts.push(`## Section ${section + 1}`, paragraph(random), `- ${sentence(random)}\n- ${sentence(random)}`, paragraph(random));
  }
  return `${parts.join('\n\n')}\n`;
}

/** Writes `count` files (mostly Markdown, some text and JSON) into `folder`. */
export function writeCorpus(folder: string, count: number, seed = 1): void {
  const random = seededRandom(seed);
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n += 1) {
    const directory = `group-${n % 7}`;
    if (n % 10 === 3) files[`${directory}/note-${n}.txt`] = `${paragraph(random)}\n\n${paragraph(random)}\n`;
    else if (n % 10 === 7) files[`${directory}/record-${n}.json`] = JSON.stringify({ title: `Record ${n}`, lines: [sentence(random), sentence(random)], cost: n * 10 }, null, 2);
    else files[`${directory}/doc-${n}.md`] = markdownDocument(random, n);
  }
  writeFiles(folder, files);
}
