// Turns what a person typed into a safe FTS5 query. FTS5 has its own syntax (AND, NEAR, quotes,
// column filters); user text must never be interpreted as that syntax, so every word is quoted
// and the words are OR-ed, which is how BM25 expects a bag of query terms. Which words count is
// shared/queryWords.ts, so the explanations and the marked passages name the same words.
//
// A Korean word is searched as itself and as a prefix: Korean writes its particles onto the noun
// ("커뮤니티는", "프로젝트를"), so the index holds those forms and "커뮤니티" alone would match none
// of them; the exact form still counts twice. A Chinese or Japanese query of several words is also
// searched as the phrase it is, so a passage holding that exact sequence (a heading typed as
// written) ranks above one holding its words apart.

import { queryWords } from '../../../../shared/queryWords.ts';
import { isSpaceless, wordsOf, WORD_RUN } from '../../../../shared/words.ts';

export function toFtsQuery(text: string): string | null {
  const phrases = ftsPhrases(text);
  return phrases.length === 0 ? null : phrases.join(' OR ');
}

/**
 * The phrases of the full-text query, in its order: FTS5's BM25 sums one term per phrase in this
 * order, so a query built from the same phrases in the same order scores bit for bit alike
 * (passageRanking.ts relies on it).
 */
export function ftsPhrases(text: string): string[] {
  const phrases = queryWords(text).flatMap((word) => (/^\p{Script=Hangul}+$/u.test(word) ? [`"${word}"`, `"${word}"*`] : [`"${word}"`]));
  for (const run of text.toLowerCase().match(WORD_RUN) ?? []) {
    if (!isSpaceless(run)) continue;
    const phrase = [...wordsOf(run)].map((word) => word.text);
    if (phrase.length > 1) phrases.push(`"${phrase.join(' ')}"`);
  }
  return phrases;
}
