// The indexing work under way in a person's words ("indexing 26 files, embedding 3 files"), one
// wording for the status bar and the server's progress notification, so the two never speak of
// different things at once ("extracting facts from 13 files" beside "43 of 70 steps").

import type { FolderWork } from './protocol.ts';

export const plural = (count: number, noun: string) => `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;

/** Each kind of work in a person's words, in the order a file goes through them. */
const WORK_WORDS: [keyof FolderWork, (files: string) => string][] = [
  ['reading', (files) => `indexing ${files}`],
  ['extracting', (files) => `extracting facts from ${files}`],
  ['embedding', (files) => `embedding ${files}`],
  ['relating', (files) => `finding relationships for ${files}`],
];

/** The work under way, e.g. "indexing 26 files, embedding 3 files"; the first kind only when `first`. */
export function describeWork(work: FolderWork, first = false): string {
  const parts = WORK_WORDS.filter(([kind]) => work[kind] > 0).map(([kind, words]) => words(plural(work[kind], 'file')));
  if (parts.length === 0) return 'indexing: looking for changes';
  return first ? parts[0]! : parts.join(', ');
}
