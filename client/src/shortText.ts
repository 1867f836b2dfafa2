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
