// The records a store keeps and hands back, whatever the backend: items and their versions,
// passages, entities and claims, relationships and their history. Apart from the contract's
// interface (contract.ts, which re-exports them) so that the export format (exchange/records.ts)
// and the backends' own documents build on them without importing the interface that in turn
// names the export's records.

import type {
  ChangedSinceDecision,
  ItemVersionView,
  ItemView,
  Location,
  RelationshipStatus,
  RelationshipType,
  SignalView,
} from '../../../shared/types.ts';
import type { Claim, Entity } from '../records/extraction.ts';

/** A file's size and times as lstat gives them (ms). */
export interface FileStats {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** What ingest saw of a live item's file when it last read it, and when (workspace/checkedFiles.ts). */
export interface FileCheck extends FileStats {
  path: string;
  /** When the file was looked at, before it was read (ms since the epoch). */
  checkedMs: number;
  /** The version of the parser that read it; null for a copy (a duplicate is never parsed). */
  parserVersion: string | null;
  duplicate: boolean;
}

/** An item as the store keeps it: what the editor is shown of it (ItemView, without the link count read at request time), and its size and dates. */
export interface ItemRecord extends Omit<ItemView, 'brokenLinks'> {
  size: number | null;
  createdAt: string;
  deletedAt: string | null;
  /** When `relata forget` removed this deleted document's text and bytes; the row is the record that it existed. */
  forgottenAt: string | null;
}

/** A version of an item as the store keeps it, exactly as the editor is shown it. */
export type ItemVersionRecord = ItemVersionView;

export interface ChunkRecord {
  id: string;
  itemId: string;
  ordinal: number;
  text: string;
  headingPath: string[];
  location: Location;
  wordCount: number;
}

export interface StoredEntity extends Entity {
  itemId: string;
  chunkId: string;
}

export interface StoredClaim extends Claim {
  itemId: string;
  chunkId: string;
}

/** What discovery proposes for a pair of items; the store keys it by the unordered pair. */
export interface RelationshipProposal {
  fromItemId: string;
  toItemId: string;
  type: RelationshipType;
  /** The score with every signal, including a person's decision when there is one. */
  score: number;
  /** The score of the evidence alone, before any human decision. */
  proposedScore: number;
  scoreVersion: string;
  nearDuplicate: boolean;
  /** Every signal: the evidence, then the decision's signal when decided. */
  signals: SignalView[];
  /** What produced it, e.g. "discover@1". */
  producedBy: string;
}

export interface RelationshipRecord extends RelationshipProposal {
  id: string;
  status: RelationshipStatus;
  createdAt: string;
  updatedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  /** What the standing decision was made on; null while pending (and for decisions older than the record). */
  decisionBasis: DecisionBasis | null;
  /** An earlier decision the evidence has since moved away from (see discover/decisionReview.ts). */
  changedSinceDecision: ChangedSinceDecision | null;
}

/** One piece of decisive evidence as the person saw it. */
export interface BasisEvidence {
  signal: SignalView['type'];
  /** The claim's attribute for claim signals; empty for evidence recorded by type alone. */
  value: string;
  /** The figures compared ("42000 and 51500"), for claim signals. */
  figures: string | null;
}

/** The type and the decisive evidence of a relationship at the moment a person decided it. */
export interface DecisionBasis {
  type: RelationshipType;
  evidence: BasisEvidence[];
}

/** What an entry of a relationship's history records. */
export const RELATIONSHIP_EVENT_KINDS = ['proposed', 'updated', 'confirmed', 'rejected', 'returned_to_review', 'evidence_changed'] as const;

export interface RelationshipEvent {
  at: string;
  kind: (typeof RELATIONSHIP_EVENT_KINDS)[number];
  /** What or who acted: "discover@1", a person's name. */
  actor: string;
  type: RelationshipType;
  score: number;
  scoreVersion: string;
  signals: SignalView[];
  note: string | null;
}
