// Parse: the item's stored bytes become extracted text plus a structure map, in a stage thread. A
// file the parser rejects (malformed, encrypted, truncated), or that exceeds the thread's memory or
// time limit, fails with the reason and costs no other file anything; any other error is left to
// the queue's retry and attempt cap.

import path from 'node:path';
import { parserFor } from '../../parse/registry.ts';
import { ParseError } from '../../parse/types.ts';
import type { StageContext } from './context.ts';
import { itemTitle } from './itemTitle.ts';

export async function parse(context: StageContext, itemId: string): Promise<void> {
  const { store, blobs, threads } = context;
  const item = await store.getItem(itemId);
  if (!item || item.deletedAt || item.status === 'duplicate' || item.status === 'skipped' || !item.contentHash) return;
  const parser = parserFor(item.path);
  if (!parser) return;

  const bytes = await blobs.get(item.contentHash);
  try {
    const document = await threads.parse(bytes, path.basename(item.path));
    await store.recordParse(item.id, { contentHash: item.contentHash, parserVersion: parser.version, document }, itemTitle(document.title, item.path));
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    await store.markFailed(item.id, error.message, parser.version);
  }
}

/** Fail the item with the reason, recorded against its parser's version so unchanged bytes are not parsed again. */
export async function markParseFailed(context: StageContext, itemId: string, reason: string): Promise<void> {
  const item = await context.store.getItem(itemId);
  const parser = item && parserFor(item.path);
  if (item && parser) await context.store.markFailed(item.id, reason, parser.version);
}
