// The title an item is listed under: its parser's (already cut to a label, parse/document.ts), else
// its file name.

import path from 'node:path';

export function itemTitle(parsed: string | null | undefined, itemPath: string): string {
  return parsed?.trim() || path.basename(itemPath, path.extname(itemPath));
}
