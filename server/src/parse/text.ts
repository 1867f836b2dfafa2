// Plain text has no markup, so the only structure a reader relies on is the paragraph: blocks
// are runs of non-blank lines, located by line numbers so the editor can open them in place.

import { decodeText } from './decode.ts';
import { parsedDocument } from './document.ts';
import type { Block, Parser } from './types.ts';

export const textParser: Parser = {
  version: 'text@1',
  extensions: ['.txt'],
  async parse(bytes) {
    const lines = splitLines(decodeText(bytes));
    const blocks: Block[] = [];
    let start = -1;
    for (let i = 0; i <= lines.length; i++) {
      const line = lines[i];
      const blank = line === undefined || line.trim() === '';
      if (!blank && start < 0) start = i;
      if (blank && start >= 0) {
        blocks.push({
          kind: 'paragraph',
          text: lines.slice(start, i).map((l) => l.trimEnd()).join('\n'),
          headingPath: [],
          location: { kind: 'lines', start: start + 1, end: i },
        });
        start = -1;
      }
    }
    return parsedDocument({ title: null, blocks, structure: { headings: [], tables: [] } });
  },
};

/** Splits on every line ending an editor counts (LF, CRLF, lone CR), so line numbers agree with it. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}
