// Words and editor positions for a passage's location (lines, pages, or paragraphs of a DOCX).
// A slide deck's passages are located by slide number as pages: given the file's path, they are
// said as slides, the word its reader uses.

import type { Location } from '../../shared/types.ts';

const DECK = /\.(pptx|pptm|odp)$/i;

export function describeLocation(location: Location, filePath = ''): string {
  const noun = location.kind === 'pages' && DECK.test(filePath) ? 'slide' : { lines: 'line', pages: 'page', blocks: 'paragraph' }[location.kind];
  return location.start === location.end ? `${noun} ${location.start}` : `${noun}s ${location.start}-${location.end}`;
}

/** 0-based line range to select when a file opens at this passage; null when the format has no lines. */
export function lineSelection(location: Location | null | undefined): { startLine: number; endLine: number } | null {
  if (!location || location.kind !== 'lines') return null;
  return { startLine: location.start - 1, endLine: location.end - 1 };
}
