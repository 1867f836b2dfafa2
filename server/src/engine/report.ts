// The summary of an index run, in the shape `relata index --json` prints: one entry per file
// found in the folder, with its status and, for anything not indexed, the reason. A subfolder that
// could not be listed gets an entry of its own (its path ends in '/'), failed with the reason; an
// entry the scan would not index (a name that is not valid UTF-8) one of its own, skipped.

import type { ItemFlag } from '../../../shared/types.ts';
import type { ItemRecord, WorkspaceStore } from '../store/contract.ts';
import type { FolderScan } from '../workspace/scan.ts';
import { parseNotice } from './itemViews.ts';

/** `gone`: the file was listed by the scan but removed from the folder before the run could read it. */
export type FileStatus = 'indexed' | 'failed' | 'skipped' | 'duplicate' | 'pending' | 'gone';

export const GONE_DURING_RUN = 'removed from the folder during the run, before it could be read';

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
  /** Files by status; a file that is gone is in `files` only, since it is not in the index. */
  items: { indexed: number; failed: number; skipped: number; duplicates: number };
  chunks: number;
  files: FileReport[];
  elapsed_ms: number;
}

export async function buildIndexReport(
  store: WorkspaceStore,
  scan: FolderScan,
  elapsedMs: number,
  isOnDisk: (path: string) => boolean,
): Promise<IndexReport> {
  const items = await store.listItems();
  const byPath = new Map(items.map((item) => [item.path, item]));
  const byId = new Map(items.map((item) => [item.id, item]));
  const notices = await parseNotices(store, items);
  const unlisted = (filePath: string, status: FileStatus, reason: string): FileReport => ({
    path: filePath, status, reason, duplicate_of: null, parser_version: null, flags: [],
  });
  const files: FileReport[] = scan.files.map((filePath) => {
    const item = byPath.get(filePath);
    if (!item || item.status === 'deleted') {
      return isOnDisk(filePath) ? unlisted(filePath, 'pending', 'not processed yet') : unlisted(filePath, 'gone', GONE_DURING_RUN);
    }
    const status: FileStatus = item.status;
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
  for (const folder of scan.unreadable) files.push(unlisted(folder.path, 'failed', folder.reason));
  for (const entry of scan.skipped) files.push(unlisted(entry.path, 'skipped', entry.reason));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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
