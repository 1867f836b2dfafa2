// The parsed text of one file as the store keeps it: its passages in order with their locations,
// for the editor's read-only view of a file it cannot show as text (shared/parsedTextView.ts
// lays it out). A byte-identical copy shows its original's text, as `relata item` does; a
// deleted file shows nothing.

import { PARSED_VIEW_MAX_CHARS, type ParsedTextView } from '../../../shared/parsedTextView.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { viewedItem } from './itemViews.ts';

/** The item at a folder-relative path and its passages; null when the path is no live item of the store. */
export async function parsedTextOf(store: WorkspaceStore, relativePath: string, maxChars = PARSED_VIEW_MAX_CHARS): Promise<ParsedTextView | null> {
  const asked = await store.getItemByPath(relativePath);
  if (!asked || asked.deletedAt) return null;
  const { item, identicalCopy } = await viewedItem(store, asked);
  const chunks = item.status === 'indexed' ? await store.listChunks(item.id) : [];
  const passages: ParsedTextView['passages'] = [];
  let chars = 0;
  for (const chunk of chunks) {
    if (chars + chunk.text.length > maxChars && passages.length > 0) break;
    chars += chunk.text.length;
    passages.push({ location: chunk.location, headingPath: chunk.headingPath, text: chunk.text });
  }
  // The whole parsed document is read only when it holds something the view names.
  const parsed = item.flags.includes('hidden_text') || item.flags.includes('truncated') ? await store.getParsedText(item.id) : null;
  return {
    path: asked.path,
    ...(identicalCopy ? { originalPath: item.path } : {}),
    title: item.title,
    status: item.status,
    reason: item.reason,
    parserVersion: item.parserVersion,
    updatedAt: item.updatedAt,
    passages,
    passagesLeftOut: chunks.length - passages.length,
    hiddenCount: parsed?.document.hidden?.length ?? 0,
    truncated: parsed?.document.truncated ?? null,
  };
}
