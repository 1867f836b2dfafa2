// Relationship types and signals in the words a person reads ("happened before", "shared concept"),
// one table for the webviews, the hovers, the trees, the chat answer and the CLI's text output.
// The identifiers (`occurred_before`, `shared_concept`) stay what the store, the protocol, JSON and
// `--json` carry; only what is shown to a person goes through here. A Record over every type and
// signal, so a new one without words is a compile error; a name this build does not know (a newer
// server) reads with its underscores as spaces.

import type { RelationshipType, SignalType } from './types.ts';

interface TypeWords {
  /** Read from the relationship's `from` end: "A happened before B". */
  forward: string;
  /** Read from its `to` end: "B happened after A". */
  backward: string;
}

const TYPE_WORDS: Readonly<Record<RelationshipType, TypeWords>> = {
  contradicts: { forward: 'contradicts', backward: 'contradicts' },
  supports: { forward: 'supports', backward: 'is supported by' },
  derived_from: { forward: 'is derived from', backward: 'is the source of' },
  supersedes: { forward: 'supersedes', backward: 'is superseded by' },
  updates: { forward: 'updates', backward: 'is updated by' },
  same_entity_as: { forward: 'is about the same thing as', backward: 'is about the same thing as' },
  possibly_explains: { forward: 'may explain', backward: 'may be explained by' },
  links_to: { forward: 'links to', backward: 'is linked from' },
  similar_to: { forward: 'is similar to', backward: 'is similar to' },
  mentions: { forward: 'mentions', backward: 'is mentioned by' },
  occurred_before: { forward: 'happened before', backward: 'happened after' },
  occurred_after: { forward: 'happened after', backward: 'happened before' },
};

/** A type as a name, for headings, legends and filters: "happened before", "same thing", "derived from". */
const TYPE_NAMES: Readonly<Record<RelationshipType, string>> = {
  contradicts: 'contradicts',
  supports: 'supports',
  derived_from: 'derived from',
  supersedes: 'supersedes',
  updates: 'updates',
  same_entity_as: 'same thing',
  possibly_explains: 'may explain',
  links_to: 'links to',
  similar_to: 'similar',
  mentions: 'mentions',
  occurred_before: 'happened before',
  occurred_after: 'happened after',
};

const SIGNAL_WORDS: Readonly<Record<SignalType, string>> = {
  content_hash_match: 'identical content',
  semantic_similarity: 'similar meaning',
  shared_entity: 'shared name',
  claim_support: 'same figure',
  claim_contradiction: 'different figures',
  model_classification: "a language model's opinion",
  shared_concept: 'shared concept',
  alias_entity: 'same person under another name',
  temporal_proximity: 'close in time',
  shared_metadata: 'shared metadata',
  document_link: 'one links to the other',
  shared_text: 'shared text',
  user_confirmation: 'your confirmation',
  user_rejection: 'your rejection',
};

const spaced = (identifier: string) => identifier.replace(/_/g, ' ');

/** The type as a name: "happened before" for `occurred_before`. */
export function typeName(type: string): string {
  return TYPE_NAMES[type as RelationshipType] ?? spaced(type);
}

/** The type as the verb of a sentence read from `from` to `to` ("happened before"), or from `to` back to `from` ("happened after"). */
export function typeVerb(type: string, direction: 'forward' | 'backward' = 'forward'): string {
  return TYPE_WORDS[type as RelationshipType]?.[direction] ?? spaced(type);
}

/** The relationship as a sentence between two names: "Inspection report happened before Q2 review". */
export function relationshipSentence(type: string, from: string, to: string): string {
  return `${from} ${typeVerb(type)} ${to}`;
}

/** A signal in words: "shared concept" for `shared_concept`. */
export function signalName(signal: string): string {
  return SIGNAL_WORDS[signal as SignalType] ?? spaced(signal);
}

/** Figures grouped by thousands as documents write them ("51,500"); a fixed locale, so a stored sentence reads the same on every machine. */
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6, useGrouping: true });

/** A figure as a document writes it: 51500 → "51,500"; text (a date as written) is kept as it is. */
export function figureText(value: number | string, unit: string | null = null): string {
  const figure = typeof value === 'number' ? GROUPED.format(Number(value.toPrecision(12))) : value;
  return unit ? `${figure} ${unit}` : figure;
}
