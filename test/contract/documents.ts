// Real inputs for the contract suite, made the way the pipeline makes them: bytes hashed as ingest
// hashes them, parsed by the format's parser (parse/registry.ts), cut into passages by the chunk
// stage's own function and extracted by the extract stage's, so every backend stores what it
// will store in use. Vectors are small and deterministic, from a registered model descriptor.

import path from 'node:path';
import type { ModelDescriptor } from '../../server/src/embed/types.ts';
import { parseFile, parserFor } from '../../server/src/parse/registry.ts';
import type { ParsedDocument } from '../../server/src/parse/types.ts';
import { passagesOf } from '../../server/src/pipeline/stages/chunk.ts';
import { extractionOf } from '../../server/src/pipeline/stages/extract.ts';
import { sha256 } from '../../server/src/store/blobs.ts';
import type { ChunkRecord, IngestOutcome, IngestRun, ItemExtraction, ParsedText, VectorEntry, WorkspaceStore } from '../../server/src/store/contract.ts';

export const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
export const hashOf = (text: string): string => sha256(bytesOf(text));

/** Every path is on disk: the usual answer while a folder is scanned. */
export const onDisk = (): boolean => true;

/** What ingest records for a file with this text. */
export function ingest(store: WorkspaceStore, filePath: string, text: string, isOnDisk: (path: string) => boolean = onDisk, run?: IngestRun): Promise<IngestOutcome> {
  return store.recordIngest({ path: filePath, contentHash: hashOf(text), size: bytesOf(text).length }, isOnDisk, run);
}

export async function parsedTextOf(filePath: string, text: string): Promise<ParsedText> {
  const parser = parserFor(filePath);
  if (!parser) throw new Error(`${filePath}: no parser for this file type`);
  return { contentHash: hashOf(text), parserVersion: parser.version, document: await parseFile(bytesOf(text), filePath) };
}

/** The title the parse stage records: the document's own, else the file name. */
export function titleOf(filePath: string, document: ParsedDocument): string {
  return document.title?.trim() || path.basename(filePath, path.extname(filePath));
}

export function chunksOf(store: WorkspaceStore, itemId: string, parsed: ParsedText): ChunkRecord[] {
  return passagesOf(store.workspace, itemId, parsed.contentHash, parsed.document.blocks);
}

export interface IndexedDocument {
  itemId: string;
  path: string;
  text: string;
  contentHash: string;
  parsed: ParsedText;
  title: string;
  chunks: ChunkRecord[];
}

/** Ingest, parse and chunk, as the stages do, failing loudly if the store refuses a step. */
export async function indexDocument(store: WorkspaceStore, filePath: string, text: string): Promise<IndexedDocument> {
  const outcome = await ingest(store, filePath, text);
  if (outcome.kind !== 'created' && outcome.kind !== 'new_version') throw new Error(`${filePath}: ingest said ${outcome.kind}, expected new bytes`);
  const parsed = await parsedTextOf(filePath, text);
  const title = titleOf(filePath, parsed.document);
  if (!(await store.recordParse(outcome.itemId, parsed, title))) throw new Error(`${filePath}: the store refused its parse`);
  const chunks = chunksOf(store, outcome.itemId, parsed);
  if (!(await store.replaceChunks(outcome.itemId, parsed.contentHash, chunks))) throw new Error(`${filePath}: the store refused its chunks`);
  return { itemId: outcome.itemId, path: filePath, text, contentHash: parsed.contentHash, parsed, title, chunks };
}

/** What the extract stage computes for the document. */
export function extractionFor(document: IndexedDocument): ItemExtraction {
  const headings = document.parsed.document.structure.headings.map((heading) => heading.text);
  return extractionOf(document.title, document.chunks.map(({ id, text, headingPath }) => ({ id, text, headingPath })), headings);
}

export async function extractDocument(store: WorkspaceStore, document: IndexedDocument): Promise<ItemExtraction> {
  const extraction = extractionFor(document);
  if (!(await store.storeExtraction(document.itemId, document.contentHash, extraction))) throw new Error(`${document.path}: the store refused its extraction`);
  return extraction;
}

export const MODEL_A: ModelDescriptor = { id: 'model-a', dims: 4, version: '1', maxTokens: 128 };
export const MODEL_B: ModelDescriptor = { id: 'model-b', dims: 3, version: '1', maxTokens: 64 };
/** Same dimensions as MODEL_A: only the model id keeps their vectors apart. */
export const MODEL_A_TWIN: ModelDescriptor = { id: 'model-a-twin', dims: 4, version: '1', maxTokens: 128 };

/** A unit vector along the given direction. */
export function unit(...values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return new Float32Array(values.map((value) => value / norm));
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i]! * b[i]!;
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

/** One window per chunk, its vector given in chunk order. */
export function windowsOf(document: IndexedDocument, vectors: readonly Float32Array[]): VectorEntry[] {
  if (vectors.length !== document.chunks.length) throw new Error(`${document.path} has ${document.chunks.length} chunks, got ${vectors.length} vectors`);
  return document.chunks.map((chunk, index) => ({ chunkId: chunk.id, window: 0, start: 0, end: chunk.text.length, vector: vectors[index]! }));
}

export async function embedDocument(store: WorkspaceStore, document: IndexedDocument, model: ModelDescriptor, vectors: readonly Float32Array[]): Promise<void> {
  await store.registerModel(model);
  if (!(await store.storeVectors(document.itemId, document.contentHash, model, windowsOf(document, vectors)))) {
    throw new Error(`${document.path}: the store refused its vectors`);
  }
}

/** About 200 words on one topic: long enough that the chunker gives each section a passage of its own. */
export function sectionAbout(topic: string): string {
  return Array.from({ length: 12 }, (_, visit) => `The ${topic} was checked on visit ${visit + 1} and the findings were written down in the site log.`).join(' ');
}

/** A Markdown handbook whose sections (heading, topic) each become one passage. */
export function handbook(title: string, sections: readonly (readonly [heading: string, topic: string])[]): string {
  return `# ${title}\n\n${sections.map(([heading, topic]) => `## ${heading}\n\n${sectionAbout(topic)}\n`).join('\n')}`;
}

export const CRANE_HANDBOOK = handbook('Crane handbook', [
  ['Hoist', 'hoist brake'],
  ['Rails', 'rail alignment'],
  ['Cabin', 'cabin heater'],
]);

/** Short documents with people, organisations, dates and figures for the extractors to find. */
export const REPORT =
  '# Gantry crane refurbishment report\n\n' +
  'Ms. Carla Mendes signed the inspection on 12 March 2025. The work was ordered by Larkspur Logistics Ltd.\n\n' +
  'The refurbishment cost of the gantry crane is EUR 42,000. The hoist brake was replaced.\n';

export const BUDGET_MEMO =
  '# Capital budget review\n\n' +
  'Ms. Carla Mendes asked Mr. Jonas Weber to review the budget on 20 March 2025.\n\n' +
  'The refurbishment cost of the gantry crane is EUR 51,500 in the budget.\n';

export const CANTEEN_MENU = '# Canteen menu\n\nSoup, bread and apples on Friday. Mr. Jonas Weber of Larkspur Logistics Ltd orders the apples.\n';
