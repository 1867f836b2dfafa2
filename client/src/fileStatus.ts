// Relata: Show File Status: every file of the open folders with its status, failures and skips
// first with their reasons, flags explained in words; choosing one opens it.

import * as vscode from 'vscode';
import { FileStatusRequest } from '../../shared/protocol.ts';
import type { ItemStatus, ItemView } from '../../shared/types.ts';
import { isUnread } from '../../shared/unreadFiles.ts';
import { fileStatusWords, needsExplaining } from './itemFlags.ts';
import { openAt } from './openLocation.ts';
import type { ServerConnection } from './serverConnection.ts';

// Files nothing was read from come right after the failures: they are warnings, not successes.
const ORDER: (ItemStatus | 'unread')[] = ['failed', 'unread', 'skipped', 'pending', 'duplicate', 'indexed', 'deleted'];
const rank = (file: ItemView) => ORDER.indexOf(isUnread(file) ? 'unread' : file.status);
const ICON: Record<ItemStatus, string> = {
  failed: '$(error)',
  skipped: '$(circle-slash)',
  pending: '$(sync)',
  duplicate: '$(files)',
  indexed: '$(check)',
  deleted: '$(trash)',
};

export async function showFileStatus(server: ServerConnection): Promise<void> {
  const { folders } = await server.request(FileStatusRequest.type, {});
  type Pick = vscode.QuickPickItem & { folder?: string; path?: string; explain?: string };
  const items: Pick[] = [];
  for (const folder of folders) {
    if (folders.length > 1) items.push({ label: folder.name, kind: vscode.QuickPickItemKind.Separator });
    const files = [...folder.files].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
    for (const file of files) {
      const words = fileStatusWords(file);
      items.push({
        label: `${isUnread(file) ? '$(warning)' : ICON[file.status]} ${file.path}`,
        ...words,
        folder: folder.folder,
        path: file.path,
        explain: needsExplaining(file) ? words.detail : undefined,
      });
    }
  }
  const chosen = await vscode.window.showQuickPick(items, { title: 'Relata: File Status (choose a warning to read its whole reason)', matchOnDescription: true, matchOnDetail: true });
  if (!chosen?.folder || !chosen.path) return;
  if (chosen.explain) {
    // A list row cuts a long reason at the edge; the message has it whole, with the file's name.
    const open = await vscode.window.showWarningMessage(`Relata: ${chosen.path}: ${chosen.explain}`, 'Open File');
    if (open !== 'Open File') return;
  }
  await openAt(chosen.folder, chosen.path);
}
