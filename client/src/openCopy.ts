// Which path a search result opens. A copy's passages are served from its original, so a result
// names the original's path; when the file the person has open is one of that original's
// identical copies, the result opens the copy they are working in rather than another file.

import type { ItemResult } from '../../shared/protocol.ts';

export function pathToOpen(folder: string, itemId: string, resultPath: string, openFile: ItemResult | null): string {
  const copy = openFile?.item.identicalCopy;
  return copy && openFile.folder === folder && openFile.item.id === itemId ? copy : resultPath;
}
