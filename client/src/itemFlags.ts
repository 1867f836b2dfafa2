// What each flag on an item means, in words a person reads in the file status list and the
// item's views: "read by OCR from page images" rather than `read_by_ocr`. A Record over every
// flag, so a flag added to the engine without words here is a compile error.

import { brokenLinksWords } from '../../shared/linkText.ts';
import type { ItemFlag, ItemView } from '../../shared/types.ts';
import { isUnread, UNREAD_WORDS } from '../../shared/unreadFiles.ts';

export const FLAG_WORDS: Record<ItemFlag, string> = {
  little_text: 'little or no text could be read (a scan OCR could barely read, or an empty document)',
  encrypted_no_password: 'encrypted, but opens without a password',
  hidden_text: 'hidden text left out (text a reader cannot see)',
  hidden_instructions: 'hidden text addressed to an AI assistant: Ask warns when this file is a source',
  truncated: 'only partly read (e.g. the first pages of a very long PDF, the first 200,000 cells of a spreadsheet)',
  extraction_capped: 'more facts than are kept: a representative set is stored',
  read_by_ocr: 'read by OCR from page images: words may be misread; words it was unsure of were left out',
  metadata_left_out: 'some of its front matter or document properties not read (too large, nested or too many values)',
};

/** The flags in words, joined for one line; empty when there are none. */
export function explainFlags(flags: readonly ItemFlag[]): string {
  return flags.map((flag) => FLAG_WORDS[flag] ?? flag).join('; ');
}

/** A file's row in the status list: its status and flags (description), and why, or what it copies (detail). */
export function fileStatusWords(file: Pick<ItemView, 'status' | 'flags' | 'reason' | 'duplicateOf' | 'brokenLinks'>): { description: string; detail: string | undefined } {
  const unread = isUnread(file);
  // The flag that makes the file unread is its description already; the rest of its flags stay.
  const flags = explainFlags(unread ? file.flags.filter((flag) => flag !== 'little_text') : file.flags);
  const reason = file.reason ?? (file.duplicateOf ? `identical to ${file.duplicateOf}, its original` : unread ? UNREAD_REASON : undefined);
  return {
    description: unread ? `${UNREAD_WORDS} (taken in, but not searchable)` : file.status,
    detail: [reason, flags, brokenLinksWords(file.brokenLinks ?? 0)].filter(Boolean).join(' · ') || undefined,
  };
}

const UNREAD_REASON = 'little or no text could be read: a scan of which OCR (or its text layer) gave almost nothing, or an empty document; search and relationships cannot use it';

/** Failed, skipped and unread files are warnings: choosing one says its whole reason, which a list row may cut. */
export function needsExplaining(file: Pick<ItemView, 'status' | 'flags'>): boolean {
  return file.status === 'failed' || file.status === 'skipped' || isUnread(file);
}
