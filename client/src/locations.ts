// Words and editor positions for a passage's location (lines, pages, or paragraphs of a DOCX).

import type { Location } from '../../shared/types.ts';

export { describeLocation } from '../../shared/locationWords.ts';

/** 0-based line range to select when a file opens at this passage; null when the format has no lines. */
export function lineSelection(location: Location | null | undefined): { startLine: number; endLine: number } | null {
  if (!location || location.kind !== 'lines') return null;
  return { startLine: location.start - 1, endLine: location.end - 1 };
}
