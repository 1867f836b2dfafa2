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

export type EntityTypeName = 'organisation' | 'person' | 'email' | 'date';

export interface EntityView {
  chunkId: string;
  type: EntityTypeName;
  surface: string;
  key: string;
  value?: string;
  start: number;
  end: number;
  producer: 'deterministic' | 'model';
  extractorVersion: string;
}

export interface ClaimView {
  chunkId: string;
  kind: 'money' | 'quantity' | 'percentage' | 'event_date';
  subject: string;
  attribute: string;
  value: number | string;
  unit: string | null;
  text: string;
  start: number;
  end: number;
  entityKeys: string[];
  producer: 'deterministic' | 'model';
  extractorVersion: string;
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
