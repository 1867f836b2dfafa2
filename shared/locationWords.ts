// A passage's location in words, said the same by the editor, the webviews and the command line:
// lines, pages, a spreadsheet's sheet and rows ("Costs, rows 2-40"), or paragraphs (DOCX and the
// other formats located by block). A slide deck's passages are located by slide number as pages:
// given the file's path, they are said as slides.

import type { Location } from './types.ts';

const DECK = /\.(pptx|pptm|odp)$/i;
const NOUNS = { lines: 'line', pages: 'page', blocks: 'paragraph', rows: 'row' } as const;

export function describeLocation(location: Location, filePath = ''): string {
  const noun = location.kind === 'pages' && DECK.test(filePath) ? 'slide' : NOUNS[location.kind];
  const range = location.start === location.end ? `${noun} ${location.start}` : `${noun}s ${location.start}-${location.end}`;
  return location.kind === 'rows' && location.sheet !== undefined ? `${location.sheet}, ${range}` : range;
}
