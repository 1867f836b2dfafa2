// A Proposals row's words for the default sidebar width: the pair as two short names on one line,
// told apart when the documents share a title (a memo and its draft); a title is cut at its end,
// where a sentence matters least, a file name in its middle, keeping its topic and the version or
// date at its end. A count that says what
// the rows show ("2 (+1 copy)" when a copy's relationship is folded under a row). Pure, so the rules
// are tested without VS Code; the tooltip keeps the full names and paths.

import { shortenFront, shortenMiddle } from '../shortText.ts';

export interface PairEnd {
  path: string;
  title: string | null;
}

const fileName = (path: string) => path.split('/').pop() || path;
/** The room is too small for ".md" (the tooltip has the path). */
const withoutExtension = (path: string) => path.replace(/([^/])\.[^./]+$/, '$1');
const stem = (path: string) => withoutExtension(fileName(path));
/** A name shown as what stands before its cut and what after ("budget…v2" → budget, v2); an uncut name is both. */
function ends(name: string): [string, string] {
  const cut = name.indexOf('…');
  return cut < 0 ? [name, name] : [name.slice(0, cut), name.slice(cut + 1)];
}

/**
 * Two names read alike when they could be the same name: their starts agree as far as both show
 * and so do their ends ("budget-mem…" and "budget-memo"; "budg…o" and "budget-memo").
 */
function alike(a: string, b: string): boolean {
  if (a === b) return true;
  if (!a.includes('…') && !b.includes('…')) return false;
  const [headA, tailA] = ends(a);
  const [headB, tailB] = ends(b);
  return (headA.startsWith(headB) || headB.startsWith(headA)) && (tailA.endsWith(tailB) || tailB.endsWith(tailA));
}

/** Cut from the end's side, keeping the end, where paths in two folders differ least visibly otherwise. */
const shortenEnd = (name: string, chars: number) => (name.length <= chars ? name : `…${name.slice(name.length - (chars - 1))}`);

/**
 * The pair as "A ↔ B", each name at most `chars` characters: the titles (else file names without
 * extension, cut in the middle) when the two read differently once cut, else the file names, else
 * the paths cut in the middle, else the paths' ends, so a person never sees the same name twice.
 */
export function pairLabel(from: PairEnd, to: PairEnd, chars: number): string {
  const ways: ((end: PairEnd) => string)[] = [
    (end) => (end.title === null ? shortenMiddle(stem(end.path), chars) : shortenFront(end.title, chars)),
    (end) => shortenMiddle(stem(end.path), chars),
    (end) => shortenMiddle(withoutExtension(end.path), chars),
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
