// Words and editor positions for a passage's location (lines, pages, or paragraphs of a DOCX), and
// where an opened passage puts the eye. Pure, so tested without VS Code.

import { wordMatches } from '../../shared/queryWords.ts';
import type { Location } from '../../shared/types.ts';

export { describeLocation } from '../../shared/locationWords.ts';

/** 0-based line range to select when a file opens at this passage; null when the format has no lines. */
export function lineSelection(location: Location | null | undefined): { startLine: number; endLine: number } | null {
  if (!location || location.kind !== 'lines') return null;
  return { startLine: location.start - 1, endLine: location.end - 1 };
}

/** Where an opened passage puts the eye: its lines highlighted, and the cursor on the query's words. */
export interface PassageFocus {
  /** 0-based lines of the passage, within the file. */
  startLine: number;
  endLine: number;
  /** What is selected: on the passage's line with the most of the query's words, from the first to the last of them; else the start of the passage's first line. */
  selection: { line: number; start: number; end: number };
}

/**
 * The passage's lines (cut to the file: it may have changed since it was indexed) and, within
 * them, the line where most of the query's words are; the first such line when several tie.
 */
export function passageFocus(location: Location | null | undefined, lineCount: number, lineText: (line: number) => string, words: readonly string[]): PassageFocus | null {
  const lines = lineSelection(location);
  if (!lines || lineCount === 0) return null;
  const startLine = Math.min(Math.max(0, lines.startLine), lineCount - 1);
  const endLine = Math.min(Math.max(startLine, lines.endLine), lineCount - 1);
  let selection = { line: startLine, start: 0, end: 0 };
  let most = 0;
  for (let line = startLine; line <= endLine; line += 1) {
    const matches = wordMatches(lineText(line), words);
    const distinct = new Set(matches.map((match) => match.word)).size;
    if (distinct > most) {
      most = distinct;
      selection = { line, start: matches[0]!.start, end: matches.at(-1)!.end };
    }
  }
  return { startLine, endLine, selection };
}
