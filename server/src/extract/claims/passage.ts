// A passage (a chunk's text) cut into the units claims are read from: sentences, and table rows
// with the header row of their table. Blocks are separated by blank lines (see parse/document.ts);
// within a block a line break ends a sentence only where it looks deliberate (a label line, a
// list item, a line ending in punctuation), so a PDF paragraph wrapped mid-sentence reads whole.

export interface Sentence {
  kind: 'sentence';
  text: string;
  start: number;
  end: number;
  /** The nearest heading-like line above it in the passage, if any. */
  heading: string | null;
  /** The sentence before it in the same block, when that is a short label ("LED lighting upgrade."). */
  label: string;
}

export interface TableRow {
  kind: 'row';
  text: string;
  start: number;
  end: number;
  cells: string[];
  /** The first row of the table, when it is in the passage and holds no figures. */
  header: string[] | null;
  heading: string | null;
}

export type Segment = Sentence | TableRow;

const ABBREVIATIONS = new Set(
  `mr mrs ms dr prof st no nos e.g i.e etc vs approx incl fig figs art sec para cl ref p pp c est vol jan feb mar apr
  jun jul aug sep sept oct nov dec mt ft nr tel dept cf al`.split(/\s+/),
);

function blocksOf(text: string): { text: string; start: number }[] {
  const blocks: { text: string; start: number }[] = [];
  const separator = /\r?\n[ \t\r]*\n\s*/g;
  let start = 0;
  for (let m = separator.exec(text); m !== null; m = separator.exec(text)) {
    blocks.push({ text: text.slice(start, m.index), start });
    start = m.index + m[0].length;
  }
  blocks.push({ text: text.slice(start), start });
  return blocks.filter((b) => b.text.trim() !== '');
}

const isRow = (line: string): boolean => line.includes('|') && line.split('|').filter((c) => c.trim() !== '').length >= 2;
const isRule = (line: string): boolean => /^[\s|:+-]+$/.test(line) && line.includes('-');
const cellsOf = (line: string): string[] => line.replace(/^\s*\|/, '').replace(/\|\s*$/, '').split('|').map((c) => c.trim());
const hasFigure = (cell: string): boolean => /\d/.test(cell.replace(/\(\s*\d+\s*[-–]\s*\d+\s*\)/g, ''));

/** A short line with no closing punctuation, standing alone: a heading carried in the chunk's text. */
function looksLikeHeading(block: string): boolean {
  if (block.includes('\n') || block.includes('|')) return false;
  const words = block.trim().split(/\s+/);
  return words.length <= 8 && !/[.:;,!?]$/.test(block.trim()) && !/\d[\d,.]*\s*(%|[A-Za-z€£$])/.test(block);
}

/** Where a line break inside a block is a sentence break. */
function breaksAfter(line: string, next: string): boolean {
  if (/[.!?:;]["')\]]?\s*$/.test(line)) return true;
  if (/^\s*(?:[-*•]|\d+(?:\.\d+)*\.?\s|[A-Z]\d+\s|\(?[a-z]\)\s)/.test(next)) return true;
  if (/^\s*[A-Z][\w ()/-]{0,30}:\s/.test(next)) return true;
  // A JSON key path and its value, one per line: "assets[0].installed: 2009-06-01".
  if (/^\s*[\w$.[\]-]{1,80}:\s/.test(next)) return true;
  return !/^\s*[a-z0-9(€$£]/.test(next) && line.trim().split(/\s+/).length <= 6;
}

function sentencesOf(text: string, offset: number): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  // First the deliberate line breaks, then sentence ends inside each line group.
  const groups: { start: number; end: number }[] = [];
  const lines = text.split('\n');
  let pos = 0;
  let groupStart = 0;
  for (let i = 0; i < lines.length; i++) {
    const lineEnd = pos + lines[i]!.length;
    const next = lines[i + 1];
    if (next === undefined || breaksAfter(lines[i]!, next)) {
      groups.push({ start: groupStart, end: lineEnd });
      groupStart = lineEnd + 1;
    }
    pos = lineEnd + 1;
  }
  const boundary = /[.!?]+["')\]]*\s+(?=["'(\[]?[A-Z0-9€$£])/g;
  for (const group of groups) {
    const body = text.slice(group.start, group.end);
    let start = 0;
    boundary.lastIndex = 0;
    for (let m = boundary.exec(body); m !== null; m = boundary.exec(body)) {
      const before = body.slice(0, m.index);
      const word = /([A-Za-z][A-Za-z.]*)$/.exec(before)?.[1]?.toLowerCase() ?? '';
      if (ABBREVIATIONS.has(word.replace(/\.$/, '')) || /^[a-z]$/i.test(word) || /(^|\.)[a-z]\.[a-z]$/i.test(word)) continue;
      const end = m.index + m[0].trimEnd().length;
      push(out, body, start, end, offset + group.start);
      start = m.index + m[0].length;
    }
    push(out, body, start, body.length, offset + group.start);
  }
  return out;
}

function push(out: { text: string; start: number; end: number }[], body: string, start: number, end: number, offset: number): void {
  const raw = body.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const textOut = raw.trim();
  if (textOut === '') return;
  out.push({ text: textOut, start: offset + start + lead, end: offset + start + lead + textOut.length });
}

const isLabel = (sentence: string): boolean =>
  /\.$/.test(sentence) && sentence.split(/\s+/).length <= 6 && !/\d/.test(sentence);

export function segmentPassage(text: string): Segment[] {
  const segments: Segment[] = [];
  let heading: string | null = null;
  let header: string[] | null = null;
  let inTable = false;
  const blocks = blocksOf(text);
  for (const [index, block] of blocks.entries()) {
    const rawLines = block.text.split('\n');
    const lines = rawLines.map((line) => line.replace(/\r$/, ''));
    if (lines.every((line) => isRow(line) || isRule(line))) {
      let offset = block.start;
      for (const [n, line] of lines.entries()) {
        const start = offset;
        offset += rawLines[n]!.length + 1;
        if (isRule(line)) continue;
        const cells = cellsOf(line);
        if (!inTable) {
          header = cells.some(hasFigure) ? null : cells;
          inTable = true;
          if (header !== null) continue;
        }
        segments.push({ kind: 'row', text: line, start, end: start + line.length, cells, header, heading });
      }
      continue;
    }
    inTable = false;
    header = null;
    if (looksLikeHeading(block.text) && index < blocks.length - 1) {
      heading = block.text.trim();
      continue;
    }
    let label = '';
    for (const sentence of sentencesOf(block.text, block.start)) {
      segments.push({ kind: 'sentence', ...sentence, heading, label });
      label = isLabel(sentence.text) ? sentence.text.replace(/\.$/, '') : '';
    }
  }
  return segments;
}
