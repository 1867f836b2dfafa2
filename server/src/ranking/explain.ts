// Why each result matched, in plain sentences: one per path that fired, naming what the path saw
// (the query's words found, the entity and its type, the figure stated, the similarity, the age,
// the relationship and who stands behind it). The same strings go to the API, the CLI and the
// editor, so they are written once, here, as plain text: no markup for any one of them to render.

import { MODEL_FOUND_LABEL, type RelationshipType, type SearchPath } from '../../../shared/types.ts';
import type { RelationshipRecord } from '../store/contract.ts';
import type { PathHit } from './paths.ts';

/** How a relationship reads from the end it is seen from: [from the `from` item, from the `to` item]. */
const PHRASES: Record<RelationshipType, [string, string]> = {
  derived_from: ['is derived from', 'is the source of'],
  contradicts: ['contradicts', 'contradicts'],
  supports: ['supports', 'is supported by'],
  occurred_before: ['occurred before', 'occurred after'],
  occurred_after: ['occurred after', 'occurred before'],
  mentions: ['mentions the same entities as', 'mentions the same entities as'],
  links_to: ['links to', 'is linked from'],
  similar_to: ['is similar to', 'is similar to'],
  same_entity_as: ['is the same entity as', 'is the same entity as'],
  supersedes: ['supersedes', 'is superseded by'],
  updates: ['updates', 'is updated by'],
  possibly_explains: ['possibly explains', 'is possibly explained by'],
};

/** The relationship as read from `itemId`'s end: "updates", "is updated by"… */
export function relationshipPhrase(relationship: RelationshipRecord, itemId: string): string {
  const [forward, backward] = PHRASES[relationship.type];
  return relationship.fromItemId === itemId ? forward : backward;
}

function reviewStatus(relationship: RelationshipRecord): string {
  return relationship.status === 'confirmed' ? 'confirmed by a person' : 'suggested by analysis, not yet reviewed';
}

/**
 * "Not a direct match. Reached because this item updates a matching item — strength 0.68
 * (suggested by analysis, not yet reviewed)."
 */
export function expansionLabel(relationship: RelationshipRecord, itemId: string): string {
  return (
    `Not a direct match. Reached because this item ${relationshipPhrase(relationship, itemId)} a matching item — ` +
    `strength ${relationship.score.toFixed(2)} (${reviewStatus(relationship)}).`
  );
}

function listOf(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export function ageText(days: number): string {
  const whole = Math.floor(days);
  if (whole < 1) return 'today';
  if (whole === 1) return '1 day ago';
  return `${whole} days ago`;
}

/** What was seen of an item's text: the query's words in its passage hit, and in its title and passages. */
export interface SeenText {
  passageWords: readonly string[];
  itemWords: readonly string[];
  /** "cost 12400 GBP": figures its passage states about what the query asks. */
  figures: readonly string[];
}

const NOTHING_SEEN: SeenText = { passageWords: [], itemWords: [], figures: [] };

const quoted = (words: readonly string[]) => listOf(words.map((word) => `"${word}"`));

/** One sentence for one path's hit on an item. */
export function explainHit(path: SearchPath, hit: PathHit, query: string, seen: SeenText = NOTHING_SEEN): string {
  switch (path) {
    case 'lexical_items':
      return seen.itemWords.length > 0
        ? `The item's title or text contains ${quoted(seen.itemWords)} from your query.`
        : "The item's title or text contains words from your query.";
    case 'lexical_chunks':
      return seen.passageWords.length > 0
        ? `A passage of this item contains ${quoted(seen.passageWords)} from your query.`
        : 'A passage of this item contains words from your query.';
    case 'vector':
      return `A section of this item is close in meaning to your query (similarity ${hit.score.toFixed(2)}).`;
    case 'entity': {
      const named = listOf((hit.entities ?? []).map((entity) => `${entity.surface} (${entity.type}${entity.byModel ? `, ${MODEL_FOUND_LABEL}` : ''})`));
      return `This item refers to ${named}, which your query names.`;
    }
    case 'title':
      return `Its title contains "${query.trim()}".`;
    case 'expansion':
      return expansionLabel(hit.relationship!, hit.itemId);
    case 'confirmed_relationship':
      return `A person confirmed that this item ${relationshipPhrase(hit.relationship!, hit.itemId)} a matching item.`;
    case 'recency':
      return `This version was indexed ${ageText(hit.ageDays ?? 0)}.`;
  }
}

/** "It states cost 12400 GBP." */
export function figuresSentence(figures: readonly string[]): string {
  return `It states ${listOf([...figures])}.`;
}

/** The item's words said again by its passage: the passage's sentence says it with the place. */
function saidByPassage(hits: ReadonlyMap<SearchPath, PathHit>, seen: SeenText): boolean {
  return hits.has('lexical_chunks') && seen.itemWords.length > 0 && seen.itemWords.every((word) => seen.passageWords.includes(word));
}

/**
 * The sentences for every path that fired, in the order paths are listed in a result's
 * contributions (the whole item's words only when its passage does not already name them all),
 * with the figures the passage states after the words that found it.
 */
export function whyMatched(hits: ReadonlyMap<SearchPath, PathHit>, query: string, seen: SeenText = NOTHING_SEEN): string[] {
  const order: SearchPath[] = ['expansion', 'vector', 'lexical_items', 'lexical_chunks', 'entity', 'title', 'confirmed_relationship', 'recency'];
  const said = (path: SearchPath) => hits.has(path) && !(path === 'lexical_items' && saidByPassage(hits, seen));
  const sentences = order.filter(said).map((path) => explainHit(path, hits.get(path)!, query, seen));
  if (seen.figures.length === 0) return sentences;
  const afterWords = order.slice(0, order.indexOf('entity')).filter(said).length;
  return [...sentences.slice(0, afterWords), figuresSentence(seen.figures), ...sentences.slice(afterWords)];
}
