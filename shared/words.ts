// One definition of a word for every script, used by concepts, claim subjects, query words,
// matched terms and the passages' highlighting alike, so "können", "Beiträge", "проект" and
// "프로젝트" are each one word everywhere and what is marked is what was counted (issue 28).
//
// A word is a run of Unicode letters, combining marks and digits. Scripts written without spaces
// between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) have no such runs worth the name: a
// Japanese sentence is one run. Those runs are cut with Intl.Segmenter (ICU's dictionaries, built
// into Node and every browser the webviews run in). Korean is written with spaces and needs none.
//
// Text is compared in Unicode normal form C, so an "ä" typed as "a" plus a combining diaeresis and
// one typed as a single character are the same word.

/** The characters a word is made of, for building other patterns: letters, marks, digits. */
export const WORD_CHARACTER = '\\p{L}\\p{M}\\p{N}';

/** A run of word characters. */
export const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;

/** Characters of scripts written without spaces between words. */
export const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

let segmenter: Intl.Segmenter | undefined;

function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  return segmenter;
}

export interface Word {
  /** As written. */
  text: string;
  /** Offset in the text (UTF-16 code units). */
  index: number;
}

/** The words of a run of word characters: the run itself, or its segments in a spaceless script. */
function* wordsOfRun(run: string, at: number): Generator<Word> {
  if (!SPACELESS.test(run)) {
    yield { text: run, index: at };
    return;
  }
  for (const segment of wordSegmenter().segment(run)) {
    if (segment.isWordLike) yield { text: segment.segment, index: at + segment.index };
  }
}

/** Every word of `text`, in order, with its offset. */
export function* wordsOf(text: string): Generator<Word> {
  for (const match of text.matchAll(WORD_RUN)) yield* wordsOfRun(match[0], match.index);
}

/** The words of `token` (a run found by another pattern): itself unless it is in a spaceless script. */
export function splitSpaceless(token: string): string[] {
  return SPACELESS.test(token) ? [...wordsOfRun(token, 0)].map((word) => word.text) : [token];
}

/**
 * The text as the full-text index should read it: each run of a script written without spaces
 * cut into its words with a space between them, the rest as it is. SQLite's unicode61 tokenizer
 * makes a whole Chinese or Japanese sentence one token, so "社区" inside "项目的社区欢迎新的贡献者"
 * could never be found; indexed this way it is a word like any other. Offsets are not kept: the
 * index is contentless, and passages are shown from their stored text.
 */
export function indexedText(text: string): string {
  if (!SPACELESS.test(text)) return text;
  return text.replace(WORD_RUN, (run) => (SPACELESS.test(run) ? [...wordsOfRun(run, 0)].map((word) => word.text).join(' ') : run));
}

/** Whether a word is in a script written without spaces (its own phrase: no spaces join it to the next). */
export function isSpaceless(word: string): boolean {
  return SPACELESS.test(word);
}

/** The form words are compared in: normal form C, lower case. */
export function normaliseWord(word: string): string {
  return word.normalize('NFC').toLowerCase();
}

/** Letters a word is long in user-perceived terms (code points, so "項目" is 2 and "können" 6). */
export function wordLength(word: string): number {
  let n = 0;
  for (const char of word) if (!/\p{M}/u.test(char)) n++;
  return n;
}
