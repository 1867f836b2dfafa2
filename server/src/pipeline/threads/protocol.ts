// Messages between the stages (main thread) and their stage threads, in one place so both sides
// agree on them. A job is one stage's CPU-bound work on one item: its input goes to the thread,
// its result comes back, and the main thread only reads from and writes to the store.

import type { Block, ParsedDocument, ParserLimits } from '../../parse/types.ts';
import type { ChunkRecord, ItemExtraction } from '../../store/contract.ts';

/** Parse these bytes as the named file. */
export interface ParseJob {
  kind: 'parse';
  bytes: Uint8Array;
  fileName: string;
  /** The parsers' own caps (DOCX inflated size, PDF pages); absent ones keep the parsers' defaults. */
  limits: Partial<ParserLimits>;
}

/** Group an item's parsed blocks into passages with their ids. */
export interface ChunkJob {
  kind: 'chunk';
  workspace: string;
  itemId: string;
  contentHash: string;
  /** The blocks, or their JSON as the store keeps it (parsed in the thread). */
  blocks: Block[] | string;
}

/**
 * What extraction needs from the parsed document that its passages' text no longer shows: the
 * code blocks' text (a passage's text keeps a code block without its fences, and "git@host" in
 * a shell line is no e-mail address) and the author or byline field (those strings are people).
 */
export interface ItemDocumentContext {
  code: string[];
  authors: string[];
}

/** Run the deterministic extractors over an item's passages. */
export interface ExtractJob {
  kind: 'extract';
  title: string | null;
  chunks: Pick<ChunkRecord, 'id' | 'text' | 'headingPath'>[];
  /** The item's headings in document order (the title among them), so section headings alone make no key phrase. */
  headings: string[];
  /** What the parsed document says beyond its passages' text: its code blocks and its author field. */
  document?: ItemDocumentContext;
}

export type StageJob = ParseJob | ChunkJob | ExtractJob;

/** What each kind of job sends back. */
export interface StageResults {
  /** Without `text`, which the main thread joins from the blocks if it is read (withJoinedText). */
  parse: Omit<ParsedDocument, 'text'>;
  chunk: ChunkRecord[];
  extract: ItemExtraction;
}

/** Main thread to stage thread. */
export interface StageRequest {
  job: number;
  work: StageJob;
}

/** Stage thread to main thread. */
export type StageReply =
  /** The thread has loaded the parsers: a job's time limit starts only once it can run. */
  | { kind: 'ready' }
  | { kind: 'done'; job: number; result: StageResults[StageJob['kind']] }
  /** The parse has started reading pages by OCR: its time limit grows by the OCR budget (ParserLimits.ocrTimeMs). */
  | { kind: 'ocr'; job: number }
  /** `itemAtFault`: the parser rejected the file (a ParseError), so a retry would fail the same way. */
  | { kind: 'failed'; job: number; message: string; itemAtFault: boolean };
