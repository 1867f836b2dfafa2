// The words of a query as search weighs them, and where they occur in a text. The lexical search
// quotes these words into its full-text query (store/sqlite/ftsQuery.ts); the explanations name
// the ones a result contains (leaving out fragments such as the "2" of "GC-2"); the search list
// and the Ask panel mark them in the passage shown. One definition, so what is marked is what
// was searched for.
//
// A word is shared/words.ts's in every script: "können" is one word, and a Chinese or Japanese
// query is cut into its words as the passages are.
//
// Function words ("what", "did", "the"; "wie", "ist"; "как") are left out: in a small folder one
// of them can be rare enough for BM25 to weigh it above every word that matters. A query is too
// short to tell its language reliably, so a word is left out when it is a function word of any of
// the languages Relata is measured on (shared/languages.ts; eval:languages). A query made
// only of such words keeps them, so it still finds something. Negations are kept.

import { isFunctionWord } from './languages.ts';
import { isSpaceless, normaliseWord, wordLength, wordsOf } from './words.ts';

const QUERY_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'ru', 'ja', 'ko', 'zh'];

const NEGATIONS = new Set(['not', 'no', 'nicht', 'kein', 'keine', 'nein', 'pas', 'non', 'ne', 'não', 'нет', 'не', 'ни']);

/** Whether a query word is a function word of a measured language (see the top of this module). */
export function isQueryFunctionWord(word: string): boolean {
  // German's list holds every letter of the alphabet; a lone letter in a query is a code's ("b" of "(b)"), not German.
  if (/^\p{Script=Latin}$/u.test(word)) return isFunctionWord(word, 'en');
  return !NEGATIONS.has(word) && QUERY_LANGUAGES.some((language) => isFunctionWord(word, language));
}

/**
 * A word in a text counts as a query word when the two share a stem ("payment" and "payments",
 * "replacement" and "replaced", "refurbished" and "refurbishment"), roughly as the full-text
 * index's Porter stemming finds them: common endings are taken off each, up to two ("replacement"
 * → "replace" → "replac"), while at least MIN_STEM letters remain, so "pay" does not mark
 * "payment" nor "final" "finance".
 */
const ENDINGS = ['ations', 'ation', 'ments', 'ment', 'ings', 'ing', 'ers', 'ies', 'ed', 'er', 'es', 'ly', 's', 'e', 'y'];
const MIN_STEM = 4;

function stem(word: string): string {
  if (/\d/.test(word)) return word;
  let stemmed = word;
  for (let round = 0; round < 2; round += 1) {
    const ending = ENDINGS.find((candidate) => stemmed.endsWith(candidate) && stemmed.length - candidate.length >= MIN_STEM);
    if (!ending) break;
    stemmed = stemmed.slice(0, -ending.length);
  }
  return stemmed;
}

/** The query's words, lower case, each once, in the order typed. */
export function queryWords(query: string): string[] {
  const words = [...new Set([...wordsOf(query)].map((word) => normaliseWord(word.text)))];
  const meaningful = words.filter((word) => !isQueryFunctionWord(word));
  return meaningful.length > 0 ? meaningful : words;
}

/**
 * The query's words worth naming and marking: a word of one or two letters (one character in
 * Chinese or Japanese, where most words are two) is usually a piece of a
 * code ("gc" and "2" of "GC-2") that would mark every "2" in a passage; a short code with letters
 * and digits ("q2") stays. The search itself uses every word (queryWords).
 */
export function namedWords(query: string): string[] {
  const words = queryWords(query);
  const named = words.filter((word) => wordLength(word) >= (isSpaceless(word) ? 2 : 3) || (/\d/.test(word) && /\p{L}/u.test(word)));
  return named.length > 0 ? named : words;
}


export interface WordMatch {
  start: number;
  end: number;
  /** The query word it stands for. */
  word: string;
}

/** Every occurrence in `text` of one of `words` (from queryWords), in order. */
export function wordMatches(text: string, words: readonly string[]): WordMatch[] {
  if (words.length === 0) return [];
  // A text word stands for the first query word it shares a stem with (the same word shares its
  // own). Each query word is stemmed once, and each distinct text word once: a search reads a few
  // hundred words per passage and most of them recur, so stemming every word against every query
  // word cost more than the look-ups of the whole search.
  const byStem = new Map<string, string>();
  for (const word of words) if (!byStem.has(stem(word))) byStem.set(stem(word), word);
  const seen = new Map<string, string | undefined>();
  const found: WordMatch[] = [];
  for (const match of wordsOf(text)) {
    let word = seen.get(match.text);
    if (word === undefined && !seen.has(match.text)) {
      word = byStem.get(stem(normaliseWord(match.text)));
      seen.set(match.text, word);
    }
    if (word !== undefined) found.push({ start: match.index, end: match.index + match.text.length, word });
  }
  return found;
}

/** The query words that occur in any of the texts, in the query's order. */
export function wordsFound(texts: readonly string[], words: readonly string[]): string[] {
  const present = new Set(texts.flatMap((text) => wordMatches(text, words).map((match) => match.word)));
  return words.filter((word) => present.has(word));
}

/**
 * The query words found in the texts, each as the text writes it (lower case): "inspect" where the
 * query says "inspected" and the passage "inspect", so a row never claims a word the passage lacks.
 * One per query word, in the query's order.
 */
export function wordsAsWritten(texts: readonly string[], words: readonly string[]): string[] {
  return wordsAsWrittenIn(texts.map((text) => writtenForms(text, words)), words);
}

/** Each query word found in the text, with its first occurrence as the text writes it (lower case). */
export function writtenForms(text: string, words: readonly string[]): ReadonlyMap<string, string> {
  const written = new Map<string, string>();
  for (const match of wordMatches(text, words)) {
    if (!written.has(match.word)) written.set(match.word, text.slice(match.start, match.end).toLowerCase());
  }
  return written;
}

/** wordsAsWritten from each text's writtenForms, in the texts' order: a text read for two results is read once. */
export function wordsAsWrittenIn(forms: readonly ReadonlyMap<string, string>[], words: readonly string[]): string[] {
  const written = new Map<string, string>();
  for (const form of forms) for (const [word, text] of form) if (!written.has(word)) written.set(word, text);
  return [...new Set(words.filter((word) => written.has(word)).map((word) => written.get(word)!))];
}
