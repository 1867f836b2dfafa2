// Text cut to fit a narrow place (a sidebar row, a quick-pick line) so what follows it stays in
// sight: at a word when one ends late enough, else mid-word, with an ellipsis. The full text is
// always somewhere a person can read it (a tooltip, a dialog).

/** Cut from the front at a word when one ends past 70% of the room, so "Budget memo: gantry crane" reads "Budget memo…". */
export function shortenFront(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars - 1);
  // A word that ends exactly at the cut is kept whole.
  const space = text.charAt(chars - 1) === ' ' ? cut.length : cut.lastIndexOf(' ');
  const kept = space >= chars * 0.7 ? cut.slice(0, space) : cut;
  return `${kept.replace(/[\s:;,.–—-]+$/, '')}…`;
}

/** Separators left at either side of a middle cut say nothing: "budget-…-v2" reads "budget…v2". */
const SEPARATORS_AT_END = /[\s_.–—-]+$/;
const SEPARATORS_AT_START = /^[\s_.–—-]+/;

/**
 * Cut from the middle, keeping the start and the end: a file name's topic is at its start and what
 * tells versions and dates apart at its end ("inspection-report-2025-03" → "inspe…25-03").
 */
export function shortenMiddle(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const tail = Math.floor((chars - 1) / 2);
  const head = chars - 1 - tail;
  return `${text.slice(0, head).replace(SEPARATORS_AT_END, '')}…${text.slice(text.length - tail).replace(SEPARATORS_AT_START, '')}`;
}
