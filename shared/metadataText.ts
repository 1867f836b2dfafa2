// An item's metadata in one line, the same in `relata item` and the hover: the values discovery
// compares first, then those it only shows (author, dates, a description).

import type { MetadataView } from './types.ts';

/** "project: GC-2; tags: cranes, safety · also given, not used to relate files: author: Tom Wieczorek"; empty when there is none. */
export function describeMetadata(metadata: readonly MetadataView[]): string {
  const compared = joinByLabel(metadata.filter((entry) => entry.compared));
  const shown = joinByLabel(metadata.filter((entry) => !entry.compared));
  return [compared, shown && `${compared ? 'also given, ' : ''}not used to relate files: ${shown}`].filter(Boolean).join(' · ');
}

/** Values under one label joined: "tags: cranes, safety". */
function joinByLabel(metadata: readonly MetadataView[]): string {
  const byLabel = new Map<string, string[]>();
  for (const entry of metadata) byLabel.set(entry.label, [...(byLabel.get(entry.label) ?? []), entry.text]);
  return [...byLabel].map(([label, texts]) => `${label}: ${texts.join(', ')}`).join('; ');
}
