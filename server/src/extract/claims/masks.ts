// Numbers that are not figures: version strings, phone numbers, section, clause and page
// references, list numbering, identifiers ("PO-2025-0412", "GC-2") and statistics (statistics.ts). They are blanked out
// (replaced by spaces, so offsets stay valid) before figures and dates are looked for, which is
// simpler to reason about than teaching every figure pattern what to avoid.

import { statisticSpans } from './statistics.ts';
import { lookupUnit, UNIT_SOURCE } from './units.ts';

type Span = [start: number, end: number];

/** A numeric date like 16.05.2025 or 2025.05.16, which a version pattern must not swallow. */
function looksLikeDate(text: string): boolean {
  const parts = text.split('.').map(Number);
  if (parts.length !== 3) return false;
  const [a, b, c] = parts as [number, number, number];
  const dmy = a >= 1 && a <= 31 && b >= 1 && b <= 12 && c >= 1900 && c <= 2100;
  const ymd = a >= 1900 && a <= 2100 && b >= 1 && b <= 12 && c >= 1 && c <= 31;
  return dmy || ymd;
}

const VERSION_WORD = /\b(?:version|ver\.?)\s?\d+(?:[._-]\d+)*[a-z]?\b/gi;
const VERSION_DOTTED = /\b(?:v|release|rel\.?|build|revision|rev\.?|firmware|fw)\s?\d+(?:[._-]\d+)+[a-z]?\b/gi;
const VERSION_V = /\bv\d+\b/gi;
const DOTTED_TRIPLE = /(?<![\w.])\d+\.\d+\.\d+(?:\.\d+)*(?![\w.]*\d)/g;

const PHONE_PATTERNS = [
  /(?:\+|\b00)\d{1,3}(?:[\s.-]?\(?\d{1,5}\)?){2,6}/g,
  /\(\d{2,5}\)\s?\d{3,4}[\s.-]?\d{3,4}\b/g,
  /\b\d{3}[.-]\d{3}[.-]\d{4}\b/g,
  /\b(?:tel|telephone|phone|mobile|mob|cell|fax|call|ring|dial|hotline|helpline)\b\.?\s*(?:no\.?|number)?\s*:?\s*(?:us\s+)?(?:on\s+)?\+?[\d(][\d\s().-]{6,}\d/gi,
];

const REFERENCE_WORDS =
  '§+|sections?|sec\\.|clauses?|cl\\.|paragraphs?|paras?\\.?|articles?|art\\.|schedules?|annex(?:es)?|appendix|appendices|' +
  'exhibits?|chapters?|ch\\.|parts?|items?|rules?|regulations?|figures?|fig\\.|tables?|steps?|notes?|pages?|p\\.|pp\\.|' +
  'lines?|no\\.|nos\\.|numbers?|nr\\.?|ref\\.?|reference|bays?|aisles?|doors?|rooms?|floors?|gates?|docks?|platforms?|zones?|rows?|columns?';

// A reference's number, then more numbers joined by "of", "to", "and", "-" or ",". A number
// followed by a unit or currency is a figure after all ("aisle 4 and 40 kg"), so it is left alone.
const NOT_A_FIGURE = `(?![\\d.,]*\\s?(?:[%€£$]|(?:${UNIT_SOURCE})(?![\\w])))`;
const REFERENCE = new RegExp(
  `(?:(?<=^|[^\\w])(?:${REFERENCE_WORDS}))\\s*\\(?\\d+(?:[.\\-–]\\d+)*(?:\\([a-z0-9]+\\))*${NOT_A_FIGURE}` +
    `(?:\\s*(?:of|to|and|-|–|,)\\s*\\d+(?:[.\\-–]\\d+)*${NOT_A_FIGURE})*`,
  'gi',
);

/** List and heading numbering at the start of a line: "1.", "2.1", "A1", "(a)". */
const NUMBERING = /^[ \t]*(?:\d+(?:\.\d+)*\.|\d+(?:\.\d+)+|[A-Z]\d+|\(?[a-z]\))(?=[ \t])/gm;
const UNIT_AHEAD = new RegExp(`^\\s?(?:${UNIT_SOURCE}|%|per\\s?cent|percent)(?![\\w])`);

const IDENTIFIER = /\b[A-Za-z]+(?:[-/][A-Za-z]+)*[-/]?\d\w*(?:[-/.][A-Za-z0-9]+)*/g;
const DIGIT_LED_IDENTIFIER = /\b\d+[A-Za-z]+[-/][A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*/g;

function collect(text: string, pattern: RegExp, keep: (match: RegExpExecArray) => boolean = () => true): Span[] {
  const spans: Span[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    if (keep(m)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

const digitCount = (s: string): number => s.replace(/\D/g, '').length;

/** Spans of text that hold numbers which are not figures. */
export function nonFigureSpans(text: string): Span[] {
  const spans: Span[] = [];
  spans.push(...collect(text, VERSION_WORD), ...collect(text, VERSION_DOTTED), ...collect(text, VERSION_V));
  spans.push(...collect(text, DOTTED_TRIPLE, (m) => !looksLikeDate(m[0])));
  for (const pattern of PHONE_PATTERNS) spans.push(...collect(text, pattern, (m) => digitCount(m[0]) >= 7));
  spans.push(...collect(text, REFERENCE));
  spans.push(...collect(text, NUMBERING, (m) => !UNIT_AHEAD.test(text.slice(m.index + m[0].length))));
  // A unit written with a digit ("m2", "m³") right after a number is part of a figure, not an identifier.
  spans.push(
    ...collect(text, IDENTIFIER, (m) => !(lookupUnit(m[0]) !== null && /\d\s?$/.test(text.slice(Math.max(0, m.index - 2), m.index)))),
  );
  spans.push(...collect(text, DIGIT_LED_IDENTIFIER));
  spans.push(...statisticSpans(text));
  return spans;
}

/** The text with the given spans replaced by spaces; line breaks are kept. */
export function blank(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  const chars = text.split('');
  for (const [start, end] of spans) {
    for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = ' ';
  }
  return chars.join('');
}
