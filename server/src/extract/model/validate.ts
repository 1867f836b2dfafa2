// What a model's reply about one passage is allowed to add, checked here rather than trusted:
// every entity's surface must occur verbatim in the passage, every claim's figure too; a name the
// rules already found there, or one overlapping theirs, is dropped (the model never replaces or
// edits a rule's result); anything else malformed is discarded and counted. A reply that is not
// the requested JSON adds nothing at all.

import { normaliseName, normaliseOrganisation } from '../entities/legalSuffixes.ts';
import { HONORIFIC_WORDS } from '../entities/people.ts';
import type { Claim, ClaimKind, Entity, EntityType } from '../types.ts';
import { MODEL_CLAIM_KINDS, MODEL_ENTITY_TYPES, MODEL_EXTRACTION_VERSION } from './prompt.ts';

/** What one reply gave, after the checks. */
export interface PassageFindings {
  entities: Entity[];
  claims: Claim[];
  /** Proposals thrown out: not in the passage, of an unknown type, a figure that is no figure… */
  discarded: number;
  /** Names dropped because a rule found that text (or text overlapping it) already; figures a rule read already. */
  overlapping: number;
  /** The reply was not the requested JSON: nothing from it is kept. */
  malformed: boolean;
}

const NOTHING: PassageFindings = { entities: [], claims: [], discarded: 0, overlapping: 0, malformed: true };

/** Longer than any name or figure worth keeping: a "surface" this long is a copied sentence. */
const MAX_SURFACE = 120;

/** What the rules found in the same passage: the model may add to it, never restate or change it. */
export interface RuleFindings {
  entities: readonly Pick<Entity, 'start' | 'end'>[];
  claims: readonly Pick<Claim, 'kind' | 'value' | 'unit'>[];
}

export function readModelFindings(output: string, passage: string, rules: RuleFindings): PassageFindings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.trim());
  } catch {
    return NOTHING;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.entities) || !Array.isArray(parsed.claims)) return NOTHING;
  const findings: PassageFindings = { entities: [], claims: [], discarded: 0, overlapping: 0, malformed: false };
  const taken: { start: number; end: number }[] = [...rules.entities];
  for (const proposal of parsed.entities) {
    const entity = entityFrom(proposal, passage);
    if (entity === null) {
      findings.discarded += 1;
      continue;
    }
    // Every mention the rules left free, so the hover finds each; none free: the rules have it.
    const free = occurrences(passage, entity.surface).filter((span) => !taken.some((other) => span.start < other.end && other.start < span.end));
    if (free.length === 0) findings.overlapping += 1;
    for (const span of free) {
      taken.push(span);
      findings.entities.push({ ...entity, ...span });
    }
  }
  for (const proposal of parsed.claims) {
    const claim = claimFrom(proposal, passage);
    if (claim === null) findings.discarded += 1;
    else if (rules.claims.some((rule) => rule.kind === claim.kind && rule.value === claim.value && rule.unit === claim.unit)) findings.overlapping += 1;
    else findings.claims.push(claim);
  }
  return findings;
}

function entityFrom(proposal: unknown, passage: string): Omit<Entity, 'start' | 'end'> | null {
  if (!isRecord(proposal)) return null;
  const { type, surface } = proposal;
  if (typeof type !== 'string' || !(MODEL_ENTITY_TYPES as readonly string[]).includes(type)) return null;
  if (typeof surface !== 'string' || surface.trim() !== surface || surface.length < 2 || surface.length > MAX_SURFACE) return null;
  if (!/\p{L}/u.test(surface) || !passage.includes(surface)) return null;
  const key = entityKey(type as EntityType, surface);
  if (key === null) return null;
  return { type: type as EntityType, surface, key, producer: 'model', extractorVersion: MODEL_EXTRACTION_VERSION };
}

/**
 * The key of a name the model found, so that it meets the rules' keys where it can: an
 * organisation with a legal form gets the rules' key, a person's key leaves out an honorific
 * ("Dr. Amara Osei" and "Amara Osei" are both `person:amara osei`).
 */
export function entityKey(type: EntityType, surface: string): string | null {
  if (type === 'organisation') {
    const registered = normaliseOrganisation(surface);
    if (registered !== null) return registered;
  }
  let name = normaliseName(surface);
  if (type === 'person') {
    const words = name.split(' ');
    while (words.length > 1 && HONORIFIC_WORDS.has(words[0]!)) words.shift();
    name = words.join(' ');
  }
  return name === '' ? null : `${type}:${name}`;
}

function claimFrom(proposal: unknown, passage: string): Claim | null {
  if (!isRecord(proposal)) return null;
  const { kind, subject, attribute, figure, value, unit } = proposal;
  if (typeof kind !== 'string' || !(MODEL_CLAIM_KINDS as readonly string[]).includes(kind)) return null;
  if (typeof subject !== 'string' || typeof attribute !== 'string' || typeof unit !== 'string') return null;
  if (typeof figure !== 'string' || figure.trim() === '' || figure.length > MAX_SURFACE || !/\d/.test(figure)) return null;
  const at = passage.indexOf(figure);
  if (at < 0) return null;
  const normalisedSubject = words(subject);
  const normalisedAttribute = words(attribute);
  if (normalisedSubject === '' || normalisedAttribute === '') return null;
  const read = claimValue(kind as ClaimKind, value, unit.trim(), figure);
  if (read === null) return null;
  const sentence = sentenceAround(passage, at, at + figure.length);
  return {
    kind: kind as ClaimKind,
    subject: normalisedSubject,
    attribute: normalisedAttribute,
    ...read,
    text: passage.slice(sentence.start, sentence.end),
    start: sentence.start,
    end: sentence.end,
    entityKeys: [],
    producer: 'model',
    extractorVersion: MODEL_EXTRACTION_VERSION,
  };
}

/**
 * The value in the claims' own normal form, and consistent with the figure as written: a number's
 * digits must be the figure's (so "EUR 42,000" cannot become 51500; "€42k" read as 42000 is
 * refused too, which costs a little recall), a date's year must be in the figure.
 */
function claimValue(kind: ClaimKind, value: unknown, unit: string, figure: string): { value: number | string; unit: string | null } | null {
  if (typeof value !== 'string') return null;
  if (kind === 'event_date') {
    if (!/^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/.test(value) || !figure.includes(value.slice(0, 4))) return null;
    return { value, unit: null };
  }
  if (!/^\d+(\.\d+)?$/.test(value)) return null;
  const number = Number(value);
  const digits = (text: string) => text.replace(/\D/g, '').replace(/^0+/, '');
  const significant = digits(value.replace(/\.0+$/, '').replace(/(\.\d*?)0+$/, '$1'));
  if (!Number.isFinite(number) || significant === '' || !digits(figure).startsWith(significant)) return null;
  if (kind === 'money') return /^[A-Z]{3}$/.test(unit) ? { value: number, unit } : null;
  if (kind === 'percentage') return unit === '%' ? { value: number, unit } : null;
  return unit !== '' && unit.length <= 12 ? { value: number, unit: unit.toLowerCase() } : null;
}

/** A subject or attribute as the rules write theirs: lower-case words, a few of them. */
function words(text: string): string {
  const normal = normaliseName(text);
  return normal.split(' ').length <= 8 ? normal : '';
}

/** The sentence (or line) holding the figure: what a claim quotes. */
function sentenceAround(passage: string, start: number, end: number): { start: number; end: number } {
  const before = passage.slice(0, start);
  const from = Math.max(before.lastIndexOf('\n') + 1, ...['. ', '! ', '? '].map((stop) => (before.includes(stop) ? before.lastIndexOf(stop) + 2 : 0)));
  const after = passage.slice(end).search(/[.!?](\s|$)|\n/);
  const to = after < 0 ? passage.length : end + after + (passage[end + after] === '\n' ? 0 : 1);
  const text = passage.slice(from, to);
  const lead = text.length - text.trimStart().length;
  return { start: from + lead, end: from + text.trimEnd().length };
}

function occurrences(passage: string, surface: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (let at = passage.indexOf(surface); at >= 0; at = passage.indexOf(surface, at + 1)) spans.push({ start: at, end: at + surface.length });
  return spans;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
