// Words and editor positions for a passage's location (lines, pages, or paragraphs of a DOCX), and
// where an opened passage puts the eye. Pure, so tested without VS Code.

import { wordMatches, type WordMatch } from '../../shared/queryWords.ts';
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
  /** What is selected: the query's words where most of them stand together on one line of the passage; else the start of its first line. */
  selection: { line: number; start: number; end: number };
}

/** The most characters a selection of the query's words spans: a Markdown paragraph is one line, and selecting all of it says nothing. */
const SELECTION_CHARS = 60;

/** The run of matches on a line, within SELECTION_CHARS, holding the most distinct query words (the first such). */
function bestRun(matches: readonly WordMatch[]): { words: number; start: number; end: number } | null {
  let best: { words: number; start: number; end: number } | null = null;
  matches.forEach((first, at) => {
    const run = matches.slice(at).filter((match) => match.end - first.start <= SELECTION_CHARS);
    const words = new Set(run.map((match) => match.word)).size;
    if (!best || words > best.words) best = { words, start: first.start, end: run.at(-1)!.end };
  });
  return best;
}

/**
 * The passage's lines (cut to the file: it may have changed since it was indexed) and, within
 * them, where most of the query's words stand together on one line; the first such place when
 * several tie.
 */
export function passageFocus(location: Location | null | undefined, lineCount: number, lineText: (line: number) => string, words: readonly string[]): PassageFocus | null {
  const lines = lineSelection(location);
  if (!lines || lineCount === 0) return null;
  const startLine = Math.min(Math.max(0, lines.startLine), lineCount - 1);
  const endLine = Math.min(Math.max(startLine, lines.endLine), lineCount - 1);
  let selection = { line: startLine, start: 0, end: 0 };
  let most = 0;
  for (let line = startLine; line <= endLine; line += 1) {
    const run = bestRun(wordMatches(lineText(line), words));
    if (run && run.words > most) {
      most = run.words;
      selection = { line, start: run.start, end: run.end };
    }
  }
  return { startLine, endLine, selection };
}
