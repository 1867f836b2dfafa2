// The parsed text of a file VS Code cannot show as text (a slide deck, a workbook, a PDF, an
// e-mail): its passages as the store keeps them, in order, each under its location in words
// ("slide 3", "Budget, rows 2-40", "page 4"), laid out as one read-only document, and where in
// that document a passage stands, so a search result opens there. The server sends the passages
// (engine/parsedText.ts); the client lays them out with this and opens the view at the passage
// (client/src/parsedText/). Pure, so tested without VS Code.

import { describeLocation } from './locationWords.ts';
import { ocrLabelOf } from './ocrLabel.ts';
import { wordMatches } from './queryWords.ts';
import type { ItemStatus, Location } from './types.ts';

export interface ParsedPassage {
  location: Location;
  headingPath: string[];
  text: string;
}

/** What the server answers for one file: the item behind it and its passages, in order. */
export interface ParsedTextView {
  /** The file asked about, folder-relative. */
  path: string;
  /** The byte-identical original whose text is shown, when the file asked about is a copy of it. */
  originalPath?: string;
  title: string | null;
  status: ItemStatus;
  reason: string | null;
  parserVersion: string | null;
  /** When the item's current version was stored (ISO). */
  updatedAt: string;
  passages: ParsedPassage[];
  /** Passages past PARSED_VIEW_MAX_CHARS, left out of the view. */
  passagesLeftOut: number;
  /** Pieces of hidden text the parser kept out of the passages (relata item lists them). */
  hiddenCount: number;
  /** Why only part of the file was read, else null. */
  truncated: string | null;
}

/** The view holds at most this many characters of passages: a 2,000-page PDF stays a document an editor opens at once. */
export const PARSED_VIEW_MAX_CHARS = 4_000_000;

/** A passage in the laid-out document: 0-based lines; its label line stands just above its first line. */
export interface PassageLines {
  location: Location;
  labelLine: number;
  startLine: number;
  endLine: number;
}

export interface ParsedTextDocument {
  text: string;
  passages: PassageLines[];
}

/** "slide 3 · Attachment Test", "Feuil1, rows 1-22", "page 2 · read by OCR (91% confidence)". */
export function passageLabel(passage: ParsedPassage, filePath: string): string {
  const ocr = ocrLabelOf(passage.headingPath);
  const headings = passage.headingPath.filter((heading) => heading !== passage.location.sheet && ocrLabelOf([heading]) === null);
  return [describeLocation(passage.location, filePath), headings.join(' › '), ocr ?? ''].filter((part) => part !== '').join(' · ');
}

/** One line, whatever a crafted file put in it: a label or a title never breaks the layout. */
const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ');

/** The document a person reads: a header naming the file and how it was read, then each passage under its label. */
export function layOutParsedText(view: ParsedTextView): ParsedTextDocument {
  const lines: string[] = [];
  const shown = view.originalPath ?? view.path;
  lines.push(oneLine(`Parsed text of ${view.path}${view.title ? ` ("${view.title}")` : ''}, as Relata stored it.`));
  lines.push('Read-only: "Open original" opens the file itself.');
  if (view.originalPath) lines.push(oneLine(`${view.path} is byte-identical to ${view.originalPath}: the original's text is shown.`));
  if (view.status !== 'indexed') {
    lines.push(oneLine(`Not indexed (${view.status}${view.reason ? `: ${view.reason}` : ''}).`));
  } else {
    lines.push(`Parser ${view.parserVersion ?? 'unknown'}, stored ${view.updatedAt.slice(0, 10)}; ${view.passages.length + view.passagesLeftOut} passage${view.passages.length + view.passagesLeftOut === 1 ? '' : 's'}.`);
  }
  if (view.hiddenCount > 0) lines.push(`Hidden text left out of the passages: ${view.hiddenCount} piece${view.hiddenCount === 1 ? '' : 's'} (relata item ${shown} lists them).`);
  if (view.truncated) lines.push(oneLine(`Only part of the file was read: ${view.truncated}.`));
  const passages: PassageLines[] = [];
  for (const passage of view.passages) {
    lines.push('');
    const labelLine = lines.length;
    lines.push(oneLine(`── ${passageLabel(passage, shown)} ──`));
    const body = passage.text.replace(/\r\n?/g, '\n').split('\n');
    lines.push(...body);
    passages.push({ location: passage.location, labelLine, startLine: labelLine + 1, endLine: labelLine + body.length });
  }
  if (view.passagesLeftOut > 0) lines.push('', `… ${view.passagesLeftOut} more passage${view.passagesLeftOut === 1 ? '' : 's'} left out of this view (it holds ${PARSED_VIEW_MAX_CHARS.toLocaleString('en')} characters); open the original to read them.`);
  return { text: lines.join('\n') + '\n', passages };
}

const sameRange = (a: Location, b: Location) => a.kind === b.kind && a.sheet === b.sheet && a.start === b.start && a.end === b.end;
const overlaps = (a: Location, b: Location) => a.kind === b.kind && a.sheet === b.sheet && a.start <= b.end && b.start <= a.end;

/**
 * The passage a location names: the one at exactly that location, else the first that overlaps it
 * (the file was indexed again since the result was found); among several, the one holding most of
 * the query's words (a long slide is cut into two passages, both "slide 3"). Null when none does.
 */
export function passageAt(document: ParsedTextDocument, location: Location, lineText: (line: number) => string, words: readonly string[] = []): PassageLines | null {
  const exact = document.passages.filter((passage) => sameRange(passage.location, location));
  const candidates = exact.length > 0 ? exact : document.passages.filter((passage) => overlaps(passage.location, location));
  if (candidates.length <= 1 || words.length === 0) return candidates[0] ?? null;
  let best = candidates[0]!;
  let most = -1;
  for (const candidate of candidates) {
    const found = new Set<string>();
    for (let line = candidate.startLine; line <= candidate.endLine; line += 1) for (const match of wordMatches(lineText(line), words)) found.add(match.word);
    if (found.size > most) {
      most = found.size;
      best = candidate;
    }
  }
  return best;
}
