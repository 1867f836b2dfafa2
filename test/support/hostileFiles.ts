// Files that are hostile by size: a Markdown file long enough to exhaust a parse thread's memory,
// a PDF with so many pages that reading it takes seconds. Real files, generated on demand.

import { makePdf, pdfText } from './documentBuilders.ts';

/** Markdown of about `chars` characters: list items with emphasis and links, which the parser expands most. */
export function longMarkdown(chars: number): string {
  const line = '- an item with **bold**, _emphasis_ and a [link](https://example.com/page) in it\n';
  return line.repeat(Math.ceil(chars / line.length));
}

/** A PDF of `pages` pages, each with a line of text (the pages share one content stream). */
export function manyPagePdf(pages: number): Uint8Array {
  return makePdf([pdfText('The crane in bay four passed its inspection on Monday.', 700)], pages - 1);
}
