// Figures in a piece of text: amounts of money with a currency, quantities with a unit, and
// percentages, each with its value in canonical form. A bare number is never a figure: without a
// currency or unit nothing says what it measures. Figures stated as a bound or an approximation
// ("up to 12 t", "about EUR 27,400") or as one end of a range are left out, because comparing
// them with an exact figure would report disagreements that are not there.

import {
  CURRENCY_AFTER_SOURCE,
  CURRENCY_BEFORE_SOURCE,
  currencyCode,
  type Dimension,
  lookupUnit,
  MULTIPLIER_SOURCE,
  multiplier,
  UNIT_SOURCE,
} from './units.ts';

export type FigureKind = 'money' | 'quantity' | 'percentage';

export interface Figure {
  kind: FigureKind;
  value: number;
  /** ISO 4217 code, canonical unit, or "%". */
  unit: string;
  /** For quantities; money and percentages have their own kind. */
  dimension: Dimension | null;
  /** Offsets in the text given to findFigures. */
  start: number;
  end: number;
}

const WORD_NUMBERS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70,
  eighty: 80, ninety: 90, hundred: 100,
};
// "one" on its own is left out: "one day", "one year after" are idioms far more often than figures.
const WORD_NUMBER_SOURCE = `(?:${Object.keys(WORD_NUMBERS)
  .filter((w) => w !== 'one')
  .join('|')})(?:[-\\s](?:one|two|three|four|five|six|seven|eight|nine)(?![\\w-]))?`;

// English digits with comma (or thin-space) thousands.
const NUMBER_EN = '\\d{1,3}(?:[,\\u00a0\\u202f\\u2009]\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?';
// Money also accepts "42 000", European "42.000,50" and French "1 234,50" (spaces group thousands, a comma marks cents).
const NUMBER_MONEY = `\\d{1,3}(?:[\\u00a0\\u202f\\u2009 ]\\d{3})+,\\d{1,2}(?!\\d)|\\d{1,3}(?:[,\\u00a0\\u202f\\u2009 ]\\d{3})+(?:\\.\\d+)?|\\d{1,3}(?:\\.\\d{3})+(?:,\\d{1,2})?|\\d+(?:[.,]\\d+)?`;
const SIGN = '[+\\-−]?';
// Not glued to a word, number or range dash before it ("40-45 kg" is a range, not 45 kg).
const FREE_START = '(?<![\\w.,\\-–/$€£])';
// Money, nor the tail of a number grouped by spaces ("234,50" of "1 234,50 €").
const FREE_MONEY_START = `${FREE_START}(?<!\\d[\\u00a0\\u202f\\u2009 ])`;

const MONEY_BEFORE = new RegExp(
  `(?<![\\w$€£])(${SIGN})(${CURRENCY_BEFORE_SOURCE})\\s?(${SIGN})(${NUMBER_MONEY})(?:\\s?(${MULTIPLIER_SOURCE})(?![\\w]))?(?![\\d])`,
  'g',
);
const MONEY_AFTER = new RegExp(
  `${FREE_MONEY_START}(${SIGN})(${NUMBER_MONEY})(?:\\s?(${MULTIPLIER_SOURCE}))?\\s?(${CURRENCY_AFTER_SOURCE})(?![\\w])`,
  'gi',
);
const PERCENTAGE = new RegExp(`${FREE_START}(${SIGN})(${NUMBER_EN})\\s?(%|per\\s?cent\\b|percent\\b)`, 'gi');
// Contracts restate numbers in brackets: "thirty (30) days".
const QUANTITY = new RegExp(
  `${FREE_START}(${SIGN})(${NUMBER_EN}|${WORD_NUMBER_SOURCE})(?:\\s*\\((\\d[\\d,.]*)\\))?(?:\\s?|-)(${UNIT_SOURCE})(?![\\w²³/])`,
  'gi',
);
/** After a quantity, text that shows it was something else: "10t h Floor" (a scanned "10th"), "14 day of June". */
const NOT_A_QUANTITY_AFTER = /^(?:\s?h\b|\s+of\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)/i;

const APPROXIMATE_BEFORE =
  /(?:\b(?:about|approximately|approx\.?|around|roughly|circa|c\.|some|nearly|almost|an estimated|est\.?)|~|≈)\s*$/i;
const BOUND_BEFORE =
  /(?:\b(?:up to|at least|at most|more than|less than|fewer than|over|under|below|above|exceeding|in excess of|no more than|no less than|not more than|not less than|maximum(?: of)?|max\.?|minimum(?: of)?|min\.?|within|upwards of|starting at|from|between)|[<>≤≥])\s*$/i;
const RANGE_END_BEFORE =
  /(?:\bbetween\b[^.;]{0,40}\band|\d[\d,.]*\s*[a-zA-Z%€£$]*\s*(?:to|-|–)|\(\d[\d,.]*\)\s*(?:to|-|–)\s+(?:[a-z]+[\s-]+){0,4})\s*$/i;
/** A number spelled out before its digits in brackets, "more than five percent (5%)": bounds are read before it. */
const SPELLED_BEFORE = /(?:\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|and|a|half|one-half|percent|per|cent)\b[\s-]*)+\(\s*$/i;
const BOUND_AFTER = /^\s*(?:or (?:more|less|so|above|below|higher|lower|thereabouts)|\+|plus\b|and (?:above|over|up)|(?:to|-|–)\s*(?:[€£$]|[A-Z]{3})?\s*\d)/i;

/** A number as written, in the digits and separators it used. */
export function parseNumber(text: string, money: boolean): number {
  const [tens, units] = text.toLowerCase().split(/[-\s]+/);
  const word = WORD_NUMBERS[tens!];
  if (word !== undefined) return word + (units ? (WORD_NUMBERS[units] ?? 0) : 0);
  let t = text.replace(/[\u00a0\u202f\u2009 ]/g, '');
  if (money && /^\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?$/.test(t)) {
    // European grouping; a single ".ddd" in an amount of money is a thousands separator too.
    t = t.replace(/\./g, '').replace(',', '.');
  } else if (money && /^\d+,\d{1,2}$/.test(t)) {
    t = t.replace(',', '.');
  } else {
    t = t.replace(/,/g, '');
  }
  return Number(t);
}

export const signOf = (...signs: (string | undefined)[]): number => (signs.some((s) => s === '-' || s === '−') ? -1 : 1);

/** Rounds away binary noise from unit conversions (3.5 × 1000, 0.1 × 3), keeping real decimals. */
export function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

/**
 * Finds the figures in text. `masked` is the same text with non-figure numbers blanked out (see
 * masks.ts); matching runs on it, while bounds and approximations are read from the original.
 */
export function findFigures(text: string, masked: string = text): Figure[] {
  const figures: Figure[] = [];
  const taken: [number, number][] = [];
  const free = (start: number, end: number): boolean => taken.every(([s, e]) => end <= s || start >= e);
  const add = (figure: Figure): void => {
    if (!free(figure.start, figure.end)) return;
    taken.push([figure.start, figure.end]);
    const near = text.slice(Math.max(0, figure.start - 80), figure.start);
    const before = near.replace(SPELLED_BEFORE, '');
    const after = text.slice(figure.end, figure.end + 20);
    if (APPROXIMATE_BEFORE.test(before) || BOUND_BEFORE.test(before) || RANGE_END_BEFORE.test(before)) return;
    if (BOUND_AFTER.test(after)) return;
    // "8%-74%": a sign glued to the figure before it is a range dash, and this the range's end.
    if (/^[\-−]/.test(text.slice(figure.start)) && /[\d%]$/.test(text.slice(0, figure.start))) return;
    if (!Number.isFinite(figure.value)) return;
    figures.push(figure);
  };

  for (const m of masked.matchAll(MONEY_BEFORE)) {
    const code = currencyCode(m[2]!);
    if (code === null) continue;
    const value = signOf(m[1], m[3]) * parseNumber(m[4]!, true) * multiplier(m[5]);
    add({ kind: 'money', value: tidy(value), unit: code, dimension: null, start: m.index, end: m.index + m[0].length });
  }
  for (const m of masked.matchAll(MONEY_AFTER)) {
    const code = currencyCode(m[4]!);
    if (code === null) continue;
    const value = signOf(m[1]) * parseNumber(m[2]!, true) * multiplier(m[3]);
    add({ kind: 'money', value: tidy(value), unit: code, dimension: null, start: m.index, end: m.index + m[0].length });
  }
  for (const m of masked.matchAll(PERCENTAGE)) {
    const value = signOf(m[1]) * parseNumber(m[2]!, false);
    add({ kind: 'percentage', value: tidy(value), unit: '%', dimension: null, start: m.index, end: m.index + m[0].length });
  }
  for (const m of masked.matchAll(QUANTITY)) {
    const info = lookupUnit(m[4]!);
    if (info === null || NOT_A_QUANTITY_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 16))) continue;
    // "one hundred and twenty (120) days": the digits are the figure; the words may be only its tail.
    const value = signOf(m[1]) * parseNumber(m[3] ?? m[2]!, false) * info.factor;
    add({
      kind: 'quantity',
      value: tidy(value),
      unit: info.unit,
      dimension: info.dimension,
      start: m.index,
      end: m.index + m[0].length,
    });
  }
  return figures.sort((a, b) => a.start - b.start);
}
