// A folder indexed once for a whole test file (or describe block) by the real pipeline, into a
// fresh store under a temporary root, with the default model's query embedder when the tests
// search by meaning: the before/after the search and language tests repeated, so each file states
// only its folder and what it asserts. Call it where `before` may be called.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { createEmbedder, type EmbeddingChoice } from '../../server/src/embed/choice.ts';
import type { Embedder } from '../../server/src/embed/types.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';

export interface IndexedFolderOptions {
  workspace: string;
  /** The folder to index: a path, or a function writing it under the temporary root (removed with it). */
  folder: string | ((root: string) => string);
  embedding: EmbeddingChoice;
  /** Opens the default model in one thread for the tests' queries (closed after them). */
  queryEmbedder?: boolean;
  /** The time limit for indexing; none by default (a describe block's own limit applies). */
  timeoutMs?: number;
}

/** Filled in by `before`: read its fields inside the tests, not when the file loads. */
export interface IndexedFolder {
  folder: string;
  dataDir: string;
  index: FolderIndex;
  embedder: Embedder;
}

export function indexedFolder(options: IndexedFolderOptions): IndexedFolder {
  const fixture = {} as IndexedFolder;
  let root = '';
  before(
    async () => {
      root = mkdtempSync(path.join(tmpdir(), `relata-${options.workspace}-`));
      fixture.folder = typeof options.folder === 'string' ? options.folder : options.folder(root);
      fixture.dataDir = path.join(root, 'data');
      fixture.index = await FolderIndex.open({ folder: fixture.folder, dataDir: fixture.dataDir, workspace: options.workspace, embedding: options.embedding });
      await fixture.index.index();
      if (options.queryEmbedder) fixture.embedder = (await createEmbedder({ kind: 'use-lite', threads: 1 }))!;
    },
    options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs },
  );
  after(async () => {
    await fixture.embedder?.close();
    await fixture.index?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  return fixture;
}
