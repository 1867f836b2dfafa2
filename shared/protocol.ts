// Every custom request and notification between the VS Code client and the Relata language
// server, typed once. Each is a namespace with its literal method name, its `RequestType` (or
// `NotificationType`) and, for requests, the schema the server checks its params against. Both
// sides import these definitions, so a renamed field is a compile error on both sides.
//
// Folders are named by their workspace-folder URI (`file:///…`); paths inside results are
// folder-relative, as the engine stores them. Views come from ./types.ts.

import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import { array, boolean, integer, nullable, number, object, oneOf, optional, string, type Schema } from './schema.ts';
import { GRAPH_STATUSES, GRAPH_TYPES, type RelationshipGraph } from './graph.ts';
import type { ParsedTextView } from './parsedTextView.ts';
import type { ProposalFilter } from './proposalPages.ts';
import { REVIEW_ORDER } from './reviewOrder.ts';
import type { StoreBackend } from './storeEnvironment.ts';
import type {
  AlsoItem,
  AnswerResult,
  ItemDetailView,
  ItemRef,
  ItemView,
  MetadataView,
  RelatedView,
  RelationshipStatus,
  RelationshipView,
  SearchPath,
  SearchResponse,
  RelationshipType,
  SignalType,
} from './types.ts';

/** Error codes of our own (JSON-RPC leaves -32000 to -32099 to the server). */
export const RelataErrorCodes = {
  /** The engine function behind this request is not built yet. */
  NotAvailable: -32001,
  /** No open workspace folder matches the folder or file in the params. */
  UnknownFolder: -32002,
  /** The folder's index could not be opened (see the folder's status for why). */
  FolderUnavailable: -32003,
} as const;

const folderUri = string({ minLength: 1, maxLength: 4096 });

// Initialization -------------------------------------------------------------

/**
 * The extension's settings, as the server needs them; sent as `initializationOptions`. Which store
 * backend, and where, is not among them: it reaches the server through its environment
 * (shared/storeEnvironment.ts), because LSP tracing logs these and a MongoDB URI may carry a password.
 */
export interface ServerSettings {
  /** Where each folder's store lives: empty for the default (one directory per folder under the user's data home). */
  dataLocation: string;
  /** Extra exclude patterns (gitignore syntax) on top of .gitignore and the built-in list. */
  exclude: string[];
  maxFileMb: number;
  /** A PDF is read up to this many pages; the rest is left out and the item flagged `truncated`. */
  maxPdfPages: number;
  /** Read images and scanned PDF pages by OCR (`relata.index.ocr`; `relata index --no-ocr`). */
  ocr: boolean;
  /** "default", "none" or a local ONNX model folder, as for `relata index --embedding-model`. */
  embeddingModel: string;
  /** Local GGUF model file for answers; empty for none. */
  llmModelPath: string;
  /** OpenAI-compatible endpoint for answers; empty for none. */
  llmEndpoint: string;
  /** The user opted in to a plain-http endpoint on another machine (never with an API key). */
  allowInsecureEndpoint: boolean;
  /** Which model writes answers (`relata.answers.provider`); see ANSWER_PROVIDERS. */
  answersProvider: AnswersProvider;
  /** Run the model stage of extraction with the answers model above (`relata index --extract-with-model`); user settings only. */
  extractWithModel: boolean;
  /** Relationship thresholds (relationship-score-v1); null keeps the design's defaults. */
  minScore: number | null;
  storeScore: number | null;
  /** Forget a deleted file's text and bytes as soon as it is tombstoned (`relata index --forget-deleted`). */
  forgetDeleted: boolean;
}

/**
 * Who writes answers: `auto` (the editor's model when one is available and the person allows it,
 * else the configured local GGUF or endpoint, else the retrieval alone), `editor` (only the
 * editor's model), `local` (only the GGUF file), `endpoint` (only the OpenAI-compatible server),
 * `none` (the retrieval alone, no model is ever asked).
 */
export const ANSWER_PROVIDERS = ['auto', 'editor', 'local', 'endpoint', 'none'] as const;
export type AnswersProvider = (typeof ANSWER_PROVIDERS)[number];

export interface InitializationOptions {
  settings: ServerSettings;
}

/**
 * What the server accepts as `initializationOptions`, checked like request params; a setting that
 * fails its check is reported and keeps its default, so a wrong type can never switch a limit off.
 */
export namespace Initialization {
  export const settings = object({
    dataLocation: string({ maxLength: 4096 }),
    exclude: array(string({ minLength: 1, maxLength: 1000 }), { maxItems: 1000 }),
    maxFileMb: number({ min: 0.001, max: 10_000 }),
    maxPdfPages: number({ min: 1, max: 10_000_000 }),
    ocr: boolean(),
    embeddingModel: string({ minLength: 1, maxLength: 4096 }),
    llmModelPath: string({ maxLength: 4096 }),
    llmEndpoint: string({ maxLength: 4096 }),
    allowInsecureEndpoint: boolean(),
    answersProvider: oneOf(ANSWER_PROVIDERS),
    extractWithModel: boolean(),
    minScore: nullable(number({ min: 0, max: 1 })),
    storeScore: nullable(number({ min: 0, max: 1 })),
    forgetDeleted: boolean(),
  }) satisfies Schema<ServerSettings>;
  /** The fields beside `settings`, each checked whole (`settings` is checked setting by setting). */
  export const options = object({ settings: optional(settings) });
}

// Status ---------------------------------------------------------------------

/**
 * Where one folder's session is: opening its store, indexing, then watching for changes; paused
 * when the person paused indexing (nothing runs and changes are picked up on resume).
 */
export type FolderState = 'opening' | 'indexing' | 'watching' | 'paused' | 'failed';

export interface ModelExtractionStatus {
  calls: number;
  /** Passages answered from the cache, with no call. */
  cached: number;
  /** Null until a call has been timed. */
  msLeft: number | null;
}

export interface FolderStatus {
  folder: string;
  name: string;
  state: FolderState;
  /**
   * Why the folder failed (when state is failed), or why its indexing is waiting (when indexing,
   * e.g. "store busy: … will retry in 2 s"), in words a user can act on.
   */
  reason: string | null;
  /**
   * Items by status; `unread` counts the indexed files of which (almost) no text could be read (a
   * scan OCR could not read, an empty document): they are kept apart from `indexed`, which counts
   * files whose text was read.
   */
  items: { indexed: number; failed: number; skipped: number; duplicate: number; pending: number; unread?: number };
  chunks: number;
  /** While the model stage of extraction runs (relata.extraction.useModel): its calls so far and the time it expects to take still. */
  modelExtraction?: ModelExtractionStatus | null;
  /** Jobs waiting or running in the folder's queue. */
  queueDepth: number;
  /**
   * Files with work waiting or running, by what the work is (a job is one file's step, and a
   * file has one step of a kind at a time): reading them (ingest, parse, chunk), extracting
   * facts, embedding their passages, finding their relationships.
   */
  work: FolderWork;
  /** The embedding model that new vectors come from, or null when embedding is off. */
  embeddingModel: string | null;
  /** Chunks covered by a vector of the current model. */
  embeddedChunks: number;
  /**
   * The folder's store is damaged (SQLite's quick check at open, or damage met by a statement):
   * the store's path, what is damaged and what to do; null while nothing says so.
   */
  damage: string | null;
  /** Which store the folder uses and where (passwords taken out); null until the session has read it. */
  store: FolderStore | null;
}

export interface FolderWork {
  reading: number;
  extracting: number;
  embedding: number;
  relating: number;
}

export interface FolderStore {
  backend: StoreBackend;
  /** The data directory, or the MongoDB and Qdrant addresses with the folder's key. */
  where: string;
  /** The MongoDB or Qdrant server did not answer when work last needed it (its words); the work waits and is retried. */
  unreachable: string | null;
}

export interface StatusReport {
  folders: FolderStatus[];
}

/** client → server: the status now. */
export namespace StatusRequest {
  export const method = 'relata/status' as const;
  export const type = new RequestType<StatusParams, StatusReport, void>(method);
  export const params: Schema<StatusParams> = object({});
}
export type StatusParams = Record<string, never>;

/** server → client, whenever a folder's state or counts change (throttled): the same report. */
export namespace StatusNotification {
  export const method = 'relata/status' as const;
  export const type = new NotificationType<StatusReport>(method);
}

/** server → client: a folder's relationships changed (indexing discovered some, or a decision was made). */
export namespace RelationshipsChangedNotification {
  export const method = 'relata/relationshipsChanged' as const;
  export const type = new NotificationType<{ folder: string }>(method);
}

// Files and items ------------------------------------------------------------

export interface FileStatusParams {
  /** One folder; all folders when absent. */
  folder?: string;
}

export interface FolderFiles {
  folder: string;
  name: string;
  /** Every item of the folder with its status and, for anything not indexed, the reason. */
  files: ItemView[];
}

export namespace FileStatusRequest {
  export const method = 'relata/fileStatus' as const;
  export const type = new RequestType<FileStatusParams, { folders: FolderFiles[] }, void>(method);
  export const params: Schema<FileStatusParams> = object({ folder: optional(folderUri) });
}

export interface ItemParams {
  /** A file URI inside an open folder. */
  uri: string;
}

export interface ItemResult {
  folder: string;
  item: ItemDetailView;
}

/** The item stored for a file, or null when the file is not (yet) an item. */
export namespace ItemRequest {
  export const method = 'relata/item' as const;
  export const type = new RequestType<ItemParams, ItemResult | null, void>(method);
  export const params: Schema<ItemParams> = object({ uri: string({ minLength: 1, maxLength: 4096 }) });
}

export interface ParsedTextParams {
  /** A file URI inside an open folder. */
  uri: string;
}

/**
 * The file's parsed text as stored (its passages in order, with their locations), for the
 * read-only view of a file VS Code cannot show as text; null when the file is no item of an open
 * folder's index.
 */
export namespace ParsedTextRequest {
  export const method = 'relata/parsedText' as const;
  export const type = new RequestType<ParsedTextParams, { folder: string; view: ParsedTextView } | null, void>(method);
  export const params: Schema<ParsedTextParams> = object({ uri: string({ minLength: 1, maxLength: 4096 }) });
}

// Search ---------------------------------------------------------------------

export interface SearchParams {
  query: string;
  /** One folder; all folders when absent. */
  folder?: string;
  limit?: number;
  /** Expand only through relationships a person confirmed. */
  confirmedOnly?: boolean;
}

/**
 * One folder's answer. Relevance is normalised within each folder's result set, so results of
 * two folders are shown as two sets and never merged into one ranking.
 */
export type FolderSearch =
  | { folder: string; name: string; response: SearchResponse; error?: undefined }
  | { folder: string; name: string; response?: undefined; error: string };

export namespace SearchRequest {
  export const method = 'relata/search' as const;
  export const type = new RequestType<SearchParams, { folders: FolderSearch[] }, void>(method);
  export const params: Schema<SearchParams> = object({
    query: string({ minLength: 1, maxLength: 1000 }),
    folder: optional(folderUri),
    limit: optional(integer({ min: 1, max: 100 })),
    confirmedOnly: optional(boolean()),
  });
}

// Relationships --------------------------------------------------------------

export interface RelatedParams {
  /** The file being hovered. */
  uri: string;
  /** 0-based position of the hover, with the text of its line, to find an entity mention under it. */
  position?: { line: number; character: number };
  lineText?: string;
  /** False: only the entities under the cursor are wanted (the hover is not on the document's first line), not the item's relationships. Default true. */
  relationships?: boolean;
}

/** An entity mentioned at the hover position, with the other items that mention it. */
export interface EntityMentions {
  key: string;
  surface: string;
  type: string;
  items: ItemRef[];
  /** Only the model stage found this name in the hovered item (MODEL_FOUND_LABEL), no rule did. */
  byModel?: boolean;
  /** Where the name sits in the hovered line: character offsets [start, end), so the hover covers just the name. */
  start?: number;
  end?: number;
}

export interface RelatedResult {
  folder: string;
  /** The hovered file's item or, when the file is a byte-identical copy, its original's. */
  item: ItemRef;
  /** The hovered file's own path when it is such a copy: the hover says it is identical to `item`. */
  identicalCopy?: string;
  /** Relationships of this item that were not rejected, strongest first. */
  relationships: RelationshipView[];
  mentions: EntityMentions[];
  /** The disagreeing figures of each contradiction among `relationships`, by relationship id: the hover shows both. */
  conflicts?: Record<string, ConflictDetail[]>;
  /** What the document says about itself (front matter, document properties), when its relationships were asked for. */
  metadata?: MetadataView[];
  /** The language the item is written in (ISO 639-1, shared/languages.ts), when its relationships were asked for and it could be told. */
  language?: string;
}

/** For the hover: the item's relationships and the entities under the cursor. Null outside any item. */
export namespace RelatedRequest {
  export const method = 'relata/related' as const;
  export const type = new RequestType<RelatedParams, RelatedResult | null, void>(method);
  export const params: Schema<RelatedParams> = object({
    uri: string({ minLength: 1, maxLength: 4096 }),
    position: optional(object({ line: integer({ min: 0 }), character: integer({ min: 0 }) })),
    lineText: optional(string({ maxLength: 100_000 })),
    relationships: optional(boolean()),
  });
}

export interface RelatedItemsParams {
  /** A file URI inside an open folder: the active editor's file. */
  uri: string;
  /** Entries to return, relationships first (default 10). */
  limit?: number;
  /** Leave out what the documents already link to each other ("not linked yet" only). */
  onlyUnlinked?: boolean;
}

export interface RelatedItemsResult {
  folder: string;
  related: RelatedView;
}

/**
 * The Related view's list for one file (server/src/engine/related.ts): its relationships, then the
 * items nearest in content, each marked linked or not. Null when the file is not an indexed item.
 * `relata/related` was already the hover's request, so this one has its own name.
 */
export namespace RelatedItemsRequest {
  export const method = 'relata/relatedItems' as const;
  export const type = new RequestType<RelatedItemsParams, RelatedItemsResult | null, void>(method);
  export const params: Schema<RelatedItemsParams> = object({
    uri: string({ minLength: 1, maxLength: 4096 }),
    limit: optional(integer({ min: 1, max: 100 })),
    onlyUnlinked: optional(boolean()),
  });
}

export interface RelationshipsParams {
  folder?: string;
  status?: RelationshipStatus;
  /**
   * The Proposals view's pages (shared/proposalPages.ts): the first `pageSize` relationships of
   * each unit in the view's order, the rest counted in `unitTotals`. Absent: every relationship.
   */
  pageSize?: number;
  /** Units a person asked to see more of ("Show more"): how many relationships of each to send instead. */
  moreRows?: UnitRows[];
  /** The view's filter, applied before the units are cut and counted. */
  filter?: ProposalFilter;
}

export interface UnitRows {
  folder: string;
  unit: string;
  rows: number;
}

/** Items of the listed relationships that are copies of each other, shown once (server/src/ranking/nearDuplicateGroups.ts). */
export interface CopyGroup {
  representative: string;
  also: AlsoItem[];
}

export interface FolderRelationships {
  folder: string;
  name: string;
  relationships: RelationshipView[];
  /** Groups of two or more among the relationships' items; the Proposals tree shows each group's relationships once. */
  copyGroups?: CopyGroup[];
  /** Each relationship's signal contributions by id, in the order of its signals: the tooltip's sum adds up to the stored strength. */
  contributions?: Record<string, SignalContribution[]>;
  /** When paged: each unit's relationships after the filter, of which `relationships` holds the first. */
  unitTotals?: Record<string, number>;
  /** When paged: the relationships awaiting review in the folder, whatever the filter (the view's badge). */
  awaitingReview?: number;
}

export namespace RelationshipsRequest {
  export const method = 'relata/relationships' as const;
  export const type = new RequestType<RelationshipsParams, { folders: FolderRelationships[] }, void>(method);
  export const params: Schema<RelationshipsParams> = object({
    folder: optional(folderUri),
    status: optional(oneOf(['pending', 'confirmed', 'rejected'] as const)),
    pageSize: optional(integer({ min: 1, max: 100_000 })),
    moreRows: optional(array(object({ folder: folderUri, unit: string({ minLength: 1, maxLength: 64 }), rows: integer({ min: 1, max: 10_000_000 }) }), { maxItems: 1_000 })),
    filter: optional(
      object({
        types: nullable(array(oneOf(REVIEW_ORDER), { maxItems: REVIEW_ORDER.length })),
        statuses: nullable(array(oneOf(['pending', 'confirmed', 'rejected'] as const), { maxItems: 3 })),
        minStrength: number({ min: 0, max: 1 }),
      }),
    ),
  });
}

export interface RelationshipParams {
  folder: string;
  id: string;
}

/** One signal's share of the score: strength × weight × the diminishing factor of its repeat. */
export interface SignalContribution {
  type: SignalType;
  /** 1, 0.5, 0.25, then 0 for the first, second, third and later signals of one type. */
  factor: number;
  contribution: number;
}

/** Two claims that disagree, each with its figure and the sentence it came from. */
export interface ConflictSide {
  item: ItemRef;
  value: string;
  text: string;
}

export interface ConflictDetail {
  subject: string;
  attribute: string;
  detail: string;
  sides: [ConflictSide, ConflictSide];
}

export interface RelationshipDetail {
  folder: string;
  relationship: RelationshipView;
  /** In the order of `relationship.signals`. */
  contributions: SignalContribution[];
  /** Σ contributions before the cap at 1.00; the score is min(1, max(0, this)). */
  uncappedTotal: number;
  conflicts: ConflictDetail[];
}

export namespace RelationshipRequest {
  export const method = 'relata/relationship' as const;
  export const type = new RequestType<RelationshipParams, RelationshipDetail | null, void>(method);
  export const params: Schema<RelationshipParams> = object({ folder: folderUri, id: string({ minLength: 1, maxLength: 200 }) });
}

export interface DecisionParams {
  folder: string;
  id: string;
  note?: string;
}

const decisionParams: Schema<DecisionParams> = object({
  folder: folderUri,
  id: string({ minLength: 1, maxLength: 200 }),
  note: optional(string({ maxLength: 2000 })),
});

/** A person confirms a proposal (engine/relationships.ts decide()): +1.00 saturates the score, nothing is removed. */
export namespace ConfirmRequest {
  export const method = 'relata/confirm' as const;
  export const type = new RequestType<DecisionParams, RelationshipView, void>(method);
  export const params = decisionParams;
}

/** A person rejects a proposal: −1.00 takes the score to (nearly always) zero, the pair is never proposed again. */
export namespace RejectRequest {
  export const method = 'relata/reject' as const;
  export const type = new RequestType<DecisionParams, RelationshipView, void>(method);
  export const params = decisionParams;
}

export interface ChooseOriginalParams {
  /** A file the index holds as a byte-identical copy of another. */
  uri: string;
}

export interface ChooseOriginalResult {
  folder: string;
  /** Folder-relative paths: the file now the original, and the one that was. */
  original: string;
  formerOriginal: string;
}

/** A person makes a copy the original of its identical files (FolderIndex.chooseOriginal); kept across runs. */
export namespace ChooseOriginalRequest {
  export const method = 'relata/chooseOriginal' as const;
  export const type = new RequestType<ChooseOriginalParams, ChooseOriginalResult, void>(method);
  export const params: Schema<ChooseOriginalParams> = object({ uri: string({ minLength: 1, maxLength: 4096 }) });
}

// Graph ----------------------------------------------------------------------

export interface GraphParams {
  /** The folders to draw; every open folder when absent. */
  folders?: string[];
  /** A file URI: draw its item's neighbourhood; every item when absent. */
  focus?: string;
  /** Relationships out from the focus (default shared/graph.ts DEFAULT_NEIGHBOURHOOD_DEPTH). */
  depth?: number;
  /** Relationship types to draw; every type when absent. */
  types?: RelationshipType[];
  /** Review statuses to draw; pending and confirmed when absent (rejected only when asked for). */
  statuses?: RelationshipStatus[];
  /** Relationship strength (0-1) below which a relationship is not drawn; 0 when absent. */
  minStrength?: number;
}

export interface GraphResult {
  /** The folders drawn, each with why it could not be when its index is not open. */
  folders: { folder: string; name: string; error?: string }[];
  graph: RelationshipGraph;
  /**
   * Why the neighbourhood asked for could not be drawn (the file is outside the folders, or not
   * an item yet), in words; the graph is then empty and the view offers to show everything.
   */
  notice: string | null;
}

/** The relationship graph (server/src/engine/relationshipGraph.ts) of the folders' items. */
export namespace GraphRequest {
  export const method = 'relata/graph' as const;
  export const type = new RequestType<GraphParams, GraphResult, void>(method);
  export const params: Schema<GraphParams> = object({
    folders: optional(array(folderUri, { maxItems: 100 })),
    focus: optional(string({ minLength: 1, maxLength: 4096 })),
    depth: optional(integer({ min: 1, max: 5 })),
    types: optional(array(oneOf(GRAPH_TYPES), { maxItems: GRAPH_TYPES.length })),
    statuses: optional(array(oneOf(GRAPH_STATUSES), { maxItems: GRAPH_STATUSES.length })),
    minStrength: optional(number({ min: 0, max: 1 })),
  });
}

// Answers --------------------------------------------------------------------

export interface AskParams {
  question: string;
  /** The folder to answer from; the first folder when absent. */
  folder?: string;
  /**
   * Set by the client when a person's action started this ask (the Ask panel, the chat view). The
   * server names it when it borrows the editor's model (EditorModelRequest), and the client lends
   * a model only for an ask it started, because the editor's API may ask the person's consent and
   * must do so only in answer to their action. Without it the editor's model is never asked.
   */
  askId?: string;
}

export interface AskResult {
  folder: string;
  result: AnswerResult;
}

export namespace AskRequest {
  export const method = 'relata/ask' as const;
  export const type = new RequestType<AskParams, AskResult, void>(method);
  export const params: Schema<AskParams> = object({
    question: string({ minLength: 1, maxLength: 2000 }),
    folder: optional(folderUri),
    askId: optional(string({ minLength: 1, maxLength: 200 })),
  });
}

/** Why the editor could not lend a model for one prompt; each reaches the person as a message, with the retrieval. */
export type EditorModelUnavailable =
  /** No chat model is installed or none matches `relata.answers.editorModel`. */
  | 'no_model'
  /** The person did not allow Relata to use the editor's model. */
  | 'no_consent'
  /** The model's provider refused for now (quota, rate limit). */
  | 'quota'
  /** The request to the model was cancelled (by the person or the editor). */
  | 'cancelled'
  /** The ask did not come from a person's action in this window (no askId the client knows). */
  | 'not_user_action'
  /** Anything else the model's provider reported. */
  | 'error';

export interface EditorModelParams {
  /** The ask this prompt answers (AskParams.askId). */
  askId: string;
  /** The same rules, S-labelled delimited passages and JSON schema the other providers get. */
  system: string;
  user: string;
  /** The JSON schema the reply must follow; the editor's API has no structured output, so the client puts it in the prompt. */
  output?: { name: string; schema: Record<string, unknown> };
}

export type EditorModelResult =
  /** The model's raw text, which the server validates exactly as any other provider's; `model` names it. */
  | { kind: 'text'; text: string; model: string }
  | { kind: 'unavailable'; reason: EditorModelUnavailable; message: string };

/**
 * Server → client: answer this prompt with the editor's language model (vscode.lm). The language
 * server runs in its own process and cannot call the editor's API, so the client lends it; what
 * comes back is only raw text, judged by the server's validation like a local model's.
 */
export namespace EditorModelRequest {
  export const method = 'relata/editorModel' as const;
  export const type = new RequestType<EditorModelParams, EditorModelResult, void>(method);
}

// Knowledge tools (agent mode) -------------------------------------------------

/** The read-only tools an agent may call: the same four `relata mcp` offers, answered by the same code. */
export const KNOWLEDGE_TOOLS = ['search', 'relationships', 'related', 'conflicts', 'item'] as const;
export type KnowledgeTool = (typeof KNOWLEDGE_TOOLS)[number];

export interface KnowledgeToolParams {
  tool: KnowledgeTool;
  /** The tool's input as the agent gave it: `query` and `limit` for search, `path` for the others (`related` also takes `limit` and `onlyUnlinked`). */
  input: { query?: string; limit?: number; path?: string; onlyUnlinked?: boolean };
  /** One folder; for a tool without a path, every folder when absent; with a path, the folder holding it (an absolute path or file URI) or the first. */
  folder?: string;
}

export interface KnowledgeToolAnswer {
  folder: string;
  name: string;
  /** What `relata mcp`'s tool of the same name returns for this folder. */
  result?: unknown;
  /** Why this folder could not answer (an unknown path, a folder whose store is not open). */
  error?: string;
}

export namespace KnowledgeToolRequest {
  export const method = 'relata/knowledgeTool' as const;
  export const type = new RequestType<KnowledgeToolParams, { folders: KnowledgeToolAnswer[] }, void>(method);
  export const params: Schema<KnowledgeToolParams> = object({
    tool: oneOf(KNOWLEDGE_TOOLS),
    input: object({
      query: optional(string({ minLength: 1, maxLength: 2000 })),
      limit: optional(integer({ min: 1, max: 50 })),
      path: optional(string({ minLength: 1, maxLength: 4096 })),
      onlyUnlinked: optional(boolean()),
    }),
    folder: optional(folderUri),
  });
}

// Scoring model --------------------------------------------------------------

/** The live scoring and ranking model, read from the engine's constants (never copied). */
export interface ScoringModelView {
  score_version: string;
  weights: Partial<Record<SignalType, number>>;
  /** Factors for the strongest, second, third… signal of one type; later ones count nothing. */
  diminishing_factors: number[];
  similarity_floor: number;
  concept_base_strength: number;
  /** A name or figure found by the model stage counts this share of a rule's, and only beside rule-found evidence. */
  model_found_factor: number;
  /** A shared name the rules guessed from capitals alone (a product or tool name) counts this share. */
  guessed_name_factor: number;
  temporal_window_days: number;
  /** How the version reads evidence, one plain sentence a rule (v1's fixed floor, or v2's rules within the folder). */
  evidence_rules: string[];
  /** Every scoring version Relata can score with, oldest first (`relata reprocess --score-version`). */
  versions: string[];
  /** Each threshold with the environment variable that overrides it. */
  thresholds: { name: string; value: number; env: string }[];
  rank_version: string;
  path_weights: Partial<Record<SearchPath, number>>;
}

export namespace ScoringModelRequest {
  export const method = 'relata/scoringModel' as const;
  export const type = new RequestType<Record<string, never>, ScoringModelView, void>(method);
  export const params: Schema<Record<string, never>> = object({});
}

// Indexing control ------------------------------------------------------------

/** Index now (the folder scanned again and brought up to date), pause indexing, or resume it. */
export type IndexingAction = 'index' | 'pause' | 'resume';

export interface IndexingParams {
  action: IndexingAction;
  /** One folder; all folders when absent. */
  folder?: string;
}

export interface IndexingOutcome {
  folder: string;
  name: string;
  /** What was done, or why nothing was (already paused, the store could not be opened), in words. */
  outcome: string;
}

export namespace IndexingRequest {
  export const method = 'relata/indexing' as const;
  export const type = new RequestType<IndexingParams, { folders: IndexingOutcome[] }, void>(method);
  export const params: Schema<IndexingParams> = object({ action: oneOf(['index', 'pause', 'resume'] as const), folder: optional(folderUri) });
}

export interface ReindexFileParams {
  /** A file URI inside an open folder. */
  uri: string;
}

/** Re-index one file now: read again and, even when its bytes did not change, parsed again; answers once it is done. */
export namespace ReindexFileRequest {
  export const method = 'relata/reindexFile' as const;
  export const type = new RequestType<ReindexFileParams, IndexingOutcome & { path: string }, void>(method);
  export const params: Schema<ReindexFileParams> = object({ uri: string({ minLength: 1, maxLength: 4096 }) });
}

export interface StoreFolder {
  folder: string;
  name: string;
  backend: StoreBackend;
  /** The folder's SQLite data directory; null for a store that has none here (MongoDB + Qdrant), or not opened yet. */
  dataDir: string | null;
  /** Where the store is, in words (the data directory, or the servers with the folder's key). */
  where: string;
}

/** Where each folder's store is, to open its folder. */
export namespace StoreFolderRequest {
  export const method = 'relata/storeFolder' as const;
  export const type = new RequestType<{ folder?: string }, { folders: StoreFolder[] }, void>(method);
  export const params: Schema<{ folder?: string }> = object({ folder: optional(folderUri) });
}

/** Every request the server answers, with its params schema: the server registers exactly these. */
export const REQUESTS = [
  StatusRequest,
  FileStatusRequest,
  ItemRequest,
  ParsedTextRequest,
  SearchRequest,
  RelatedRequest,
  RelatedItemsRequest,
  RelationshipsRequest,
  RelationshipRequest,
  ConfirmRequest,
  RejectRequest,
  ChooseOriginalRequest,
  AskRequest,
  KnowledgeToolRequest,
  ScoringModelRequest,
  GraphRequest,
  IndexingRequest,
  ReindexFileRequest,
  StoreFolderRequest,
] as const;

