// The MongoDB store's parts, one per domain, made once the database is connected
// (MongoQdrantStore.makeParts). Apart from the store so that export and import (exchange.ts), which
// the store calls, work on the same parts without importing the store.

import type { MongoAliases } from './aliases.ts';
import type { Chunks } from './chunks.ts';
import type { ChunkDocument, ItemDocument, ItemLexicalDocument, MetaDocument } from './collections.ts';
import type { DiscoveryLookups } from './discoveryLookups.ts';
import type { Extraction } from './extraction.ts';
import type { ItemMetadata } from './itemMetadata.ts';
import type { Items } from './items.ts';
import type { MongoJobQueue } from './jobQueue.ts';
import type { ParsedTexts } from './parsedTexts.ts';
import type { MongoRelationships } from './relationships.ts';
import type { ScopedCollection, ScopedDb } from './scope.ts';

export interface MongoStoreParts {
  db: ScopedDb;
  items: Items;
  itemDocuments: ScopedCollection<ItemDocument>;
  texts: ParsedTexts;
  chunks: Chunks;
  chunkDocuments: ScopedCollection<ChunkDocument>;
  lexical: ScopedCollection<ItemLexicalDocument>;
  extraction: Extraction;
  metadata: ItemMetadata;
  discovery: DiscoveryLookups;
  meta: ScopedCollection<MetaDocument>;
  jobs: MongoJobQueue;
  relationships: MongoRelationships;
  aliases: MongoAliases;
}
