// What the extract stage finds in a passage, with where it found it and who found it. Every
// result is labelled by its producer: deterministic rules here; a language model later, which
// may add results but never overrides or deletes a deterministic one.

export type EntityType = 'organisation' | 'person' | 'email' | 'date';

export type Producer = 'deterministic' | 'model';

export interface Entity {
  type: EntityType;
  /** The text as written, e.g. "EXAMPLE LIMITED". */
  surface: string;
  /** Normalised key shared by every spelling of the same entity, e.g. "organisation:example ltd". */
  key: string;
  /** Character offsets in the text that was given to the extractor (a chunk's text). */
  start: number;
  end: number;
  /** For dates: the ISO form (YYYY-MM-DD, or YYYY-MM / YYYY when that is all the text says). */
  value?: string;
  producer: Producer;
  /** e.g. "entities@1"; bumped on any change to the output for the same input. */
  extractorVersion: string;
}

export type ClaimKind = 'money' | 'quantity' | 'percentage' | 'event_date';

/**
 * A statement of a figure or a date about a coarse subject, e.g. the cost of the gantry crane
 * refurbishment is 42000 EUR.
 */
export interface Claim {
  kind: ClaimKind;
  /** Coarse subject in normalised form, e.g. "gantry crane refurbishment". */
  subject: string;
  /** What about the subject, normalised, e.g. "cost", "weight", "completion date". */
  attribute: string;
  /** Normalised value: a number for money, quantities and percentages; an ISO date for event dates. */
  value: number | string;
  /** ISO 4217 code for money, a normalised unit for quantities, "%" for percentages, null for dates. */
  unit: string | null;
  /** The sentence the claim was read from. */
  text: string;
  start: number;
  end: number;
  /** Entity keys mentioned in the same sentence (used to decide comparability). */
  entityKeys: string[];
  producer: Producer;
  extractorVersion: string;
}

/** A candidate key phrase of an item, before weighting against the workspace. */
export interface PhraseCount {
  /** Normalised phrase (lower case, singular head), the concept key. */
  key: string;
  /** The most frequent surface form, for display. */
  phrase: string;
  count: number;
}
