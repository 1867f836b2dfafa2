// A file Relata took in but could read (almost) nothing of, a scan of which OCR or its text layer
// gave almost nothing or an empty document, is not a success: the status bar and File Status count it
// apart from the indexed files and mark it as a warning, so a green "indexed" never stands for a
// file nothing was read from. One rule for the server's counts and the client's rows.

import type { ItemFlag, ItemStatus } from './types.ts';

/** Indexed, but with (almost) no text read. */
export function isUnread(item: { status: ItemStatus; flags: readonly ItemFlag[] }): boolean {
  return item.status === 'indexed' && item.flags.includes('little_text');
}

/** How File Status and the status bar name such a file's state. */
export const UNREAD_WORDS = 'no text read';
