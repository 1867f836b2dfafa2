// A passage's location in words, said the same by the editor and the command line: lines, pages,
// or paragraphs (DOCX and the other formats located by block). A slide deck's passages are
// located by slide number as pages: given the file's path, they are said as slides.

import type { Location } from './types.ts';

const DECK = /\.(pptx|pptm|odp)$/i;

export function describeLocation(location: Location, filePath = ''): string {
  const noun = location.kind === 'pages' && DECK.test(filePath) ? 'slide' : { lines: 'line', pages: 'page', blocks: 'paragraph' }[location.kind];
  return location.start === location.end ? `${noun} ${location.start}` : `${noun}s ${location.start}-${location.end}`;
}
