// How `relata search` prints a search response as text. Apart from the command so the `relata`
// launcher can print an answer from a running language server (cli/searchByServer.ts) exactly as
// the command prints its own, without loading the command line.
//
// The text keeps to what helps a reader choose: results far below the best (relevance under
// WEAK_RELEVANCE) are counted in one line unless --all, and the date a result was indexed is said
// only when it is a week old or more, when the result may no longer be what the file says. --json
// holds every result and every reason.

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

/** Relevance (the best result is 1.00) below which a result is counted, not listed, unless --all. */
export const WEAK_RELEVANCE = 0.2;

/** An index date younger than this says nothing a reader needs. */
export const STALE_AFTER_DAYS = 7;

/** The recency reason as ranking/explain.ts words it: "This version was indexed today." / "… 12 days ago." */
const INDEXED = /^This version was indexed (?:today|1 day ago|(\d+) days ago)\.$/;

/** Whether a result's reason is worth a line: every reason but an index date under a week old. */
export function worthSaying(reason: string): boolean {
  const indexed = INDEXED.exec(reason);
  return !indexed || Number(indexed[1] ?? 0) >= STALE_AFTER_DAYS;
}

export interface SearchTextOptions {
  /** List every result, the weak ones too. */
  all?: boolean;
}

export function renderSearch(response: SearchResponse, options: SearchTextOptions = {}): string {
  const lines = [
    `${response.results.length} result${response.results.length === 1 ? '' : 's'} for "${terminalLine(response.query)}" (${response.rank_version})`,
    'Relevance is relative to this result set (the best result is 1.00), not comparable across queries.',
    'Similarity is the cosine between the query and the closest passage; it is reported apart and is not part of relevance.',
  ];
  for (const unavailable of response.unavailable_paths) lines.push(`Unavailable: ${unavailable.path}: ${terminalLine(unavailable.reason)}.`);
  const also = alsoSearchedText(response.also_searched);
  if (also) lines.push(`${also[0]!.toUpperCase()}${terminalLine(also.slice(1))}.`);
  if (response.weak_match) lines.push(WEAK_MATCH_NOTICE);
  const listed = options.all ? response.results : response.results.filter((result) => result.query_relevance >= WEAK_RELEVANCE);
  listed.forEach((result, index) => {
    const similarity = result.semantic_similarity === null ? 'no vectors yet' : result.semantic_similarity.toFixed(2);
    lines.push(
      '',
      `${index + 1}. ${terminalLine(result.title ?? result.path)}`,
      `   ${terminalLine(result.path)}${result.passage ? `, ${terminalLine(describeLocation(result.passage.location, result.path))}` : ''}`,
      ...(result.also ? [`   ${terminalLine(describeAlso(result.also))}`] : []),
      `   relevance ${result.query_relevance.toFixed(2)} (relative to this result set) · similarity ${similarity}`,
      ...result.why_matched.filter(worthSaying).map((reason) => `   - ${terminalLine(reason)}`),
    );
    if (result.passage) lines.push(`   > ${excerpt(result.passage.text)}`);
    if (result.passage?.read_by_ocr) lines.push(`     ${result.passage.read_by_ocr}`);
  });
  const weak = response.results.length - listed.length;
  if (weak > 0) lines.push('', `${weak} more weak match${weak === 1 ? '' : 'es'} (relevance < ${WEAK_RELEVANCE.toFixed(2)}; --all to list)`);
  if (response.results.length === 0) lines.push('', 'No item matched.');
  return lines.join('\n');
}

/** The whole of what `relata search` prints on stdout for a response. */
export function searchOutput(response: SearchResponse, json: boolean, options: SearchTextOptions = {}): string {
  return json ? JSON.stringify(response, null, 2) : renderSearch(response, options);
}
