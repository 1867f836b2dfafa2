// One large document of realistic shape, for the memory benchmark: prose in paragraphs with a
// wide vocabulary (names, codes, dates and numbers, not a handful of words repeated), so the
// lexical index, the chunks and extraction see what a long report or a log export gives them.
// Seeded, so a run can be reproduced.

import { seededRandom } from './generateCorpus.ts';

const COMMON = (
  'the a of and to in for on with by from at as is was were be been has have had that this which ' +
  'warehouse crane forklift inspection supplier invoice contract refurbishment bay dock shipment pallet ' +
  'safety incident report summary timeline cause action budget cost delivery schedule maintenance audit ' +
  'operator shift sensor alarm sprinkler leak repair approval review policy training checklist vendor'
).split(' ');
const NAMES = ['Anna Weber', 'Jonas Keller', 'Maria Rossi', 'Example Ltd', 'Northwind GmbH', 'Contoso AG', 'Bay 4', 'Dock 7'];

function sentence(random: () => number, n: number): string {
  const length = 8 + Math.floor(random() * 16);
  const words: string[] = [];
  for (let i = 0; i < length; i += 1) {
    const pick = random();
    if (pick < 0.04) words.push(NAMES[Math.floor(random() * NAMES.length)]!);
    else if (pick < 0.1) words.push(`${['GC', 'INC', 'PO', 'WO'][Math.floor(random() * 4)]}-${Math.floor(random() * 100_000)}`);
    else if (pick < 0.13) words.push(`EUR ${Math.floor(random() * 90_000) + 1_000}`);
    else if (pick < 0.15) words.push(`${1 + Math.floor(random() * 28)} March ${2015 + Math.floor(random() * 11)}`);
    else if (pick < 0.3) words.push(`term${Math.floor(random() * 40_000)}`);
    else words.push(COMMON[Math.floor(random() * COMMON.length)]!);
  }
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}${n % 11 === 0 ? '?' : '.'}`;
}

function paragraph(random: () => number): string {
  return Array.from({ length: 3 + Math.floor(random() * 5) }, (_, n) => sentence(random, n)).join(' ');
}

/** About `bytes` of UTF-8: plain paragraphs, or Markdown with a heading every few paragraphs and some lists. */
export function largeDocument(bytes: number, format: 'text' | 'markdown', seed = 11): string {
  const random = seededRandom(seed);
  const parts: string[] = format === 'markdown' ? ['# Operations log\n'] : ['Operations log\n'];
  let size = parts[0]!.length;
  for (let n = 0; size < bytes; n += 1) {
    let part = paragraph(random);
    if (format === 'markdown' && n % 6 === 0) part = `## Section ${n / 6 + 1}\n\n${part}`;
    if (format === 'markdown' && n % 9 === 4) part += `\n\n- ${sentence(random, 1)}\n- ${sentence(random, 2)}`;
    parts.push(part);
    size += part.length + 2;
  }
  return parts.join('\n\n');
}
