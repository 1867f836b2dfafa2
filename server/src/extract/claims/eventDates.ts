// Dates attached to an event: "was completed on 16 May 2025" → completion date 2025-05-16.
// A date only counts when an event verb (or a noun like "completion date") sits right next to
// it in the same clause, so a document's own date, a meeting time or "in 2025" are not claims.
// chrono-node reads the date; only dates the text pins down itself are kept (a year must be
// written), at day or month precision. All-numeric dates whose day and month could be swapped
// (05/06/2025) are skipped rather than guessed.

import * as chrono from 'chrono-node';
import type { Token } from './tokens.ts';

export interface DateSpan {
  /** ISO form: YYYY-MM-DD or YYYY-MM. */
  value: string;
  start: number;
  end: number;
}

// The British casual parser reads "May 2025" (the strict one does not) and day-first numeric
// dates; whatever it infers rather than reads (a missing year, "tomorrow") is filtered out below.
const parser = chrono.en.GB;
const REFERENCE = new Date(Date.UTC(2000, 0, 1));
const NUMERIC = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})$/;

/** Absolute calendar dates in text (which should already have version strings blanked out). */
export function findDates(text: string): DateSpan[] {
  const out: DateSpan[] = [];
  if (!/\d/.test(text)) return out;
  for (const result of parser.parse(text, REFERENCE)) {
    const start = result.start;
    if (result.end || !start.isCertain('year') || !start.isCertain('month')) continue;
    // The text must carry its year; chrono infers one from the reference date otherwise.
    if (!/\b(?:19|20)\d\d\b|\d{1,2}[/.-]\d{1,2}[/.-]\d{2}\b/.test(result.text)) continue;
    const numeric = NUMERIC.exec(result.text.trim());
    if (numeric && Number(numeric[1]) <= 12 && Number(numeric[2]) <= 12 && numeric[1] !== numeric[2]) continue;
    const year = start.get('year')!;
    const month = String(start.get('month')!).padStart(2, '0');
    const value = start.isCertain('day') ? `${year}-${month}-${String(start.get('day')!).padStart(2, '0')}` : `${year}-${month}`;
    // chrono includes a leading "on"/"at" and trailing times; keep only the date words' span.
    const lead = /^(?:(?:on|at|in|from|by|of)\s+)+/i.exec(result.text)?.[0].length ?? 0;
    out.push({ value, start: result.index + lead, end: result.index + result.text.length });
  }
  return out;
}

/** Event words and the attribute they give the date. */
const EVENT_VERBS: Record<string, string> = {
  completed: 'completion date', finished: 'completion date', concluded: 'completion date',
  started: 'start date', began: 'start date', begun: 'start date', commenced: 'start date',
  signed: 'signature date', executed: 'signature date', delivered: 'delivery date',
  installed: 'installation date', commissioned: 'commissioning date', approved: 'approval date',
  issued: 'issue date', paid: 'payment date', opened: 'opening date', closed: 'closure date',
  launched: 'launch date', released: 'release date', submitted: 'submission date', received: 'receipt date',
  terminated: 'termination date', expired: 'expiry date', awarded: 'award date', shipped: 'shipping date',
  handed: 'handover date',
};

const EVENT_NOUNS: Record<string, string> = {
  'completion date': 'completion date', 'date of completion': 'completion date', 'start date': 'start date',
  'commencement date': 'start date', 'delivery date': 'delivery date', 'date of delivery': 'delivery date',
  'effective date': 'effective date', 'signature date': 'signature date', 'date of signature': 'signature date',
  'expiry date': 'expiry date', 'expiration date': 'expiry date', 'termination date': 'termination date',
  'handover date': 'handover date', 'installation date': 'installation date', 'go-live date': 'go-live date',
};

const EVENT_WORD = new RegExp(
  `\\b(?:${[...Object.keys(EVENT_VERBS), ...Object.keys(EVENT_NOUNS).map((n) => n.split(' ')[0])].join('|')})\\b`,
  'i',
);

/** Whether text has an event word at all: chrono is the costly part of reading claims, and a date without an event is no claim. */
export function mayHaveEvent(text: string): boolean {
  return EVENT_WORD.test(text);
}

/** Words allowed between an event verb and its date: "completed, on 16 May 2025", "signed on". */
const BETWEEN = new Set(['on', 'in', ',', 'it', 'them', 'successfully', 'finally', 'formally', 'fully', 'duly', 'eventually', 'only', 'already', 'over', 'back']);
/** Words before the verb that make it a plan, not an event. */
const PLANNED = new Set(['will', 'shall', 'should', 'expected', 'planned', 'scheduled', 'due', 'to', 'must', 'would', 'intended', 'aims']);
const NEGATED = new Set(['not', 'never', "n't", 'yet']);

export interface EventCue {
  attribute: string;
  /** Token index of the event word. */
  index: number;
}

/**
 * The event the date token at `at` dates, or null. Looks for an event verb up to four tokens
 * before the date ("was completed on"), a noun ("completion date:") just before it, or, for a
 * clause opening "On 16 May 2025", an event verb later in the clause.
 */
export function findEvent(tokens: readonly Token[], at: number): EventCue | null {
  const before = tokens[at - 1]?.lower;
  if (before === 'by' || before === 'until' || before === 'before' || before === 'after' || before === 'from' || before === 'between') return null;
  for (let i = at - 1, gap = 0; i >= 0 && gap <= 4; i--, gap++) {
    const t = tokens[i]!;
    const noun = nounAt(tokens, i);
    if (noun) return { attribute: noun, index: i };
    const verb = EVENT_VERBS[t.lower];
    if (verb) return qualify(tokens, i, verb);
    if (!BETWEEN.has(t.lower) && !(t.kind === 'punct' && t.text === ':') && !['is', 'was', 'were', 'date', 'the'].includes(t.lower)) break;
  }
  if (before === 'on' && (at - 1 === 0 || tokens[at - 2]?.kind === 'punct')) {
    for (let i = at + 1; i < Math.min(tokens.length, at + 10); i++) {
      const t = tokens[i]!;
      if (t.kind === 'date' || t.kind === 'figure' || t.text === ';') break;
      const verb = EVENT_VERBS[t.lower];
      if (verb) return qualify(tokens, i, verb);
    }
  }
  return null;
}

function nounAt(tokens: readonly Token[], i: number): string | null {
  for (const [phrase, attribute] of Object.entries(EVENT_NOUNS)) {
    const words = phrase.split(' ');
    const first = i - words.length + 1;
    if (first < 0) continue;
    if (words.every((w, k) => tokens[first + k]?.lower === w)) return attribute;
  }
  return null;
}

function qualify(tokens: readonly Token[], i: number, attribute: string): EventCue | null {
  for (let k = Math.max(0, i - 4); k < i; k++) {
    const word = tokens[k]!.lower;
    if (NEGATED.has(word)) return null;
    if (PLANNED.has(word)) return { attribute: `planned ${attribute}`, index: i };
  }
  return { attribute, index: i };
}
