// Converts stored records into the views that the CLI prints and the protocol will carry.
// Keeping this in the engine means the command line and the editor show the same facts.

import type { BrokenLinkView, ChunkView, ConceptView, ItemDetailView, ItemLinksView, ItemView, MetadataView } from '../../../shared/types.ts';
import { folderView } from '../discover/folderView.ts';
import { folderLinkIndex, itemLinks, linkAsWritten, linkPlace, type UnresolvedLink } from '../discover/links/itemLinks.ts';
import { weightConcepts } from '../extract/concepts.ts';
import { countsAsSubject, LINK_LIST_KEYS } from '../parse/metadata.ts';
import type { ParsedDocument } from '../parse/types.ts';
import type { ChunkRecord, ItemRecord, WorkspaceStore } from '../store/contract.ts';

const FIRST_WORDS = 12;

export function itemView(item: ItemRecord, pathOf: (id: string) => string | null = () => null): ItemView {
  return {
    id: item.id,
    path: item.path,
    title: item.title,
    status: item.status,
    reason: item.reason,
    duplicateOf: item.duplicateOf ? (pathOf(item.duplicateOf) ?? item.duplicateOf) : null,
    contentHash: item.contentHash,
    parserVersion: item.parserVersion,
    flags: item.flags,
    version: item.version,
    updatedAt: item.updatedAt,
  };
}

export function chunkView(chunk: ChunkRecord): ChunkView {
  const words = chunk.text.split(/\s+/).filter(Boolean);
  return {
    id: chunk.id,
    ordinal: chunk.ordinal,
    headingPath: chunk.headingPath,
    location: chunk.location,
    wordCount: chunk.wordCount,
    firstWords: words.slice(0, FIRST_WORDS).join(' ') + (words.length > FIRST_WORDS ? ' …' : ''),
  };
}

const HIDDEN_KIND_NAMES: Record<string, string> = {
  html_comment: 'HTML comment',
  hidden_element: 'hidden element',
  vanish_run: 'hidden Word text',
  white_text: 'white text',
  tiny_text: 'tiny text',
  invisible_render_mode: 'invisible PDF text',
  hidden_slide: 'hidden slide',
  hidden_sheet: 'hidden sheet',
  hidden_cells: 'hidden rows or columns',
};

/** What was left out when the file was read, in words: "hidden text: 2 passages a reader cannot see (HTML comment) were left out". */
export function parseNotice(document: Pick<ParsedDocument, 'hidden' | 'truncated' | 'metadata'>): string | null {
  const notes: string[] = [];
  const hidden = document.hidden ?? []; // Documents stored by older parsers lack both.
  if (hidden.length > 0) {
    const kinds = [...new Set(hidden.map((finding) => HIDDEN_KIND_NAMES[finding.kind] ?? finding.kind))].join(', ');
    const count = hidden.length === 1 ? '1 passage a reader cannot see' : `${hidden.length} passages a reader cannot see`;
    const addressed = hidden.some((finding) => finding.instructions.length > 0) ? ', some of it addressed to an AI assistant' : '';
    notes.push(`hidden text: ${count} (${kinds}) ${hidden.length === 1 ? 'was' : 'were'} left out${addressed}`);
  }
  if (document.truncated) notes.push(document.truncated);
  if (document.metadata?.note) notes.push(`metadata: ${document.metadata.note}`);
  return notes.length > 0 ? notes.join('; ') : null;
}

/** An item flagged for what its parse left out gets that as its reason, where it has no other. */
async function withParseNotice(store: WorkspaceStore, view: ItemView): Promise<ItemView> {
  if (view.reason !== null || !view.flags.some((flag) => flag === 'hidden_text' || flag === 'truncated' || flag === 'metadata_left_out')) return view;
  const parsed = await store.getParsedText(view.id);
  return { ...view, reason: parsed ? parseNotice(parsed.document) : null };
}

/**
 * The item a path's views show: a byte-identical copy has no passages, facts or relationships
 * of its own, so it is shown as its original, with the copy's path said (`identicalCopy`).
 */
export async function viewedItem(store: WorkspaceStore, item: ItemRecord): Promise<{ item: ItemRecord; identicalCopy?: string }> {
  if (item.status !== 'duplicate' || !item.duplicateOf) return { item };
  const original = await store.getItem(item.duplicateOf);
  if (!original || original.deletedAt) return { item };
  return { item: original, identicalCopy: item.path };
}

/** What `relata item` and the editor show for the item at a path: its original's, for a copy. */
export async function itemDetail(store: WorkspaceStore, asked: ItemRecord): Promise<ItemDetailView> {
  const { item, identicalCopy } = await viewedItem(store, asked);
  const detail = await ownDetail(store, item);
  return identicalCopy ? { ...detail, identicalCopy } : detail;
}

async function ownDetail(store: WorkspaceStore, item: ItemRecord): Promise<ItemDetailView> {
  const original = item.duplicateOf ? await store.getItem(item.duplicateOf) : null;
  const parsed = item.flags.length > 0 ? await store.getParsedText(item.id) : null;
  return {
    ...(await withParseNotice(store, itemView(item, () => original?.path ?? null))),
    versions: await store.listVersions(item.id),
    chunks: (await store.listChunks(item.id)).map(chunkView),
    hidden: parsed?.document.hidden ?? [],
    truncated: parsed?.document.truncated ?? null,
    entities: (await store.listEntities(item.id)).map(({ itemId: _itemId, ...entity }) => entity),
    claims: (await store.listClaims(item.id)).map(({ itemId: _itemId, ...claim }) => claim),
    concepts: await itemConcepts(store, item.id),
    metadata: await itemMetadata(store, item.id),
    links: await itemLinksView(store, item),
    ...languageOf(await store.itemLanguages([item.id]), item.id),
  };
}

function languageOf(languages: Map<string, string>, itemId: string): { language?: string } {
  const language = languages.get(itemId);
  return language === undefined ? {} : { language };
}

/** The item's links, resolved against the folder's items now: the files it reaches and the links that reach nothing. */
export async function itemLinksView(store: WorkspaceStore, item: ItemRecord): Promise<ItemLinksView> {
  const links = await itemLinks(store, item, (await folderView(store)).links);
  return {
    to_files: links.resolved.map((link) => ({ path: link.toPath, as_written: linkAsWritten(link.link), place: linkPlace(link.link.location, item.path) })),
    external: links.external,
    broken: links.unresolved.map((link) => brokenLinkView(link, item.path)),
  };
}

function brokenLinkView(link: UnresolvedLink, fromPath: string): BrokenLinkView {
  const reason =
    link.status === 'ambiguous' ? `names several files: ${(link.candidates ?? []).join(', ')}` : link.status === 'outside_folder' ? 'outside the folder' : 'not in the folder';
  return { target: link.link.target, as_written: linkAsWritten(link.link), place: linkPlace(link.link.location, fromPath), reason };
}

/** The views with each indexed file's count of broken links, for File Status (one read of each file's links). */
export async function withBrokenLinks(store: WorkspaceStore, views: ItemView[]): Promise<ItemView[]> {
  const items = await store.listItems();
  const linkable = folderLinkIndex(items);
  const byId = new Map(items.map((item) => [item.id, item]));
  return Promise.all(
    views.map(async (view) => {
      const item = byId.get(view.id);
      if (!item || item.status !== 'indexed') return view;
      const broken = (await itemLinks(store, item, linkable)).unresolved.length;
      return broken > 0 ? { ...view, brokenLinks: broken } : view;
    }),
  );
}

/** What the item's document says about itself, each value marked with whether discovery uses it (a subject it compares, or a `related:` list it reads as links). */
export async function itemMetadata(store: WorkspaceStore, itemId: string): Promise<MetadataView[]> {
  return (await store.listMetadata(itemId)).map((entry) => ({
    label: entry.label,
    text: entry.text,
    compared: countsAsSubject(entry.key) || LINK_LIST_KEYS.has(entry.key),
  }));
}

/** The item's key phrases weighted against the workspace's document frequency, now. */
export async function itemConcepts(store: WorkspaceStore, itemId: string): Promise<ConceptView[]> {
  const phrases = await store.listPhrases(itemId);
  const frequencies = await store.phraseDocumentFrequencies(phrases.map((phrase) => phrase.key));
  return weightConcepts(phrases, (key) => frequencies.get(key) ?? 0, await store.countIndexedItems());
}

export async function itemViews(store: WorkspaceStore): Promise<ItemView[]> {
  const items = await store.listItems();
  const paths = new Map(items.map((item) => [item.id, item.path]));
  return Promise.all(items.map((item) => withParseNotice(store, itemView(item, (id) => paths.get(id) ?? null))));
}

