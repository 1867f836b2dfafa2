// Types that both the language server and the VS Code client use. Nothing here imports
// from the engine or from an editor API: this file is the vocabulary of the protocol.

/** Where a passage sits in its source file, so the editor can open it there. Ranges are 1-based and inclusive. */
export type Location =
  | { kind: 'lines'; start: number; end: number }
  | { kind: 'pages'; start: number; end: number }
  /** Paragraph ordinals, for formats with neither lines nor pages (DOCX). */
  | { kind: 'blocks'; start: number; end: number };

/**
 * The life of an item. `pending` while stages run; `duplicate` means byte-identical to another
 * live item (reported, not stored twice); `deleted` is a tombstone: kept, never served.
 */
export type ItemStatus = 'pending' | 'indexed' | 'failed' | 'skipped' | 'duplicate' | 'deleted';

/** Flags a parser or a stage may set on an item. */
export type ItemFlag =
  /** The file has (almost) no extractable text: a scanned PDF with no text layer, an empty document. No OCR is attempted. */
  | 'little_text'
  /** The PDF is encrypted but opens without a password (owner password only). */
  | 'encrypted_no_password';

export type PipelineStage = 'ingest' | 'parse' | 'chunk' | 'embed' | 'extract';
export type JobStatus = 'queued' | 'leased' | 'done' | 'failed';

export interface ChunkView {
  id: string;
  ordinal: number;
  headingPath: string[];
  location: Location;
  wordCount: number;
  firstWords: string;
}

export interface ItemVersionView {
  version: number;
  contentHash: string;
  size: number;
  createdAt: string;
}

export interface ItemView {
  id: string;
  path: string;
  title: string | null;
  status: ItemStatus;
  reason: string | null;
  duplicateOf: string | null;
  contentHash: string | null;
  parserVersion: string | null;
  flags: ItemFlag[];
  version: number;
  updatedAt: string;
}

// What the extract stage finds in a passage (the engine's extract/types.ts names them Entity and Claim).

export type EntityType = 'organisation' | 'person' | 'email' | 'date';

export type Producer = 'deterministic' | 'model';

export interface ExtractedEntity {
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
export interface ExtractedClaim {
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

export interface EntityView extends ExtractedEntity {
  chunkId: string;
}

export interface ClaimView extends ExtractedClaim {
  chunkId: string;
}

export interface ConceptView {
  key: string;
  phrase: string;
  weight: number;
}

export interface ItemDetailView extends ItemView {
  versions: ItemVersionView[];
  chunks: ChunkView[];
  entities: EntityView[];
  claims: ClaimView[];
  concepts: ConceptView[];
}
