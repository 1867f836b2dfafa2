// Claims: statements of a figure or a date about a coarse subject ("the gantry crane GC-2
// refurbishment cost EUR 42,000"), or of a direction ("Aspirin reduces the risk of stroke",
// direction.ts), read deterministically from one passage at a time. They are
// the evidence for claim_support and claim_contradiction between items; compare.ts decides when
// two claims are about the same thing. Precision matters more than recall here, since a claim
// read wrongly can surface as a contradiction: anything unsure (a bare number, an approximation,
// a range, a figure with no subject) is left out. docs/EXTRACTION.md describes the rules.

import { extractEntities } from '../entities/index.ts';
import type { Claim, ClaimKind, Entity } from '../types.ts';
import { singular } from '../words.ts';
import { type AttributeCue, type CueGroup, findAttribute, findFrame, headerAttribute } from './attributes.ts';
import { findDirection, mayHaveDirection } from './direction.ts';
import { findDates, findEvent, mayHaveEvent } from './eventDates.ts';
import { findFigures, parseNumber, signOf, tidy } from './figures.ts';
import { blank, nonFigureSpans } from './masks.ts';
import { type Sentence, segmentPassage, type TableRow } from './passage.ts';
import { findSubject, isGeneric, passageSubjects, phraseBefore, subjectOfText } from './subject.ts';
import { type Token, tokenize } from './tokens.ts';
import { currencyCode, lookupUnit } from './units.ts';

/** Recorded on every claim. Bump on any change to the output for the same input. */
export const CLAIM_EXTRACTOR_VERSION = 'claims@3';

export interface ClaimContext {
  /** The item's title. */
  title?: string;
  /** The passage's heading path, outermost first. */
  headingPath?: string[];
  /**
   * Entities already found in the same text (offsets in it), for each claim's entityKeys. When
   * absent they are extracted here, and only if the passage has a claim.
   */
  entities?: readonly Entity[];
}

interface Draft {
  kind: ClaimKind;
  subject: string;
  attribute: string;
  value: number | string;
  unit: string | null;
}

/**
 * Kinds whose figures may take the passage's subject when the sentence names none. A weight or a
 * length may not: the title names a project, not the object measured.
 */
const FALLS_BACK: ReadonlySet<CueGroup> = new Set(['money', 'percentage', 'duration', 'effort']);

/**
 * Kinds whose figures need a cue word to be a claim: "30 days" or "5%" alone says nothing about
 * what is measured, and in contracts such figures are everywhere ("within thirty (30) days").
 */
const NEEDS_CUE: ReadonlySet<CueGroup> = new Set(['duration', 'percentage']);

const NO_CUE: AttributeCue = { attribute: '', index: -1, end: -1, noun: false, negate: false };
const AGGREGATE_LABELS = new Set(['total', 'subtotal', 'sub-total', 'grand total', 'sum', 'overall', 'all']);
/** A passage with neither a digit nor a spelled-out number has no figures or dates: skip it cheaply. */
const HINT =
  /\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b/i;

export function extractClaims(text: string, context: ClaimContext = {}): Claim[] {
  const mayHaveFigures = HINT.test(text);
  const mayHaveDirections = mayHaveDirection(text);
  if (!mayHaveFigures && !mayHaveDirections) return [];
  const headingPath = context.headingPath ?? [];
  const claims: Claim[] = [];
  const seen = new Set<string>();
  let entities = context.entities;
  const subjectsUnder = new Map<string | null, string[]>();
  for (const segment of segmentPassage(text)) {
    let passage = subjectsUnder.get(segment.heading);
    if (!passage) {
      passage = passageSubjects(context.title, segment.heading ? [...headingPath, segment.heading] : headingPath);
      subjectsUnder.set(segment.heading, passage);
    }
    const drafts: Draft[] = [];
    if (mayHaveFigures) drafts.push(...(segment.kind === 'row' ? rowClaims(segment, passage) : sentenceClaims(segment, passage)));
    if (mayHaveDirections && segment.kind === 'sentence') drafts.push(...directionClaims(segment.text));
    for (const draft of drafts) {
      const key = `${draft.kind}|${draft.subject}|${draft.attribute}|${draft.value}|${draft.unit}`;
      if (seen.has(key)) continue;
      seen.add(key);
      entities ??= extractEntities(text);
      claims.push({
        ...draft,
        text: segment.text,
        start: segment.start,
        end: segment.end,
        entityKeys: entityKeysIn(entities, segment.start, segment.end),
        producer: 'deterministic',
        extractorVersion: CLAIM_EXTRACTOR_VERSION,
      });
    }
  }
  return claims;
}

function entityKeysIn(entities: readonly Entity[], start: number, end: number): string[] {
  const keys = new Set<string>();
  for (const entity of entities) if (entity.start < end && entity.end > start) keys.add(entity.key);
  return [...keys].sort();
}

interface Read {
  tokens: Token[];
  figures: ReturnType<typeof findFigures>;
  dates: ReturnType<typeof findDates>;
}

function read(text: string): Read {
  const masked = blank(text, nonFigureSpans(text));
  const dates = mayHaveEvent(text) ? findDates(masked) : [];
  const figures = findFigures(text, blank(masked, dates.map((d) => [d.start, d.end])));
  const tokens = tokenize(text, [
    ...figures.map((f, i): [number, number, 'figure', number] => [f.start, f.end, 'figure', i]),
    ...dates.map((d, i): [number, number, 'date', number] => [d.start, d.end, 'date', i]),
  ]);
  return { tokens, figures, dates };
}

/** "EUR 50 per hour" is a rate, not an amount: the attribute says so. */
function rateSuffix(tokens: readonly Token[], at: number): string {
  const next = tokens[at + 1];
  const word = tokens[at + 2];
  if (!next || !word || word.kind !== 'word') return '';
  if (next.lower === 'per' || next.text === '/') return ` per ${singular(word.lower)}`;
  if ((next.lower === 'a' || next.lower === 'an') && /^(hour|day|week|month|year|tonne|unit)$/.test(word.lower)) {
    return ` per ${word.lower}`;
  }
  return '';
}

function sentenceClaims(sentence: Sentence, passage: string[]): Draft[] {
  const { tokens, figures, dates } = read(sentence.text);
  if (figures.length === 0 && dates.length === 0) return [];
  const drafts: Draft[] = [];
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at]!;
    if (token.kind === 'figure') {
      const figure = figures[token.ref!]!;
      const group: CueGroup = figure.kind === 'quantity' ? figure.dimension! : figure.kind;
      const cue = findAttribute(tokens, at, group, 0, tokens.length);
      const frame = cue.index < 0 ? findFrame(tokens, at, group) : null;
      if (NEEDS_CUE.has(group) && !frame && cue.index < 0) continue;
      const subject = findSubject(tokens, at, cue, frame, {
        passage,
        label: sentence.label,
        mayFallBack: FALLS_BACK.has(group),
        attributeNounsAreGeneric: true,
        attributive: figure.kind === 'quantity',
        money: figure.kind === 'money',
      });
      if (!subject) continue;
      const value = cue.negate ? -Math.abs(figure.value) : figure.value;
      const attribute = (frame?.attribute ?? cue.attribute) + rateSuffix(tokens, at);
      drafts.push({ kind: figure.kind, subject, attribute, value, unit: figure.unit });
    } else if (token.kind === 'date') {
      const event = findEvent(tokens, at);
      if (!event) continue;
      // "the budget approved in December 2024": the phrase right before the verb is what it dates.
      const near = phraseBefore(tokens, event.index);
      const subject = findSubject(
        tokens,
        event.index,
        NO_CUE,
        null,
        { passage, label: sentence.label, mayFallBack: true, attributeNounsAreGeneric: false },
        near ? [near] : [],
      );
      if (!subject) continue;
      drafts.push({ kind: 'event_date', subject, attribute: event.attribute, value: dates[token.ref!]!.value, unit: null });
    }
  }
  return drafts;
}

/** A direction claim: the subject, the object as its attribute, the direction as its value. */
function directionClaims(sentence: string): Draft[] {
  const found = findDirection(sentence);
  if (!found) return [];
  return [{ kind: 'direction', subject: found.subject, attribute: found.object, value: found.direction, unit: found.scale }];
}

interface HeaderUnit {
  kind: 'money' | 'quantity' | 'percentage';
  unit: string;
  group: CueGroup;
  factor: number;
}

/** The unit a column header gives its cells: "Budget (EUR)", "Weight (t)", "Share %". */
function headerUnit(header: string): HeaderUnit | null {
  const candidates = [...header.matchAll(/\(([^)]+)\)/g)].map((m) => m[1]!.trim());
  candidates.push(...(header.match(/[€£$%]|\b[A-Z]{3}\b/g) ?? []));
  for (const candidate of candidates) {
    if (candidate === '%') return { kind: 'percentage', unit: '%', group: 'percentage', factor: 1 };
    const code = currencyCode(candidate);
    if (code) return { kind: 'money', unit: code, group: 'money', factor: 1 };
    const info = lookupUnit(candidate);
    if (info) return { kind: 'quantity', unit: info.unit, group: info.dimension, factor: info.factor };
  }
  return null;
}

const isSoleFigure = (cell: string): boolean => {
  const figures = findFigures(cell);
  return figures.length === 1 && figures[0]!.start === 0 && figures[0]!.end === cell.trim().length;
};

const PLAIN_NUMBER = /^([+\-−]?)\s*(\d{1,3}(?:[,\u00a0\u202f\u2009 ]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)$/;

/**
 * A table row: a figure cell is a claim when the cell or its column header gives its unit and
 * the row's label (its first text cell) gives a subject; an aggregate row ("Total") takes the
 * passage's subject. Rows of bare numbers, or tables whose header is not in the passage, give
 * none. A date in a cell counts when the cell says what happened ("Closed on 11 April 2025").
 */
function rowClaims(row: TableRow, passage: string[]): Draft[] {
  const labelIndex = row.cells.findIndex((cell) => cell !== '' && !PLAIN_NUMBER.test(cell) && !isSoleFigure(cell));
  const label = labelIndex >= 0 ? row.cells[labelIndex]! : '';
  const labelSubject = label ? subjectOfText(label.replace(/\*+/g, '')) : '';
  const aggregate = AGGREGATE_LABELS.has(labelSubject);
  const drafts: Draft[] = [];
  for (const [c, cell] of row.cells.entries()) {
    if (c === labelIndex || cell === '') continue;
    const text = cell.replace(/\*+/g, '').trim();
    const header = row.header?.[c] ?? '';
    const { tokens, figures, dates } = read(text);
    const own = figures.length === 1 && figures[0]!.start === 0 && figures[0]!.end === text.length ? figures[0]! : null;
    const plain = PLAIN_NUMBER.exec(text);
    const unit = own ? null : plain ? headerUnit(header) : null;
    if (own || (plain && unit)) {
      const kind = own ? own.kind : unit!.kind;
      const group: CueGroup = own ? (own.kind === 'quantity' ? own.dimension! : own.kind) : unit!.group;
      const subject = aggregate || isGeneric(labelSubject) ? (FALLS_BACK.has(group) ? (passage[0] ?? '') : '') : labelSubject;
      if (!subject) continue;
      const value = own ? own.value : tidy(signOf(plain![1]) * parseNumber(plain![2]!, kind === 'money') * unit!.factor);
      drafts.push({ kind, subject, attribute: headerAttribute(header, group), value, unit: own ? own.unit : unit!.unit });
      continue;
    }
    for (let at = 0; at < tokens.length; at++) {
      if (tokens[at]!.kind !== 'date') continue;
      const event = findEvent(tokens, at);
      if (!event) continue;
      // A cell names its own subject ("GC-2 completed on …") or stands for the passage's.
      const near = phraseBefore(tokens, event.index);
      const subject = near && !isGeneric(near, false) ? near : passage[0];
      if (subject) drafts.push({ kind: 'event_date', subject, attribute: event.attribute, value: dates[tokens[at]!.ref!]!.value, unit: null });
    }
  }
  return drafts;
}
