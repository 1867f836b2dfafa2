// Deterministic entity extraction for one passage: organisations with a legal form (Japanese ones
// too), people with
// an honorific or a known first name, e-mail addresses, calendar dates, URLs and domains,
// identifiers (standards, ticket numbers, codes), names written as code, and capitalised product
// and tool names. Each finder works alone; this module joins their results, settles overlaps
// and labels every result with its producer and version.

import type { LanguageCode } from '../../../../shared/languages.ts';
import type { Entity, EntityType } from '../types.ts';
import { findCodeNames } from './code.ts';
import { findDates } from './dates.ts';
import { findEmails } from './emails.ts';
import type { Found } from './found.ts';
import { findIdentifiers } from './identifiers.ts';
import { findJapaneseOrganisations } from './japaneseOrganisations.ts';
import { findNames } from './names.ts';
import { findOrganisations } from './organisations.ts';
import { findPeople } from './people.ts';
import { findDomains, findUrls } from './urls.ts';

/** Bump on any change to the output for the same input. */
export const ENTITY_EXTRACTOR_VERSION = 'entities@5';

/** What the passage's document says beyond its text. */
export interface PassageContext {
  /** Code blocks' character ranges in the passage, [start, end): no e-mail, identifier or name is read there. */
  code?: readonly (readonly [number, number])[];
  /** The document's author or byline field, as written: these strings are people. */
  authors?: readonly string[];
  /** The item's language (shared/languages.ts), whose own date words and honorifics are read (dates.ts, people.ts). */
  language?: LanguageCode;
}

/**
 * When two results overlap, the stronger evidence wins: a URL is opaque (nothing inside it is
 * anything else); an email address is unmistakable (its domain is not also an organisation); a
 * legal form outranks an honorific ("Dr. Reddy's Laboratories Ltd." is a company); a date is
 * rarely in conflict with either. The rules added in entities@2 rank below the older ones, so
 * they never take a span a legal form, an honorific or a date claimed. Equal rank: the longer span.
 */
const RANK: Record<Exclude<EntityType, 'place'>, number> = {
  url: 0,
  email: 1,
  organisation: 2,
  date: 3,
  person: 4,
  identifier: 5,
  code: 6,
  domain: 7,
  product: 8,
};

/** Places are the model stage's alone; no finder here returns one. */
const rank = (found: Found) => RANK[found.type as keyof typeof RANK] ?? Number.MAX_SAFE_INTEGER;

function resolveOverlaps(found: Found[]): Found[] {
  const byStrength = [...found].sort(
    (a, b) => rank(a) - rank(b) || b.end - b.start - (a.end - a.start) || a.start - b.start,
  );
  // Kept spans never overlap, so in start order only the neighbours of a candidate's place can
  // overlap it: a binary search keeps this linear-logarithmic on a passage with thousands of names.
  const kept: Found[] = [];
  for (const candidate of byStrength) {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[mid]!.start < candidate.start) lo = mid + 1;
      else hi = mid;
    }
    const before = kept[lo - 1];
    const after = kept[lo];
    if ((before !== undefined && before.end > candidate.start) || (after !== undefined && after.start < candidate.end)) continue;
    kept.splice(lo, 0, candidate);
  }
  return kept;
}

export function extractEntities(text: string, context: PassageContext = {}): Entity[] {
  const code = context.code ?? [];
  const outsideCode = (f: Found) => !code.some(([start, end]) => f.start < end && start < f.end);
  // Read only from prose: in a program every token is code, not something the document names,
  // and "git@host" in a shell line is no mailbox.
  const fromProse = [
    ...findEmails(text),
    ...findIdentifiers(text),
    ...findCodeNames(text),
    ...findDomains(text),
    ...findNames(text, context.authors),
  ].filter(outsideCode);
  const found = [...findUrls(text), ...findOrganisations(text), ...findJapaneseOrganisations(text), ...findPeople(text, context.language), ...findDates(text, context.language), ...fromProse];
  return resolveOverlaps(found).map((f) => ({ ...f, producer: 'deterministic', extractorVersion: ENTITY_EXTRACTOR_VERSION }));
}

export { normaliseOrganisation } from './legalSuffixes.ts';
