// What a figure says about its subject ("cost", "budget", "weight"), read from cue words near
// it. Cues are listed per kind of figure, so "cost" can only name money and "weighs" only a mass:
// a cue never gives a figure an attribute its unit cannot have. Without a cue the attribute is
// the kind's default ("amount" for money, "weight" for a mass, "duration" for a time …).
//
// Estimates, originals, revisions and plans are kept apart from the plain attribute ("estimated
// cost" is not "cost"), because a forecast that differs from an actual is not a contradiction.

import type { Token } from './tokens.ts';
import type { Dimension } from './units.ts';
import { lexiconTags } from '../words.ts';
import { isContentAt } from './wordClass.ts';

export type CueGroup = 'money' | 'percentage' | Dimension;

interface Cue {
  words: string[];
  attribute: string;
  /** Where the cue may stand relative to the figure. */
  side: 'before' | 'after' | 'both';
  /** A noun cue ("the cost of …") can have an of-complement naming the subject. */
  noun: boolean;
  /** "EUR 1,750 under budget" is a variance of −1,750. */
  negate?: boolean;
}

// One line per attribute: "attribute = cue, cue, …". A cue ending in "~" is a verb (no
// of-complement); a cue starting with ">" may only follow the figure; "<" only precede it.
const TABLES: Record<CueGroup, string> = {
  money: `
    cost = cost, costs, costing, costed~, price, prices, priced~, paid~, pay, payment, payments, spent~,
      spend, spending, expenditure, invoice, invoices, invoiced~, invoicing, charged~, charge, charges, fee, fees,
      actual, actuals, outturn
    budget = budget, budgets, budgeted~, allocated~, allocation
    quote = quote, quoted~, quotation, tender, bid, offer
    budget variance = variance, overrun, overspend, >over budget, >over its budget, >over the budget, >above budget
    -budget variance = underspend, >under budget, >under its budget, >under the budget, >below budget
    saving = saving, savings, saved~
    revenue = revenue, revenues, turnover, sales, income
    profit = profit, profits
    loss = loss, losses
    write-off = written off, write-off, written-off, <wrote off
    excess = excess
    damage = damage
    value = value, valued~, worth
    investment = investment, invested~
    salary = salary, salaries, wage, wages
    penalty = penalty, fine, damages
    deposit = deposit
    rent = rent
    estimate = estimated~, estimate, forecast, projected~, expected~`,
  percentage: `
    budget variance = >over budget, >over its budget, >over the budget, overrun, variance
    discount = discount
    increase = increase, increased~, rise, rose~, growth, grew~
    decrease = decrease, decreased~, reduction, reduced~, fall, fell~, drop, dropped~
    contingency = contingency
    margin = margin
    interest rate = interest, interest rate
    share = share
    weighting = weight, weighting, weighted~
    utilisation = utilisation, utilization, utilised~, utilized~
    availability = availability, uptime
    progress = complete, completed~, progress
    tax rate = vat, tax
    overload test = overload
    commission = commission
    royalty = royalty, royalties`,
  mass: `
    weight = weight, weighs~, weighed~, weighing, mass
    capacity = capacity, rated~, safe working load, swl, lifting capacity
    load limit = restricted~, restriction, limit, limited~`,
  length: `
    length = length, long
    width = width, wide
    height = height, high, tall
    depth = depth, deep
    distance = distance, away
    diameter = diameter
    span = span`,
  area: `
    area = area, floor space, footprint, floor area`,
  volume: `
    volume = volume
    capacity = capacity`,
  duration: `
    duration = duration, took~, take~, takes~, lasted~, lasting~, lasts~
    downtime = downtime, outage, stoppage, closed~, shut~
    delay = delay, delayed~, late
    lead time = lead time
    warranty period = warranty, guarantee
    notice period = notice period, notice
    term = term`,
  effort: `
    effort = effort, labour, labor`,
  speed: `
    speed = speed
    speed limit = limit`,
  energy: `
    energy use = consumption, consumed~, used~, uses~, use`,
  power: `
    power rating = rating, rated~`,
  temperature: ``,
  pressure: ``,
};

const DEFAULTS: Record<CueGroup, string> = {
  money: 'amount',
  percentage: 'percentage',
  mass: 'weight',
  length: 'length',
  area: 'area',
  volume: 'volume',
  duration: 'duration',
  effort: 'effort',
  speed: 'speed',
  energy: 'energy',
  power: 'power',
  temperature: 'temperature',
  pressure: 'pressure',
};

function parseTable(table: string): Cue[] {
  const cues: Cue[] = [];
  for (const line of table.replace(/,\s*\n\s*/g, ', ').split('\n')) {
    const [name, list] = line.split('=').map((s) => s.trim());
    if (!name || !list) continue;
    const negate = name.startsWith('-');
    const attribute = negate ? name.slice(1) : name;
    for (const raw of list.split(',').map((s) => s.trim())) {
      let cue = raw;
      let side: Cue['side'] = 'both';
      if (cue.startsWith('>')) [side, cue] = ['after', cue.slice(1)];
      else if (cue.startsWith('<')) [side, cue] = ['before', cue.slice(1)];
      const noun = !cue.endsWith('~');
      cues.push({ words: cue.replace(/~$/, '').split(/\s+/), attribute, side, noun, negate });
    }
  }
  // Longer cues first, so "over its budget" wins over "budget" at the same place.
  return cues.sort((a, b) => b.words.length - a.words.length);
}

const CUES = Object.fromEntries(
  Object.entries(TABLES).map(([group, table]) => [group, parseTable(table)]),
) as Record<CueGroup, Cue[]>;

/** Words before a noun cue that make it a different attribute. */
const QUALIFIERS: Record<string, string> = {
  estimated: 'estimated', expected: 'estimated', forecast: 'estimated', projected: 'estimated',
  anticipated: 'estimated', original: 'original', initial: 'original', revised: 'revised',
  updated: 'revised', amended: 'revised', planned: 'planned', proposed: 'planned', target: 'planned',
};

export interface AttributeCue {
  attribute: string;
  /** Token index of the cue's first word, or -1 when the attribute is the default. */
  index: number;
  /** Token index just after the cue. */
  end: number;
  noun: boolean;
  negate: boolean;
}

function matchesAt(tokens: readonly Token[], i: number, words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++) {
    const t = tokens[i + k];
    if (!t || t.lower !== words[k]) return false;
  }
  return true;
}

/** A noun cue names the attribute only as the head of its phrase: "budget" in "capital budget review" does not. */
function cueAt(tokens: readonly Token[], i: number, cue: Cue): boolean {
  if (!matchesAt(tokens, i, cue.words)) return false;
  const next = i + cue.words.length;
  // "royalties equal to 50%": an adjective after the noun does not make it a modifier.
  const adjective = lexiconTags(tokens[next]?.lower ?? '').includes('Adjective');
  return !(cue.noun && isContentAt(tokens, next) && !adjective);
}


/** How far, in tokens, a cue may stand from its figure. */
const WINDOW_BEFORE = 8;
const WINDOW_AFTER = 5;

/**
 * The attribute of the figure at token `at`. Cues are looked for first before the figure (back
 * to the previous figure or the clause start `from`), nearest first, then after it (up to the
 * next figure or `to`).
 */
export function findAttribute(tokens: readonly Token[], at: number, group: CueGroup, from: number, to: number): AttributeCue {
  const cues = CUES[group];
  for (let i = at - 1; i >= Math.max(from, at - WINDOW_BEFORE); i--) {
    if (tokens[i]!.kind === 'figure') break;
    for (const cue of cues) {
      if (cue.side === 'after' || !cueAt(tokens, i, cue)) continue;
      if (i + cue.words.length > at) continue;
      return deadline(tokens, at, qualify(tokens, i, cue));
    }
  }
  for (let i = at + 1; i < Math.min(to, at + 1 + WINDOW_AFTER); i++) {
    // "EUR 6,500 (14.4%) over its budget": a figure in brackets restates this one.
    if (tokens[i]!.kind === 'figure' && tokens[i - 1]?.text === '(' && tokens[i + 1]?.text === ')') continue;
    if (tokens[i]!.kind === 'figure') break;
    for (const cue of cues) {
      if (cue.side === 'before' || !cueAt(tokens, i, cue)) continue;
      return qualify(tokens, i, cue);
    }
  }
  return { attribute: DEFAULTS[group], index: -1, end: -1, noun: false, negate: false };
}

/** Words after a duration that measure it from an event: "ten (10) days after discovering it". */
const FROM_EVENT = new Set(['after', 'following', 'from', 'of']);

/**
 * "Notice of any breach … ten (10) days after discovering it" sets a deadline to report, not a
 * notice period ("thirty (30) days' notice"): on CUAD a 10-day reporting deadline was compared
 * with a 30-day notice period. A notice cue before a duration that runs from an event is a deadline.
 */
function deadline(tokens: readonly Token[], at: number, cue: AttributeCue): AttributeCue {
  if (cue.attribute !== 'notice period' || !FROM_EVENT.has(tokens[at + 1]?.lower ?? '')) return cue;
  return { ...cue, attribute: 'notice deadline' };
}

function qualify(tokens: readonly Token[], i: number, cue: Cue): AttributeCue {
  let attribute = cue.attribute;
  const before = tokens[i - 1]?.lower;
  const qualifier = before === undefined ? undefined : QUALIFIERS[before];
  if (cue.noun && qualifier && attribute !== 'estimate') attribute = `${qualifier} ${attribute}`;
  return { attribute, index: i, end: i + cue.words.length, noun: cue.noun, negate: cue.negate === true };
}

/** The attribute a table column header names for its figures, e.g. "Actual (EUR)" → cost. */
export function headerAttribute(header: string, group: CueGroup): string {
  const words = header.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  const tokens = words.map((w, i) => ({ kind: 'word' as const, text: w, lower: w, start: i, end: i }));
  for (let i = 0; i < tokens.length; i++) {
    for (const cue of CUES[group]) if (matchesAt(tokens, i, cue.words)) return qualify(tokens, i, cue).attribute;
  }
  return DEFAULTS[group];
}

/** Every word that is a noun cue of some kind: a noun phrase headed by one names an attribute, not a subject. */
export const ATTRIBUTE_NOUNS: ReadonlySet<string> = new Set(
  Object.values(CUES).flatMap((cues) => cues.filter((c) => c.noun && c.words.length === 1).map((c) => c.words[0]!)),
);

/** Noun cues of several words ("notice period", "lead time"), likewise. */
export const ATTRIBUTE_PHRASES: readonly string[] = [
  ...new Set(Object.values(CUES).flatMap((cues) => cues.filter((c) => c.noun && c.words.length > 1).map((c) => c.words.join(' ')))),
];

/**
 * A sentence that opens with "the cost of X …" frames every figure after it that has no cue of
 * its own: "The cost of the GC-2 refurbishment is not agreed: the report gives EUR 42,000, the
 * review EUR 51,500." Returns the framing cue, whose of-complement names the subject.
 */
export function findFrame(tokens: readonly Token[], upTo: number, group: CueGroup): AttributeCue | null {
  for (let i = 0; i < upTo; i++) {
    for (const cue of CUES[group]) {
      if (!cue.noun || !cueAt(tokens, i, cue)) continue;
      const after = tokens[i + cue.words.length];
      if (after?.lower === 'of' && isContentOrDeterminer(tokens, i + cue.words.length + 1)) return qualify(tokens, i, cue);
    }
  }
  return null;
}

function isContentOrDeterminer(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i];
  if (!t) return false;
  return ['the', 'a', 'an', 'this', 'that', 'its', 'their', 'our'].includes(t.lower) || isContentAt(tokens, i);
}
