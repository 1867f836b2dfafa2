// How one search response becomes quick-pick rows: the title, relevance labelled as relative to
// this result set, similarity as its own number, and the reasons it matched. An expanded result
// leads with its "Not a direct match…" label; a result standing for copies of itself names them
// first ("also: …"). Pure, so tested without VS Code.

import { describeAlso } from '../../shared/alsoText.ts';
import type { FolderSearch } from '../../shared/protocol.ts';
import type { SearchResultView } from '../../shared/types.ts';
import { describeLocation } from './locations.ts';

export interface SearchRow {
  kind: 'result';
  label: string;
  description: string;
  detail: string;
  folder: string;
  result: SearchResultView;
}

export interface SearchSeparator {
  kind: 'separator';
  label: string;
}

export interface SearchNotice {
  kind: 'notice';
  label: string;
  detail: string;
}

export type SearchListEntry = SearchRow | SearchSeparator | SearchNotice;

const figure = (value: number) => value.toFixed(2);

export function describeResult(result: SearchResultView): { description: string; detail: string } {
  const similarity = result.semantic_similarity === null ? 'similarity n/a' : `similarity ${figure(result.semantic_similarity)}`;
  const where = result.passage ? ` · ${describeLocation(result.passage.location)}` : '';
  const reasons = [...result.why_matched];
  if (result.expanded_via && !reasons.some((reason) => reason.startsWith('Not a direct match'))) {
    const via = result.expanded_via;
    const review = via.status === 'confirmed' ? 'confirmed' : 'suggested by analysis, not yet reviewed';
    reasons.unshift(`Not a direct match. Reached because this item ${via.type.replace(/_/g, ' ')} a matching item — strength ${figure(via.score)} (${review}).`);
  }
  if (result.also && result.also.length > 0) reasons.unshift(describeAlso(result.also));
  return {
    description: `relevance ${figure(result.query_relevance)} (relative to these results) · ${similarity}${where}`,
    detail: reasons.join(' · '),
  };
}

export function searchEntries(folders: readonly FolderSearch[]): SearchListEntry[] {
  const entries: SearchListEntry[] = [];
  const several = folders.length > 1;
  for (const folder of folders) {
    if (several) entries.push({ kind: 'separator', label: folder.name });
    if (folder.error !== undefined) {
      entries.push({ kind: 'notice', label: `$(warning) ${folder.name}: search failed`, detail: folder.error });
      continue;
    }
    for (const unavailable of folder.response.unavailable_paths) {
      entries.push({ kind: 'notice', label: `$(info) ${unavailable.path.replace(/_/g, ' ')} search unavailable`, detail: unavailable.reason });
    }
    for (const result of folder.response.results) {
      entries.push({ kind: 'result', label: result.title ?? result.path, ...describeResult(result), folder: folder.folder, result });
    }
  }
  if (!entries.some((entry) => entry.kind === 'result')) {
    entries.push({ kind: 'notice', label: 'No matching items', detail: 'Try other words; lexical search matches words, semantic search meaning.' });
  }
  return entries;
}
