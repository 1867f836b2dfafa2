// A Proposals row's words for the default sidebar width: the pair as two short names on one line,
// told apart when the documents share a title (a memo and its draft), and a count that says what
// the rows show ("2 (+1 copy)" when a copy's relationship is folded under a row). Pure, so the rules
// are tested without VS Code; the tooltip keeps the full names and paths.

import { shortenFront } from '../shortText.ts';

export interface PairEnd {
  path: string;
  title: string | null;
}

const fileName = (path: string) => path.split('/').pop() || path;
/** The file name without its extension: the room is too small for ".md" (the tooltip has the path). */
const stem = (path: string) => fileName(path).replace(/(.)\.[^.]+$/, '$1');
/** Two names read alike when they are the same, or one cut short is the start of the other ("budget-mem…" and "budget-memo"). */
function alike(a: string, b: string): boolean {
  const bare = (name: string) => name.replace(/…$/, '');
  const startsTheOther = (cut: string, other: string) => cut.endsWith('…') && bare(other).startsWith(bare(cut));
  return a === b || startsTheOther(a, b) || startsTheOther(b, a);
}

/** Cut from the end, where file names of versions differ ("…report-v2.md"). */
const shortenEnd = (name: string, chars: number) => (name.length <= chars ? name : `…${name.slice(name.length - (chars - 1))}`);

/**
 * The pair as "A ↔ B", each name at most `chars` characters: the titles (else file names without
 * extension) when the two read differently once cut, else the file names, else the file names'
 * ends, else the paths' ends, so a person never sees the same name twice.
 */
export function pairLabel(from: PairEnd, to: PairEnd, chars: number): string {
  const ways: ((end: PairEnd) => string)[] = [
    (end) => shortenFront(end.title ?? stem(end.path), chars),
    (end) => shortenFront(stem(end.path), chars),
    (end) => shortenEnd(stem(end.path), chars),
    (end) => shortenEnd(end.path, chars),
  ];
  const pair = (way: (end: PairEnd) => string) => [way(from), way(to)] as const;
  const [a, b] = ways.map(pair).find(([first, second]) => !alike(first, second)) ?? pair(ways.at(-1)!);
  return `${a} ↔ ${b}`;
}

/** A count of rows, with the copies' relationships folded under them said apart: "2", "2 (+1 copy)". */
export function countWords(rows: number, folded: number): string {
  return folded === 0 ? `${rows}` : `${rows} (+${folded} ${folded === 1 ? 'copy' : 'copies'})`;
}
