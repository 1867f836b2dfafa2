// Types that both the language server and the VS Code client use. Nothing here imports
// from the engine or from an editor API: this file is the vocabulary of the protocol.

/**
 * Where a passage sits in its source file, so the editor can open it there. Ranges are 1-based
 * and inclusive. `sheet` names the worksheet of a `rows` range (a spreadsheet's rows are counted
 * per sheet, as the spreadsheet numbers them), and only of one: a range never spans two sheets.
 */
export type Location = { kind: LocationKind; start: number; end: number; sheet?: string };

/**
 * What a Location counts: lines, pages (a slide deck's slides too), rows of a spreadsheet's
 * sheet, or (for formats with none of these, DOCX) paragraph ordinals.
 */
export const LOCATION_KINDS = ['lines', 'pages', 'blocks', 'rows'] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];

/** A sheet's name in a location is clipped to this: it comes from an untrusted file, and spreadsheets allow 31 characters. */
export const SHEET_NAME_MAX_CHARS = 100;

/**
 * The life of an item. `pending` while stages run; `duplicate` means byte-identical to another
 * live item (reported, not stored twice); `deleted` is a tombstone: kept, never served.
 */
export const ITEM_STATUSES = ['pending', 'indexed', 'failed', 'skipped', 'duplicate', 'deleted'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** A PDF is read up to this many pages by default (`relata.index.maxPdfPages`, `--max-pdf-pages`). */
export const DEFAULT_MAX_PDF_PAGES = 2_000;

/** A PDF's pages without a text layer are read by OCR up to this many per file (`RELATA_OCR_MAX_PAGES`). */
export const DEFAULT_MAX_OCR_PAGES = 50;

/** Flags a parser or a stage may set on an item. */
export const ITEM_FLAGS = [
  /** The file has (almost) no extractable text: an empty document, or a scan of which OCR read little. */
  'little_text',
  /** The PDF is encrypted but opens without a password (owner password only). */
  'encrypted_no_password',
  /** The file holds text a reader cannot see (HTML comment, hidden element, white or 1-pt text, invisible PDF text); it was left out of the passages and is listed by `relata item`. */
  'hidden_text',
  /** Some of that hidden text is addressed to an AI assistant; Ask warns about it whenever the item is a source. */
  'hidden_instructions',
  /** Only part of the file was read (e.g. the first pages of a very long PDF, the first 200,000 cells of a spreadsheet); `relata item` says how much. */
  'truncated',
  /** Extraction found more than the per-item caps keep (key phrases, claims, entity mentions; server/src/extract/caps.ts): a bounded, representative set is stored. */
  'extraction_capped',
  /** Some of the metadata the file gives itself (front matter, document properties) was not read: too large, nested, malformed or over the caps; `relata item` says what. */
  'metadata_left_out',
  /** Some of the text was read by OCR from page images: its passages say so with their confidence, and words OCR was unsure of were left out. */
  'read_by_ocr',
] as const;
export type ItemFlag = (typeof ITEM_FLAGS)[number];

export type PipelineStage = 'ingest' | 'parse' | 'chunk' | 'embed' | 'extract' | 'discover';
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
  /** Links in the file to files that are not in the folder (File Status); absent when not counted. */
  brokenLinks?: number;
}

/** A link in a file that resolves to no file of the folder: a broken-link report a person can act on. */
export interface BrokenLinkView {
  /** The target as written. */
  target: string;
  /** The link as a reader sees it: `[the build guide](../b/)`. */
  as_written: string;
  /** "line 12", "paragraph 3", "page 2". */
  place: string;
  /** "not in the folder", "outside the folder", "names several files: a.md, b.md". */
  reason: string;
}

/** An item's links: how many reach files of the folder, how many point at the web, and the broken ones. */
export interface ItemLinksView {
  to_files: { path: string; as_written: string; place: string }[];
  external: number;
  broken: BrokenLinkView[];
}

// What the extract stage finds in a passage (the engine's extract/types.ts names them Entity and Claim).

/** What a name is (docs/EXTRACTION.md): places are named only by the model stage, every other kind by the rules too. */
export const ENTITY_TYPES = ['organisation', 'person', 'email', 'date', 'place', 'product', 'identifier', 'code', 'url', 'domain'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Who found a result: a rule, or the optional model stage ("named by the model, not by a rule"). */
export const PRODUCERS = ['deterministic', 'model'] as const;
export type Producer = (typeof PRODUCERS)[number];

/** How every view says that a name or a figure came from the model stage. */
export const MODEL_FOUND_LABEL = 'named by the model, not by a rule';

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

export const CLAIM_KINDS = ['money', 'quantity', 'percentage', 'event_date', 'direction'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/**
 * A statement of a figure or a date about a coarse subject, e.g. the cost of the gantry crane
 * refurbishment is 42000 EUR; or of a direction, e.g. aspirin decreases stroke risk.
 */
export interface ExtractedClaim {
  kind: ClaimKind;
  /** Coarse subject in normalised form, e.g. "gantry crane refurbishment". */
  subject: string;
  /** What about the subject, normalised, e.g. "cost", "weight", "completion date"; for a direction, its object ("stroke risk"). */
  attribute: string;
  /**
   * Normalised value: a number for money, quantities and percentages; an ISO date for event dates;
   * for a direction "increase", "decrease", "none", "not increase" or "not decrease".
   */
  value: number | string;
  /**
   * ISO 4217 code for money, a normalised unit for quantities, "%" for percentages, null for dates;
   * for a direction null, or "outcome" when it was stated as improving or worsening.
   */
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

/** Text in the file that a reader cannot see, left out of the passages (the parser's finding). */
export interface HiddenTextView {
  /** html_comment, hidden_element, vanish_run, white_text, tiny_text, invisible_render_mode, hidden_slide, hidden_sheet or hidden_cells. */
  kind: string;
  text: string;
  location: Location;
  /** Its sentences addressed to an AI assistant, if any. */
  instructions: string[];
}

/** A value the document gives itself in its front matter or document properties. */
export interface MetadataView {
  /** The key as the document spelled it, e.g. "project", "Keywords". */
  label: string;
  /** The value as written. */
  text: string;
  /** Whether another item giving the same value is evidence of a relationship (shared_metadata): true for subject keys (project, tags, client…), false for author, dates and layout. */
  compared: boolean;
}

export interface ItemDetailView extends ItemView {
  versions: ItemVersionView[];
  chunks: ChunkView[];
  hidden: HiddenTextView[];
  /** Why only part of the file was indexed, else null. */
  truncated: string | null;
  entities: EntityView[];
  claims: ClaimView[];
  concepts: ConceptView[];
  /** What the document says about itself (front matter, document properties), in its order. */
  metadata: MetadataView[];
  /** Where the document links, resolved against the folder (older servers leave it out). */
  links?: ItemLinksView;
  /** The path asked about, when it is a byte-identical copy of this item: a copy's every view shows its original. */
  identicalCopy?: string;
  /** The language it is written in (ISO 639-1, 'und' when it could not be told; shared/languages.ts); absent before its extraction. */
  language?: string;
}

// Relationships (relationship-score-v1). Field names are snake_case because these objects are
// the JSON the CLI prints and the protocol carries, exactly as the design documents them.

/** Every type a relationship can carry. Discovery infers a subset; the rest come from a person or a model. */
export const RELATIONSHIP_TYPES = [
  'derived_from',
  'contradicts',
  'supports',
  'occurred_before',
  'occurred_after',
  'mentions',
  'similar_to',
  'same_entity_as',
  'supersedes',
  'updates',
  'possibly_explains',
  /** "A refers to B": the documents themselves link (direction kept: from links to to). */
  'links_to',
] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

export const RELATIONSHIP_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export type RelationshipStatus = (typeof RELATIONSHIP_STATUSES)[number];

export const SIGNAL_TYPES = [
  'content_hash_match',
  'semantic_similarity',
  'shared_entity',
  'claim_support',
  'claim_contradiction',
  'model_classification',
  'shared_concept',
  'alias_entity',
  'temporal_proximity',
  'shared_metadata',
  /** One file links to the other (relationship-score-v2). */
  'document_link',
  /** The texts share most of their word sequences: near-copies, or a draft of the other (relationship-score-v2). */
  'shared_text',
  'user_confirmation',
  'user_rejection',
] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

/** One piece of evidence on a relationship; its contribution is strength × weight × the diminishing factor. */
export interface SignalView {
  type: SignalType;
  /** What was observed, in words: "0.89 cosine", "Example Ltd", "cost". */
  value: string;
  /** 0-1 (before the weight). */
  strength: number;
  weight: number;
  detail: string;
  /** Set when the evidence rests on a name or figure the model stage found (its detail says so); a rule found the rest. */
  found_by_model?: true;
}

export interface ItemRef {
  item_id: string;
  path: string;
  title: string | null;
}

export interface RelationshipView {
  id: string;
  from: ItemRef;
  to: ItemRef;
  type: RelationshipType;
  /** Relationship strength 0-1 under `score_version`: a heuristic strength, not a probability. */
  score: number;
  score_version: string;
  status: RelationshipStatus;
  /** Cosine at or above the near-duplicate threshold: flagged, never merged. */
  near_duplicate: boolean;
  signals: SignalView[];
  /** What produced the proposal, e.g. "discover@1". */
  produced_by: string;
  created_at: string;
  updated_at: string;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
  /** A person's decision that the evidence has since moved away from; null when none. */
  changed_since_decision: ChangedSinceDecision | null;
  /** In a list shown once per near-duplicate group (the hover): the other end's copies, whose same relationship this one stands for. */
  also?: AlsoItem[];
  /**
   * In a list shown one voice per copy group (`relata relationships`): the same relationship,
   * of the same type and review status, that copies of an end have with the other end. They are
   * stored as they are; shown once, here, because copies of one document never corroborate it
   * (relationship-score-v2, rule 6).
   */
  also_stated_by?: CopyStatement[];
}

/** A copy's own relationship, shown under its original's. */
export interface CopyStatement {
  relationship_id: string;
  /** The copy that has it (an end that is not its copy group's original). */
  copy: ItemRef;
}

/**
 * A decision no longer matching what its person saw: a confirmation whose type or decisive
 * evidence changed (the relationship is back in review), or a rejection whose evidence changed
 * materially (it stays rejected, so the person can look again).
 */
export interface ChangedSinceDecision {
  decision: 'confirmed' | 'rejected';
  decided_by: string;
  decided_at: string;
  note: string | null;
  /** In words, e.g. "type was contradicts, now supports", "cost figures 42000 vs 51500 now agree". */
  changes: string[];
}

/** Two entity keys that may name the same thing; only a confirmed alias counts as evidence. */
export interface EntityAliasView {
  id: string;
  a: { key: string; surface: string };
  b: { key: string; surface: string };
  /** Why Relata suggested it, in words. */
  reason: string;
  status: RelationshipStatus;
  created_at: string;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
}

// Search (query-rank-v1 and later rank versions).

export type SearchPath =
  | 'lexical_items'
  | 'lexical_chunks'
  | 'vector'
  | 'entity'
  | 'title'
  | 'expansion'
  | 'confirmed_relationship'
  | 'recency';

export interface ExpandedVia {
  relationship_id: string;
  type: RelationshipType;
  score: number;
  status: RelationshipStatus;
}

export interface Passage {
  text: string;
  location: Location;
  chunk_id: string;
  /** "read by OCR (96% confidence)" when the passage was read from page images (shared/ocrLabel.ts); absent otherwise. */
  read_by_ocr?: string;
}

/** How another member of a result's near-duplicate group is a copy of it. */
export type DuplicateKind = 'duplicate' | 'near_duplicate';

/** Another member of a near-duplicate group, named beside the one entry that represents the group; the store keeps it as its own item. */
export interface AlsoItem {
  item_id: string;
  path: string;
  kind: DuplicateKind;
  /** The cosine behind a near-duplicate; null for identical bytes. */
  similarity: number | null;
}

export interface SearchResultView {
  item_id: string;
  title: string | null;
  path: string;
  /** 0-1, normalised so the best result of this response is 1.00: comparable within one result set, not across queries. */
  query_relevance: number;
  /** Best chunk cosine to the query; null when the item has no vectors yet. Never folded into relevance. */
  semantic_similarity: number | null;
  why_matched: string[];
  contributions: Partial<Record<SearchPath, number>>;
  expanded_via: ExpandedVia | null;
  passage: Passage | null;
  /** The other members of this result's near-duplicate group, shown once as this entry. */
  also?: AlsoItem[];
  /** What of the query this result matched, named (absent when nothing could be named: a match by meaning or by relationship). */
  matched?: MatchedTerms;
}

/** What a result matched, for the search list to name: the words found, the names, the figures. */
export interface MatchedTerms {
  /** The query's words (shared/queryWords.ts) found in the title or the passages, in the query's order. */
  words: string[];
  /** What the entity path matched, with its type: "Example Ltd (organisation)". */
  names: string[];
  /** Figures the passage states about what the query asks: "cost 12400 GBP". */
  figures: string[];
}

export interface SearchResponse {
  rank_version: string;
  query: string;
  results: SearchResultView[];
  /** Paths that could not run for this query, with why (e.g. vectors still being computed). */
  unavailable_paths: { path: SearchPath; reason: string }[];
  /**
   * Present (true) when no result names what the query names, contains most of its words or is
   * close in meaning above the similarity floor: the results are only the closest items there were.
   */
  weak_match?: true;
  /**
   * Query words the folder does not hold, each with the folder's closest word, which was searched
   * beside it ("licnese" → "license"); absent when every word was searched as typed.
   */
  also_searched?: SpellingCorrection[];
}

/** A word as typed and the folder's word searched beside it. */
export interface SpellingCorrection {
  typed: string;
  searched: string;
}

// Answers from stored knowledge.

export interface AnswerSource {
  /** "S1", "S2"…: the only names the model ever sees. */
  label: string;
  item_id: string;
  title: string | null;
  path: string;
  location: Location;
  passage: string;
  /** The other members of this source's near-duplicate group: one label for the group, and never shown to the model. */
  also?: AlsoItem[];
}

/**
 * One document stating a side's value, however many copies of it there are: byte-identical copies
 * and near-duplicates are one voice (relationship-score-v2, rule 6), so "42000 (memo.md and 2
 * copies)" weighs as much as "51500 (report.md)".
 */
export interface ConflictVoiceView {
  /** The copy group's original; when only its copies state the value, the first of them. */
  item: ItemRef;
  /** The group's other members that state the value. */
  copies: ItemRef[];
}

/** One side of a disagreement: a value and every shown item that states it. */
export interface ConflictSideView {
  value: string;
  /** Every item stating it, each voice's item before its copies. */
  items: ItemRef[];
  /** The same items by copy group: the side counts `voices.length` documents, not `items.length` files. */
  voices: ConflictVoiceView[];
}

export interface AnswerConflict {
  relationship_id: string;
  /** Every item on either side. */
  items: ItemRef[];
  detail: string;
  /** Every recorded relationship carrying this same disagreement (same attribute, same pair of values). */
  relationship_ids?: string[];
  attribute?: string;
  sides?: ConflictSideView[];
}

export interface InjectionWarning {
  label: string;
  /** What the text looks like, in words shown to the user: "overrides earlier instructions", "forged source marker"… */
  kind: string;
  text: string;
}

export interface AnswerResult {
  answer: string | null;
  sufficient: boolean;
  sources: AnswerSource[];
  citations: string[];
  invalid_citations: number;
  conflicts: AnswerConflict[];
  /** Relationships that brought a source in by expansion: proposals, not facts. */
  inferred_relationships: RelationshipView[];
  injection_warnings: InjectionWarning[];
  /** Search paths the retrieval had to do without, with why (as in SearchResponse). */
  unavailable_paths: SearchResponse['unavailable_paths'];
  rejected_reason: string | null;
  model: string | null;
  /**
   * Why the model chosen did not answer, or which one answered instead (the editor has no model,
   * consent was refused, a quota, a cancellation): said to the person beside the retrieval.
   */
  model_note?: string;
}

// Related (server/src/engine/related.ts): for one item, its relationships, then the items nearest
// in content. The number beside a content neighbour is semantic similarity, never a strength.

/** How the number beside a content neighbour is labelled wherever it is shown. */
export const RELATED_SIMILARITY_LABEL = 'semantic similarity (cosine of the closest passages), not a strength or a probability';

/**
 * Why an entry is in the list: a relationship of the item, an item close in content (vector and
 * lexical "more like this", fused), or, when neither side found anything, an item that shares a
 * name with it or sits in the same folder (`nearby`: said so, never dressed up as similarity).
 */
export type RelatedKind = 'relationship' | 'similar_content' | 'nearby';

export interface RelatedRelationship {
  id: string;
  type: RelationshipType;
  /** 'outgoing': this item is the relationship's `from` (it links to the other); 'incoming': the other's. */
  direction: 'outgoing' | 'incoming';
  status: RelationshipStatus;
  /** Relationship strength 0-1 under `score_version`: a heuristic strength, not a probability. */
  strength: number;
  score_version: string;
  /** The strongest evidence in one line. */
  evidence: string;
}

export interface RelatedEntry {
  item: ItemRef;
  kind: RelatedKind;
  /** Set for kind 'relationship'. */
  relationship: RelatedRelationship | null;
  /** Cosine of the closest windows of the two items (RELATED_SIMILARITY_LABEL); null when no vectors were compared. */
  similarity: number | null;
  /** Why it is here, each in words: "shares names: Acme Ltd", "shares words: build cache", "links to it". */
  why: string[];
  /** The documents themselves link: a `links_to` relationship between the two, in either direction. */
  linked: boolean;
  /** Where in the other item the closest passage is, to open it there; null when none was matched. */
  passage: { location: Location } | null;
}

export interface RelatedView {
  item: ItemRef;
  /** Relationships first (confirmed, then pending, strongest first), then content neighbours by fused rank, then `nearby`. */
  entries: RelatedEntry[];
  similarity_label: string;
  /** What one side could not use, in words ("no vectors: the embedding model is none; lexical only"). */
  notes: string[];
}
