// Calendar dates written in a document ("May 8, 2014", "8th day of May 2014", "2014-05-08",
// "5/8/14", "March 2019"), read with chrono-node. Only dates the text pins down on its own are
// kept: a document has no known "today", so relative expressions ("tomorrow", "within 30 days",
// "next Friday") and dates without a year ("May 8") are skipped rather than guessed.
//
// Choices:
// - chrono's strict English parsers, minus the relative and time-of-day ones, plus two parsers
//   it lacks: the legal "8th day of May, 2014" and month-and-year "March 2019" (value YYYY-MM).
// - A year alone ("in 2025") is not a date entity: it collides with counts and amounts, and a
//   year shared by half the folder links nothing.
// - Numeric dates are read month first (US) unless the first number exceeds 12: "5/8/14" is
//   2014-05-08, "29/3/18" is 2018-03-29. A British document's "5/8/14" is misread; the text
//   alone cannot tell.
// - Version and section numbers ("version 2.10.3", "Section 3.1.2", "v1.2.2019") are not dates,
//   nor is a dotted number with a two-digit last part ("10.2.12", a clause far more often than
//   2 October 2012); dotted dates need a four-digit year ("12.5.2019").
// - chrono folds a leading preposition into its match ("on 16 May 2025"); the surface and start
//   cover the date words alone ("16 May 2025"), so one date reads the same however it is introduced.

import * as chrono from 'chrono-node';
import type { LanguageCode } from '../../../../shared/languages.ts';
import type { Found } from './found.ts';

/** chrono parsers whose results depend on a reference date or carry no calendar date. */
const RELATIVE_PARSERS = new Set([
  'ENTimeUnitWithinFormatParser',
  'ENTimeUnitAgoFormatParser',
  'ENTimeUnitLaterFormatParser',
  'ENWeekdayParser',
  'ENTimeExpressionParser',
]);

/** Refiners that would merge two dates into a range or a date with a time; each date stands alone. */
const MERGING_REFINERS = new Set(['ENMergeDateRangeRefiner', 'ENMergeDateTimeRefiner']);

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};
const MONTH_NAME = String.raw`(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;

function monthNumber(name: string): number {
  return MONTHS[name.toLowerCase().slice(0, name.toLowerCase().startsWith('sept') ? 4 : 3)] ?? 0;
}

const ORDINAL_WORDS = [
  'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh',
  'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth',
];
const TENS: Record<string, number> = { twentieth: 20, thirtieth: 30, twenty: 20, thirty: 30 };

/** "first" → 1, "twenty-first" → 21, "thirtieth" → 30; 0 when not an ordinal word. */
function ordinalWord(word: string): number {
  const w = word.toLowerCase().replace(/\s+/g, '-');
  const simple = ORDINAL_WORDS.indexOf(w);
  if (simple >= 0) return simple + 1;
  const [tens, unit] = w.split('-');
  if (unit === undefined) return TENS[tens!] ?? 0;
  const u = ORDINAL_WORDS.indexOf(unit);
  return (TENS[tens!] ?? 0) > 0 && u >= 0 && u < 9 ? TENS[tens!]! + u + 1 : 0;
}

/**
 * "8th day of May, 2014", "this 31 day of July, 2019", "the first day of July, 2017", "(1st)
 * day of". The ordinal may arrive split ("20t h") when a PDF conversion flattened a superscript.
 */
const dayOfMonthParser: chrono.Parser = {
  pattern: () =>
    new RegExp(
      String.raw`\(?\b(\d{1,2}|twentieth|thirtieth|(?:twenty|thirty)[-\s](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|${ORDINAL_WORDS.join('|')})\s*(?:st|nd|rd|th|s\s?t|n\s?d|r\s?d|t\s?h)?\)?\s+day\s+of\s+${MONTH_NAME}\.?\s*,?\s*(?:in\s+the\s+year\s+)?(\d{4})(?!\d)`,
      'i',
    ),
  extract: (_context, match) => {
    const day = /^\d/.test(match[1]!) ? Number(match[1]) : ordinalWord(match[1]!);
    const month = monthNumber(match[2]!);
    const year = Number(match[3]);
    return day >= 1 && day <= 31 ? { day, month, year } : null;
  },
};

/** "March 2019", "March, 2019", and a template's "September ___, 2019": a month, no day. */
const monthYearParser: chrono.Parser = {
  pattern: () => new RegExp(String.raw`\b${MONTH_NAME}\.?[^\S\n]*(?:_+[^\S\n]*)?,?\s+(\d{4})(?!\d)`, 'i'),
  extract: (context, match) => {
    // Proper nouns only: "may 2014" in running text is more likely the verb.
    if (!/^\p{Lu}/u.test(match[1]!)) return null;
    const components = context.createParsingComponents({ month: monthNumber(match[1]!), year: Number(match[2]) });
    components.imply('day', 1);
    return components;
  },
};

/** Text just before a match that makes it a version or a clause number, not a date. */
const NUMBER_CONTEXT = /(?:\bv|\bversion|\bver\.?|\brelease|\bsection|\bsec\.|\bclause|\barticle|\bpara(?:graph)?\.?|§|\bno\.?|#)\s*$/i;

/**
 * Drops readings that are a piece of a longer number ("3.1.2.2019", the "2018 04/25" inside
 * "4/24/2018 04/25/2018") or a version or clause number. Runs before chrono settles overlaps, so
 * a wrong reading cannot push out the right one.
 */
const numbersAreNotDates: chrono.Refiner = {
  refine: (context, results) =>
    results.filter((r) => {
      const text = context.text;
      const from = r.index;
      const to = from + r.text.length;
      if (/\p{N}[./-]$/u.test(text.slice(Math.max(0, from - 2), from))) return false;
      if (/^[./-]\p{N}/u.test(text.slice(to, to + 2))) return false;
      // "10.2.12" opens a clause far more often than it writes 2 October 2012.
      if (/^\d{1,2}\.\d{1,2}\.\d{2}$/.test(r.text)) return false;
      return !(/^\p{N}/u.test(r.text) && NUMBER_CONTEXT.test(text.slice(Math.max(0, from - 12), from)));
    }),
};

/** "November 19t h, 2012": chrono reads "19th" but not an ordinal split by a PDF conversion. */
const splitOrdinalParser: chrono.Parser = {
  pattern: () => new RegExp(String.raw`\b${MONTH_NAME}\.?\s+(\d{1,2})\s*(?:s\st|n\sd|r\sd|t\sh)\s*,?\s*(\d{4})(?!\d)`, 'i'),
  extract: (_context, match) => {
    const day = Number(match[2]);
    return day >= 1 && day <= 31 ? { day, month: monthNumber(match[1]!), year: Number(match[3]) } : null;
  },
};

function buildParser(): chrono.Chrono {
  const parser = chrono.strict.clone();
  parser.parsers = parser.parsers.filter((p) => !RELATIVE_PARSERS.has(p.constructor.name));
  parser.parsers.push(dayOfMonthParser, monthYearParser, splitOrdinalParser);
  parser.refiners = [numbersAreNotDates, ...parser.refiners.filter((r) => !MERGING_REFINERS.has(r.constructor.name))];
  return parser;
}

const parser = buildParser();

/**
 * chrono's strict parsers (no "heute", "demain") for the languages it reads besides English, by
 * shared/languages.ts code: a German document's "12. Mai 2025" and "03.06.2025" (day first), a
 * Japanese or Chinese "2025年5月12日", a Russian "12 мая 2025 года".
 */
const LOCAL_PARSERS: Readonly<Record<LanguageCode, chrono.Chrono>> = {
  de: chrono.de.strict,
  fr: chrono.fr.strict,
  es: chrono.es.strict,
  pt: chrono.pt.strict,
  it: chrono.it.strict,
  nl: chrono.nl.strict,
  sv: chrono.sv.strict,
  fi: chrono.fi.strict,
  id: chrono.id.strict,
  ru: chrono.ru.strict,
  uk: chrono.uk.strict,
  ja: chrono.ja.strict,
  zh: chrono.zh.strict,
};

/** Languages whose dates are read in their own words as well as in English (docs/EXTRACTION.md). */
export const DATE_LANGUAGES: readonly LanguageCode[] = Object.keys(LOCAL_PARSERS);

const BUDDHIST_ERA = /(\d{4})\s{0,2}BE$/i;

/** Prepositions (and the whitespace after them) chrono may keep at the front of a match, in the languages read. */
const LEADING_PREPOSITIONS = /^(?:(?:on|in|at|by|from|since|until|of|am|im|vom|zum|bis|seit|le|du|au|dès|depuis|el|del|desde|hasta|em|op|van|tot|il|dal|al)\s+)+/i;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * The dates written in `text`. In a `language` chrono reads (DATE_LANGUAGES) its own parser reads
 * first and a date must write its year in digits; the English reading is kept only where it
 * overlaps none of those, so a German "03.06.2025" is 3 June, never 6 March.
 */
export function findDates(text: string, language?: LanguageCode): Found[] {
  const english = readDates(parser, text);
  const local = language === undefined || language === 'en' ? undefined : LOCAL_PARSERS[language];
  if (local === undefined) return english;
  const own = readDates(local, text).filter((date) => /\d{4}/.test(date.surface));
  const apart = english.filter((date) => !own.some((mine) => mine.start < date.end && date.start < mine.end));
  return [...own, ...apart].sort((a, b) => a.start - b.start);
}

function readDates(reader: chrono.Chrono, text: string): Found[] {
  const found: Found[] = [];
  for (const result of reader.parse(text, undefined, { forwardDate: false })) {
    const start = result.start;
    if (!start.isCertain('year') || !start.isCertain('month')) continue;
    if (result.tags().has('result/relativeDate')) continue;
    const lead = LEADING_PREPOSITIONS.exec(result.text)?.[0].length ?? 0;
    // chrono reads a trailing "BE" as the Buddhist Era and moves the year back 543 years; in these
    // documents it is far more often a country code ("June 18, 2024 BE 2549871 Belgium").
    const era = BUDDHIST_ERA.exec(result.text);
    const surface = result.text.slice(lead, era === null ? undefined : era.index + era[1]!.length);
    const from = result.index + lead;
    const to = from + surface.length;
    const year = era === null ? start.get('year')! : Number(era[1]);
    if (year < 1000 || year > 2999) continue;
    const month = start.get('month')!;
    const value = start.isCertain('day') ? `${year}-${pad(month)}-${pad(start.get('day')!)}` : `${year}-${pad(month)}`;
    found.push({ type: 'date', surface, key: `date:${value}`, start: from, end: to, value });
  }
  return found;
}
