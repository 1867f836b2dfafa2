// A language model's opinion of how two items relate: one weak signal (weight 0.15), asked only
// for candidates that already reach the minimum score, and never able to create a relationship
// or establish `same_entity_as`, `supersedes` or `derived_from` on its own.

import type { RelationshipType } from '../../../shared/types.ts';

export interface ClassifierInput {
  title: string | null;
  /** A passage of the item (its opening), never its id or path. */
  text: string;
}

export interface Classification {
  type: RelationshipType;
  /** 0-1, the model's own confidence; becomes the signal's strength. */
  confidence: number;
}

export interface RelationshipClassifier {
  /** Names the model in the signal's detail. */
  readonly name: string;
  classify(a: ClassifierInput, b: ClassifierInput): Promise<Classification | null>;
}
