// Deterministic entity extraction for one passage: organisations with a legal form, people with
// an honorific, email addresses and calendar dates. Each finder works alone; this module joins
// their results, settles overlaps and labels every result with its producer and version.

import type { Entity, EntityType } from '../types.ts';
import { findDates } from './dates.ts';
import { findEmails } from './emails.ts';
import type { Found } from './found.ts';
import { findOrganisations } from './organisations.ts';
import { findPeople } from './people.ts';

/** Bump on any change to the output for the same input. */
export const ENTITY_EXTRACTOR_VERSION = 'entities@1';

/**
 * When two results overlap, the stronger evidence wins: an email address is unmistakable (its
 * domain is not also an organisation); a legal form outranks an honorific ("Dr. Reddy's
 * Laboratories Ltd." is a company); a date is rarely in conflict with either. Equal rank: the
 * longer span.
 */
const RANK: Record<Exclude<EntityType, 'place' | 'product'>, number> = { email: 0, organisation: 1, date: 2, person: 3 };

/** Places and products are the model stage's alone; no finder here returns one. */
const rank = (found: Found) => RANK[found.type as keyof typeof RANK] ?? Number.MAX_SAFE_INTEGER;

function resolveOverlaps(found: Found[]): Found[] {
  const byStrength = [...found].sort(
    (a, b) => rank(a) - rank(b) || b.end - b.start - (a.end - a.start) || a.start - b.start,
  );
  const kept: Found[] = [];
  for (const candidate of byStrength) {
    if (kept.some((k) => candidate.start < k.end && k.start < candidate.end)) continue;
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start || a.end - b.end);
}

export function extractEntities(text: string): Entity[] {
  const found = [...findEmails(text), ...findOrganisations(text), ...findPeople(text), ...findDates(text)];
  return resolveOverlaps(found).map((f) => ({ ...f, producer: 'deterministic', extractorVersion: ENTITY_EXTRACTOR_VERSION }));
}

export { normaliseOrganisation } from './legalSuffixes.ts';
