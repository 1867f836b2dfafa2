// How `relata search` prints a search response as text. Apart from the command so the `relata`
// launcher can print an answer from a running language server (cli/searchByServer.ts) exactly as
// the command prints its own, without loading the command line.

import { describeAlso } from '../../../shared/alsoText.ts';
import { describeLocation } from '../../../shared/locationWords.ts';
import { WEAK_MATCH_NOTICE } from '../../../shared/searchText.ts';
import { alsoSearchedText } from '../../../shared/spellingText.ts';
import type { SearchResponse } from '../../../shared/types.ts';
import { terminalLine } from './terminalText.ts';

function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export function renderSearch(response: SearchResponse): string {
  const lines = [
    `${response.results.length} result${response.results.length === 1 ? '' : 's'} for "${terminalLine(response.query)}" (${response.rank_version})`,
    'Relevance is relative to this result set (the best result is 1.00), not comparable across queries.',
    'Similarity is the cosine between the query and the closest passage; it is reported apart and is not part of relevance.',
  ];
  for (const unavailable of response.unavailable_paths) lines.push(`Unavailable: ${unavailable.path}: ${terminalLine(unavailable.reason)}.`);
  const also = alsoSearchedText(response.also_searched);
  if (also) lines.push(`${also[0]!.toUpperCase()}${terminalLine(also.slice(1))}.`);
  if (response.weak_match) lines.push(WEAK_MATCH_NOTICE);
  response.results.forEach((result, index) => {
    const similarity = result.semantic_similarity === null ? 'no vectors yet' : result.semantic_similarity.toFixed(2);
    lines.push(
      '',
      `${index + 1}. ${terminalLine(result.title ?? result.path)}`,
      `   ${terminalLine(result.path)}${result.passage ? `, ${describeLocation(result.passage.location, result.path)}` : ''}`,
      ...(result.also ? [`   ${terminalLine(describeAlso(result.also))}`] : []),
      `   relevance ${result.query_relevance.toFixed(2)} (relative to this result set) · similarity ${similarity}`,
      ...result.why_matched.map((reason) => `   - ${terminalLine(reason)}`),
    );
    if (result.passage) lines.push(`   > ${excerpt(result.passage.text)}`);
    if (result.passage?.read_by_ocr) lines.push(`     ${result.passage.read_by_ocr}`);
  });
  if (response.results.length === 0) lines.push('', 'No item matched.');
  return lines.join('\n');
}

/** The whole of what `relata search` prints on stdout for a response. */
export function searchOutput(response: SearchResponse, json: boolean): string {
  return json ? JSON.stringify(response, null, 2) : renderSearch(response);
}
