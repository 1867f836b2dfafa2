// Parse results on MongoDB. A parsed document can be far larger than MongoDB's 16 MiB document
// limit (a 50 MB text file), so it is kept as texts cut into parts (documents.ts,
// parsedTextStreams): its blocks, the rest of it, its heading texts and its item-level lexical
// text. One header per item names the write whose parts are current.
//
// A write stores all its parts under a fresh write id first and switches the header to it last,
// so a reader sees the old parse or the new one whole, never a mixture. It then removes the parts
// of the write its switch replaced, and only those: two writes of one item at once (a lease that
// ran out mid-parse) must not remove each other's parts, or the header would name parts that are
// gone. A crash before the switch leaves parts no header names, never read, removed when the item
// is forgotten.

import { randomUUID } from 'node:crypto';
import type { ParsedText } from '../contract.ts';
import type { DocumentLink, MetadataEntry } from '../../records/document.ts';
import type { StoredParsedDocument } from '../exchange/records.ts';
import type { ParsedTextDocument, ParsedTextPartDocument, ParsedTextStream } from './collections.ts';
import { loadParsedDocument, parsedTextStreams, splitText } from './documents.ts';
import type { ScopedCollection } from './scope.ts';

const STREAMS: readonly ParsedTextStream[] = ['blocks', 'rest', 'headings', 'indexText'];

export class ParsedTexts {
  constructor(
    private readonly headers: ScopedCollection<ParsedTextDocument>,
    private readonly parts: ScopedCollection<ParsedTextPartDocument>,
  ) {}

  /**
   * Store the item's parse (replacing any earlier one). `keepText`: the document's own `text` is
   * stored as given (a document imported from a store that kept it), not joined from the blocks.
   */
  async write(itemId: string, parsed: ParsedText, keepText = false): Promise<string> {
    const writeId = randomUUID();
    const streams = parsedTextStreams(parsed.document, keepText);
    const counts = {} as Record<ParsedTextStream, number>;
    for (const stream of STREAMS) {
      const pieces = splitText(streams[stream]);
      counts[stream] = pieces.length;
      // One insert per part: a batch of parts could pass the 48 MB message limit of one request.
      for (const [n, text] of pieces.entries()) await this.parts.insertOne(this.parts.document({ itemId, writeId, stream, n, text }));
    }
    const replaced = await this.headers.findOneAndUpdate(
      this.headers.filter({ itemId }),
      { $set: { contentHash: parsed.contentHash, parserVersion: parsed.parserVersion, writeId, parts: counts } },
      { upsert: true, returnDocument: 'before', projection: { writeId: 1 } },
    );
    if (replaced && replaced.writeId !== writeId) await this.parts.deleteMany(this.parts.filter({ itemId, writeId: replaced.writeId }));
    return writeId;
  }

  /** Whether the item's header still names this write (no later write replaced it). */
  async isCurrent(itemId: string, writeId: string): Promise<boolean> {
    return (await this.headers.findOne(this.headers.filter({ itemId, writeId }), { projection: { _id: 1 } })) !== null;
  }

  private async header(itemId: string): Promise<ParsedTextDocument | null> {
    return this.headers.findOne(this.headers.filter({ itemId }));
  }

  /** One stream of the header's write, joined; null when a part is missing (removed by a newer write while this was read). */
  private async stream(header: ParsedTextDocument, stream: ParsedTextStream): Promise<string | null> {
    const pieces = await this.parts
      .find(this.parts.filter({ itemId: header.itemId, writeId: header.writeId, stream }), { projection: { n: 1, text: 1 } })
      .sort({ n: 1 })
      .toArray();
    if (pieces.length !== header.parts[stream] || pieces.some((piece, n) => piece.n !== n)) return null;
    return pieces.map((piece) => piece.text).join('');
  }

  /** Reads the header and the streams it names; once more if a newer write replaced the parts meanwhile. */
  private async read<T>(itemId: string, streams: readonly ParsedTextStream[], build: (header: ParsedTextDocument, texts: string[]) => T): Promise<T | null> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const header = await this.header(itemId);
      if (!header) return null;
      const texts: string[] = [];
      for (const stream of streams) {
        const text = await this.stream(header, stream);
        if (text === null) break;
        texts.push(text);
      }
      if (texts.length === streams.length) return build(header, texts);
    }
    throw new Error(`the parsed text of item ${itemId} kept changing while it was read, or a part of it is missing from ${this.parts.name}`);
  }

  async get(itemId: string): Promise<ParsedText | null> {
    return this.read(itemId, ['blocks', 'rest'], (header, [blocks, rest]) => ({
      contentHash: header.contentHash,
      parserVersion: header.parserVersion,
      document: loadParsedDocument(blocks!, rest!),
    }));
  }

  /** The document as stored, for an export: without a `text` unless it was stored with one of its own. */
  async getStored(itemId: string): Promise<{ contentHash: string; parserVersion: string; document: StoredParsedDocument } | null> {
    return this.read(itemId, ['blocks', 'rest'], (header, [blocks, rest]) => ({
      contentHash: header.contentHash,
      parserVersion: header.parserVersion,
      document: { ...(JSON.parse(rest!) as Omit<StoredParsedDocument, 'blocks'>), blocks: JSON.parse(blocks!) as StoredParsedDocument['blocks'] },
    }));
  }

  async storedBlocks(itemId: string): Promise<{ contentHash: string; blocksJson: string } | null> {
    return this.read(itemId, ['blocks'], (header, [blocks]) => ({ contentHash: header.contentHash, blocksJson: blocks! }));
  }

  async headings(itemId: string): Promise<string[]> {
    return (await this.read(itemId, ['headings'], (_header, [headings]) => JSON.parse(headings!) as string[])) ?? [];
  }

  /** The metadata entries of its stored parse (the document's `metadata`, in its `rest`); empty when it has none. */
  async metadata(itemId: string): Promise<MetadataEntry[]> {
    const entries = await this.read(itemId, ['rest'], (_header, [rest]) => (JSON.parse(rest!) as { metadata?: { entries?: unknown } }).metadata?.entries);
    return Array.isArray(entries) ? entries.filter(isEntry) : [];
  }

  /** The links of its stored parse (the document's `links`, in its `rest`); empty when it has none. */
  async links(itemId: string): Promise<DocumentLink[]> {
    const links = await this.read(itemId, ['rest'], (_header, [rest]) => (JSON.parse(rest!) as { links?: unknown }).links);
    return Array.isArray(links) ? (links as DocumentLink[]) : [];
  }

  /** The item-level lexical text of its stored parse (the first ITEM_INDEX_MAX_CHARS of its text); empty when it has none. */
  async indexText(itemId: string): Promise<string> {
    return (await this.read(itemId, ['indexText'], (_header, [text]) => text!)) ?? '';
  }

  async remove(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    const ids = { $in: [...itemIds] };
    // Header first: parts no header names are never read.
    await this.headers.deleteMany(this.headers.filter({ itemId: ids }));
    await this.parts.deleteMany(this.parts.filter({ itemId: ids }));
  }
}

/** An entry as the parser writes it; a document imported from a hand-edited export may hold anything. */
function isEntry(entry: unknown): entry is MetadataEntry {
  if (typeof entry !== 'object' || entry === null) return false;
  const { key, value, label, text } = entry as Record<string, unknown>;
  return typeof key === 'string' && typeof value === 'string' && typeof label === 'string' && typeof text === 'string';
}
