// Extract: what each item is about, as evidence for relationships and search. Deterministic
// extractors run per chunk (so every entity and claim points at its passage and offsets); key
// phrases are counted per item and weighted against the workspace when read. The extractors run
// in a stage thread (key phrases over a 20 MB text take seconds), so the main thread only reads
// the passages and stores the results. Results are replaced as a whole for the item's current
// bytes, so re-running updates rather than adds. When the model stage is on, it reads the
// passages the rules left thin on the main thread (a model call is I/O or native work) and its
// checked findings are stored with the rules', in the same write.

import { detectLanguage, type LanguageCode } from '../../../../shared/languages.ts';
import { extractClaims } from '../../extract/claims/index.ts';
import { capNotice, EvenSample, EXTRACTION_CAPS, type ExtractionCaps } from '../../extract/caps.ts';
import { topPhrases, type TextInLanguage } from '../../extract/concepts.ts';
import { passageLanguages } from '../../extract/passageLanguages.ts';
import { extractEntities, type PassageContext } from '../../extract/entities/index.ts';
import type { ParsedDocument } from '../../parse/types.ts';
import { EXTRACTOR_VERSIONS, extractionVersions } from '../../extract/versions.ts';
import type { ItemExtraction } from '../../store/contract.ts';
import type { ExtractJob, ItemDocumentContext } from '../threads/protocol.ts';
import { ThreadLimitError } from '../threads/stageThreads.ts';
import type { StageContext } from './context.ts';

/** Front-matter and document-property keys that name who wrote the document (metadata.ts folds `creator`, `authors`). */
const AUTHOR_KEYS = new Set(['author', 'byline', 'by']);

export function documentContext(document: Pick<ParsedDocument, 'blocks' | 'metadata'>): ItemDocumentContext {
  const code = document.blocks.filter((block) => block.kind === 'code').map((block) => block.text.trim()).filter((text) => text !== '');
  const authors = (document.metadata?.entries ?? []).filter((entry) => AUTHOR_KEYS.has(entry.key)).map((entry) => entry.text);
  return { code, authors };
}

/** Where the document's code blocks stand in one passage's text. */
function passageContext(text: string, document: ItemDocumentContext, language: LanguageCode): PassageContext {
  const code: [number, number][] = [];
  for (const block of document.code) {
    for (let at = text.indexOf(block); at >= 0; at = text.indexOf(block, at + block.length)) code.push([at, at + block.length]);
  }
  return { code, authors: document.authors, language };
}

/**
 * The item's extraction, as the stage thread computes it. Pure: the same passages give the same
 * results. `headings` are the item's headings in document order; all but the title are section
 * headings, which alone do not make a key phrase (countPhrases). What is kept is capped per item
 * inside the thread (extract/caps.ts), so the thread's memory, the result sent back and the
 * store's write are bounded however large the item; `capped` says what was left out.
 */
export function extractionOf(
  title: string | null,
  chunks: ExtractJob['chunks'],
  headings: readonly string[] = [],
  caps: ExtractionCaps = EXTRACTION_CAPS,
  document: ItemDocumentContext = { code: [], authors: [] },
): ItemExtraction {
  const entities = new EvenSample<ItemExtraction['entities'][number]>(caps.entities);
  const claims = new EvenSample<ItemExtraction['claims'][number]>(caps.claims);
  const text = chunks.map((chunk) => chunk.text).join('\n\n');
  // The item's language: its stop words decide its concepts, its date words and honorifics are
  // read, and the embedding model's languages decide whether its similarity means anything
  // (embed/languages.ts). A passage clearly in another language has its own (passageLanguages.ts).
  const { language } = detectLanguage(text);
  const passages = passageLanguages(chunks, language);
  const inOtherLanguages = new Map<LanguageCode, string[]>();
  for (const chunk of chunks) {
    const own = passages[chunk.id];
    if (own !== undefined) inOtherLanguages.set(own, [...(inOtherLanguages.get(own) ?? []), chunk.text]);
    const found = extractEntities(chunk.text, passageContext(chunk.text, document, own ?? language));
    for (const entity of found) entities.offer({ ...entity, chunkId: chunk.id });
    const inChunk = extractClaims(chunk.text, { title: title ?? undefined, headingPath: chunk.headingPath, entities: found });
    for (const claim of inChunk) claims.offer({ ...claim, chunkId: chunk.id });
  }
  const sectionHeadings = headings.filter((heading) => heading.trim() !== title?.trim());
  const inItemLanguage = inOtherLanguages.size === 0 ? text : chunks.filter((chunk) => passages[chunk.id] === undefined).map((chunk) => chunk.text).join('\n\n');
  const others: TextInLanguage[] = [...inOtherLanguages].map(([other, texts]) => ({ text: texts.join('\n\n'), language: other }));
  const phrases = topPhrases(inItemLanguage, sectionHeadings, caps.phrases, language, others);
  const extraction: ItemExtraction = { entities: entities.take(), claims: claims.take(), phrases: phrases.phrases, versions: EXTRACTOR_VERSIONS, language };
  if (inOtherLanguages.size > 0) extraction.passageLanguages = passages;
  const capped = capNotice(
    { phrases: extraction.phrases.length, claims: extraction.claims.length, entities: extraction.entities.length },
    { phrases: phrases.found, claims: claims.seen, entities: entities.seen },
    { phrases: !phrases.exact },
  );
  if (capped !== null) extraction.capped = capped;
  return extraction;
}

export async function extract(context: StageContext, itemId: string): Promise<void> {
  const { store, threads } = context;
  const item = await store.getItem(itemId);
  if (!item || item.deletedAt || item.status !== 'indexed' || !item.contentHash) return;
  const chunks = (await store.listChunks(itemId)).map(({ id, text, headingPath }) => ({ id, text, headingPath }));
  const headings = await store.listHeadings(itemId);
  const parsed = await store.getParsedText(itemId);
  try {
    const extraction = await threads.extract(item.title, chunks, headings, parsed ? documentContext(parsed.document) : undefined);
    if (context.modelExtractor) {
      // After the rules, and only adding to them: the model's findings are checked against each
      // passage and labelled producer 'model' (extract/model/).
      const found = await context.modelExtractor.extractItem(store, itemId, chunks, extraction);
      extraction.entities.push(...found.entities);
      extraction.claims.push(...found.claims);
      // A passage the model could not be reached for is read on the next run (the rest from the cache).
      extraction.versions = extractionVersions(context.modelExtractor.version, found.complete);
    }
    const stored = await store.storeExtraction(itemId, item.contentHash, extraction);
    // The same bytes may now have names the model could not give last time: weigh the item again.
    if (stored && context.modelExtractor) await store.resetDiscovery([itemId]);
  } catch (error) {
    // Too costly to extract from: FAILURE_FAILS_ITEM.extract, and the same bytes would fail the same way.
    if (!(error instanceof ThreadLimitError)) throw error;
    await store.markFailed(itemId, error.message);
  }
}
