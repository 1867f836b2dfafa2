// How one search response becomes quick-pick rows. A row's first line carries what decides: the
// title, then its relevance (relative to its folder's result set), the folder in multi-root, where
// the item is (path, place in the file) and similarity as its own number; its detail quotes the
// passage with the query's words marked, then names what matched (the words found, the entity,
// the figure). An expanded result leads its detail with "Not a direct match…"; a result standing
// for copies of itself names them first ("also: …"). In multi-root each folder is a group of its
// own under a header row naming it (the quick pick draws no separators once a query is typed),
// folders with a strong match first, and a folder whose results are weak says so in its own
// notice, named. When misspelt words were searched as the folder's closest words, the list opens
// with "also searched: «collision»", those words marked as the passages mark them (and marked in
// the passages too). Everything shown is plain text: a document's title or passage cannot become an
// icon. Pure, so tested without VS Code.

import { describeAlso } from '../../shared/alsoText.ts';
import type { FolderSearch } from '../../shared/protocol.ts';
import { namedWords, wordMatches } from '../../shared/queryWords.ts';
import { WEAK_MATCH_NOTICE } from '../../shared/searchText.ts';
import { alsoSearchedReason, alsoSearchedWords, searchedQuery } from '../../shared/spellingText.ts';
import type { SearchResultView, SpellingCorrection } from '../../shared/types.ts';
import { typeVerb } from '../../shared/wording.ts';
import { describeLocation } from './locations.ts';
import { shortenFront } from './shortText.ts';

export interface SearchRow {
  kind: 'result';
  label: string;
  description: string;
  detail: string;
  folder: string;
  folderName: string;
  /** The query as searched, so opening the result selects its words. */
  query: string;
  result: SearchResultView;
}

export interface SearchNotice {
  kind: 'notice';
  label: string;
  detail: string;
}

/** A folder's header in multi-root: a row, not a separator, since separators vanish while a query is typed. */
export interface SearchFolderHeader {
  kind: 'folder';
  label: string;
  description: string;
}

export type SearchListEntry = SearchRow | SearchNotice | SearchFolderHeader;

const figure = (value: number) => value.toFixed(2);

/**
 * A title longer than this is cut in the row, so relevance and the folder after it stay on screen
 * (a quick pick is about 75 characters wide); "why" in full names it whole.
 */
const TITLE_CHARS = 48;

/** Quick-pick text renders `$(name)` as an icon; text from a document is shown as written. */
export function plainText(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

/** Marks around the query's words in a quoted passage (the quick pick has no highlights for an extension to set). */
export const MARK_OPEN = '«';
export const MARK_CLOSE = '»';
const marked = (word: string) => `${MARK_OPEN}${word}${MARK_CLOSE}`;

/**
 * The words searched beside misspelt ones, marked as the passages mark them, so a person sees why
 * a result holds "collision" when "colision" was typed; the detail says which typed words they stand for.
 */
function alsoSearchedNotice(corrections: readonly SpellingCorrection[], folderName: string | null): SearchNotice | null {
  const words = alsoSearchedWords(corrections, marked);
  if (!words) return null;
  const reason = alsoSearchedReason(corrections);
  return {
    kind: 'notice',
    label: `$(lightbulb) ${plainText(`${folderName ? `${folderName}: ` : ''}${words}`)}`,
    detail: plainText(`${reason[0]!.toUpperCase()}${reason.slice(1)}${folderName ? ` in ${folderName}` : ''}; results holding either are listed.`),
  };
}

/** Characters of passage quoted in a row, around the query's words: about what a quick pick's detail line shows. */
const SNIPPET_CHARS = 110;
/** How much of the text before the first word quoted is kept, so the word is read in its sentence. */
const LEAD_CHARS = 30;

/** Matches weighed for where the snippet sits: a passage holds few query words, but a document may repeat one. */
const MATCHES_WEIGHED = 200;

/**
 * Where the quoted window starts: before the match whose window holds the most distinct query
 * words (the first such), so a row for "toxic contributors" shows "toxic" as well, not just the
 * first "contributors".
 */
function windowAround(matches: readonly { word: string; start: number; end: number }[]): number {
  let bestAt = matches[0]?.start ?? 0;
  let bestWords = 0;
  for (const anchor of matches.slice(0, MATCHES_WEIGHED)) {
    const from = anchor.start - LEAD_CHARS;
    const words = new Set(matches.filter((match) => match.start >= from && match.end <= from + SNIPPET_CHARS).map((match) => match.word)).size;
    if (words > bestWords) [bestAt, bestWords] = [anchor.start, words];
  }
  return bestAt;
}

/** The passage around the query words it holds (where most of them are together), the query's words marked, on one line. */
export function passageSnippet(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const matches = wordMatches(flat, namedWords(query));
  let start = Math.max(0, windowAround(matches) - LEAD_CHARS);
  if (start > 0) start = flat.indexOf(' ', start) + 1 || start;
  let end = Math.min(flat.length, start + SNIPPET_CHARS);
  if (end < flat.length) end = flat.lastIndexOf(' ', end) > start ? flat.lastIndexOf(' ', end) : end;
  let quoted = '';
  let at = start;
  for (const match of matches.filter((candidate) => candidate.start >= start && candidate.end <= end)) {
    quoted += `${flat.slice(at, match.start)}${MARK_OPEN}${flat.slice(match.start, match.end)}${MARK_CLOSE}`;
    at = match.end;
  }
  quoted += flat.slice(at, end);
  return plainText(`“${start > 0 ? '…' : ''}${quoted}${end < flat.length ? '…' : ''}”`);
}

const quotedWords = (words: readonly string[]) => words.map((word) => `"${word}"`).join(', ');

/** What stands before the passage: the copies the result stands for, and why an expanded result is here at all. */
function leadingReasons(result: SearchResultView): string[] {
  const reasons: string[] = [];
  if (result.also && result.also.length > 0) reasons.push(describeAlso(result.also));
  if (result.expanded_via) {
    const via = result.expanded_via;
    const review = via.status === 'confirmed' ? 'confirmed' : 'suggested by analysis, not yet reviewed';
    reasons.push(`Not a direct match. Reached because this item ${typeVerb(via.type)} a matching item — strength ${figure(via.score)} (${review}).`);
  }
  return reasons.map(plainText);
}

/** Short reasons that name what matched, in the order a person checks them. */
export function namedReasons(result: SearchResultView): string[] {
  const reasons: string[] = [];
  const matched = result.matched;
  if (matched && matched.words.length > 0) reasons.push(`contains ${quotedWords(matched.words)}`);
  if (matched && matched.names.length > 0) reasons.push(`names ${matched.names.join(', ')}`);
  if (matched && matched.figures.length > 0) reasons.push(`states ${matched.figures.join(', ')}`);
  if ((result.contributions.vector ?? 0) > 0 && result.semantic_similarity !== null) reasons.push('close in meaning');
  if (reasons.length === 0 && !result.expanded_via && !(result.also && result.also.length > 0) && result.why_matched.length > 0) reasons.push(...result.why_matched.slice(0, 1));
  return reasons.map(plainText);
}

/**
 * The first line after the title: relevance (and, in multi-root, the folder it is relative to),
 * then where the item is, then similarity; the detail: the passage first, then what matched.
 */
export function describeResult(result: SearchResultView, query: string, folderName: string | null): { description: string; detail: string } {
  const similarity = result.semantic_similarity === null ? 'similarity n/a' : `similarity ${figure(result.semantic_similarity)}`;
  const relevance = `relevance ${figure(result.query_relevance)}${folderName ? ` in ${folderName}` : ''}`;
  const where = [result.path, ...(result.passage ? [describeLocation(result.passage.location, result.path)] : [])];
  const snippet = result.passage ? [passageSnippet(result.passage.text, query)] : [];
  return {
    description: `${plainText([relevance, ...where].join(' · '))} · ${similarity}`,
    detail: [...leadingReasons(result), ...snippet, ...namedReasons(result)].join(' · '),
  };
}

const resultCount = (count: number) => `${count} result${count === 1 ? '' : 's'}`;

/** Folders with a strong match first (a weak folder's closest items are the least telling), failures last; otherwise as opened. */
function foldersInOrder(folders: readonly FolderSearch[]): FolderSearch[] {
  const rank = (folder: FolderSearch) => (folder.error !== undefined ? 2 : folder.response.weak_match || folder.response.results.length === 0 ? 1 : 0);
  return folders.map((folder, index) => ({ folder, index })).sort((a, b) => rank(a.folder) - rank(b.folder) || a.index - b.index).map(({ folder }) => folder);
}

export function searchEntries(folders: readonly FolderSearch[]): SearchListEntry[] {
  const entries: SearchListEntry[] = [];
  const several = folders.length > 1;
  for (const folder of several ? foldersInOrder(folders) : folders) {
    const name = plainText(folder.name);
    if (folder.error !== undefined) {
      entries.push({ kind: 'notice', label: `$(warning) ${name}: search failed`, detail: plainText(folder.error) });
      continue;
    }
    const { response } = folder;
    // The query as searched: the corrected words mark the passages and are selected when a result opens.
    const searched = searchedQuery(response.query, response.also_searched);
    if (several) {
      const state = response.weak_match ? ' · no strong match' : '';
      entries.push({ kind: 'folder', label: `$(root-folder) ${name}`, description: `${resultCount(response.results.length)}${state} · relevance relative to this folder's results` });
    }
    const also = alsoSearchedNotice(response.also_searched ?? [], several ? folder.name : null);
    if (also) entries.push(also);
    for (const unavailable of response.unavailable_paths) {
      entries.push({ kind: 'notice', label: `$(info) ${several ? `${name}: ` : ''}${unavailable.path.replace(/_/g, ' ')} search unavailable`, detail: plainText(unavailable.reason) });
    }
    if (response.weak_match) {
      entries.push({
        kind: 'notice',
        label: `$(info) ${several ? `${name}: ` : ''}${WEAK_MATCH_NOTICE}`,
        detail: `No result${several ? ` in ${name}` : ''} contains most of your words, names what you named or is close in meaning; relevance is still relative to these results.`,
      });
    }
    for (const result of response.results) {
      entries.push({
        kind: 'result',
        label: plainText(shortenFront(result.title ?? result.path, TITLE_CHARS)),
        ...describeResult(result, searched, several ? folder.name : null),
        folder: folder.folder,
        folderName: folder.name,
        query: searched,
        result,
      });
    }
  }
  if (!entries.some((entry) => entry.kind === 'result')) {
    entries.push({ kind: 'notice', label: 'No matching items', detail: 'Try other words; lexical search matches words, semantic search meaning.' });
  }
  return entries;
}

const PATH_NAMES: Record<string, string> = {
  lexical_items: 'words in the whole item',
  lexical_chunks: 'words in a passage',
  vector: 'meaning (vector)',
  entity: 'names (entities)',
  title: 'title',
  expansion: 'relationship expansion',
  confirmed_relationship: 'confirmed relationship',
  recency: 'recency',
};

/** "Why" in full, for a dialog: every reason as the engine wrote it, and each path's share of the relevance. */
export function whyInFull(row: SearchRow): { message: string; detail: string } {
  const { result } = row;
  const contributions = Object.entries(result.contributions)
    .filter(([, value]) => (value ?? 0) > 0)
    .sort(([, a], [, b]) => (b ?? 0) - (a ?? 0))
    .map(([path, value]) => `  ${PATH_NAMES[path] ?? path}: ${figure(value ?? 0)}`);
  const lines = [
    `${result.path}${result.passage ? `, ${describeLocation(result.passage.location, result.path)}` : ''} in ${row.folderName}`,
    '',
    'Why it matched:',
    ...result.why_matched.map((reason) => `• ${reason}`),
    ...(result.also && result.also.length > 0 ? [`• ${describeAlso(result.also)}`] : []),
    '',
    `Relevance ${figure(result.query_relevance)}: relative to this result set (the best is 1.00), not a probability. Its parts, by search path:`,
    ...contributions,
    '',
    result.semantic_similarity === null
      ? 'Similarity: none yet (the item has no vectors).'
      : `Similarity ${figure(result.semantic_similarity)}: the cosine between your query and the closest passage, not a probability and not part of relevance.`,
  ];
  return { message: `Why "${result.title ?? result.path}" matched`, detail: lines.join('\n') };
}
