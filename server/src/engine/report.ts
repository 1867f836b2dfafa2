// The summary of an index run, in the shape `relata index --json` prints: one entry per file
// found in the folder, with its status and, for anything not indexed, the reason.

import type { ItemFlag } from '../../../shared/types.ts';
import type { ItemRecord, WorkspaceStore } from '../store/contract.ts';
import { parseNotice } from './itemViews.ts';

export type FileStatus = 'indexed' | 'failed' | 'skipped' | 'duplicate' | 'pending';

export interface FileReport {
  path: string;
  status: FileStatus;
  reason: string | null;
  duplicate_of: string | null;
  parser_version: string | null;
  flags: ItemFlag[];
}

export interface IndexReport {
  workspace: string;
  items: { indexed: number; failed: number; skipped: number; duplicates: number };
  chunks: number;
  files: FileReport[];
  elapsed_ms: number;
}

export async function buildIndexReport(
  store: WorkspaceStore,
  scannedPaths: readonly string[],
  elapsedMs: number,
): Promise<IndexReport> {
  const items = await store.listItems();
  const byPath = new Map(items.map((item) => [item.path, item]));
  const byId = new Map(items.map((item) => [item.id, item]));
  const notices = await parseNotices(store, items);
  const files: FileReport[] = scannedPaths.map((filePath) => {
    const item = byPath.get(filePath);
    if (!item) {
      return { path: filePath, status: 'pending', reason: 'not processed yet', duplicate_of: null, parser_version: null, flags: [] };
    }
    const status: FileStatus = item.status === 'deleted' ? 'pending' : item.status;
    const original = item.duplicateOf ? byId.get(item.duplicateOf) : undefined;
    return {
      path: filePath,
      status,
      reason:
        status === 'duplicate' && original
          ? `byte-identical to ${original.path}; reported, not stored twice`
          : (item.reason ?? notices.get(item.id) ?? null),
      duplicate_of: original?.path ?? null,
      parser_version: item.parserVersion,
      flags: item.flags,
    };
  });
  const count = (status: FileStatus) => files.filter((file) => file.status === status).length;
  return {
    workspace: store.workspace,
    items: { indexed: count('indexed'), failed: count('failed'), skipped: count('skipped'), duplicates: count('duplicate') },
    chunks: await store.countChunks(),
    files,
    elapsed_ms: Math.round(elapsedMs),
  };
}

/** What the parse of each flagged item left out (hidden text, pages past the cap), so the run says so. */
async function parseNotices(store: WorkspaceStore, items: readonly ItemRecord[]): Promise<Map<string, string>> {
  const notices = new Map<string, string>();
  for (const item of items) {
    if (item.deletedAt || !item.flags.some((flag) => flag === 'hidden_text' || flag === 'truncated')) continue;
    const parsed = await store.getParsedText(item.id);
    const notice = parsed ? parseNotice(parsed.document) : null;
    if (notice) notices.set(item.id, notice);
  }
  return notices;
}
