// Relata: Show File Status: every file of the open folders with its status, failures and skips
// first with their reasons, flags explained in words; choosing one opens it.

import * as vscode from 'vscode';
import { FileStatusRequest } from '../../shared/protocol.ts';
import type { ItemStatus } from '../../shared/types.ts';
import { fileStatusWords } from './itemFlags.ts';
import { openAt } from './openLocation.ts';
import type { ServerConnection } from './serverConnection.ts';

const ORDER: ItemStatus[] = ['failed', 'skipped', 'pending', 'duplicate', 'indexed', 'deleted'];
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
  type Pick = vscode.QuickPickItem & { folder?: string; path?: string };
  const items: Pick[] = [];
  for (const folder of folders) {
    if (folders.length > 1) items.push({ label: folder.name, kind: vscode.QuickPickItemKind.Separator });
    const files = [...folder.files].sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || a.path.localeCompare(b.path));
    for (const file of files) {
      items.push({
        label: `${ICON[file.status]} ${file.path}`,
        ...fileStatusWords(file),
        folder: folder.folder,
        path: file.path,
      });
    }
  }
  const chosen = await vscode.window.showQuickPick(items, { title: 'Relata: File Status', matchOnDescription: true, matchOnDetail: true });
  if (chosen?.folder && chosen.path) await openAt(chosen.folder, chosen.path);
}
