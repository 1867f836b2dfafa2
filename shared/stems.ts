// A stemmer per language, so a concept is keyed by its stem: "Beiträge" and "Beiträgen" are one
// concept, "beitrag" (server/src/extract/words.ts; issue 28).
//
// Search does not use it. Stemming the lexical index and the query per language lowered
// known-item search in every stemmed language (eval:languages MRR@10 fr 0.916 → 0.795, pt 0.935 →
// 0.836): a stem matches every inflection in every document, and an exact heading's words stop
// telling its document apart; the index keeps the words as written, with SQLite's Porter stemmer
// (docs/SEARCH.md). The stemmers are Snowball's algorithms as @orama/stemmers ships them. English
// is never stemmed here; a language without a Snowball stemmer (Chinese, Japanese, Korean,
// Polish, Czech, ...) is left as it is.

import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { type LanguageCode } from './languages.ts';
import { normaliseWord, SPACELESS } from './words.ts';

type Stemmer = (word: string) => string;

/** Languages (shared/languages.ts codes) stemmed here, each with its Snowball stemmer. */
const STEMMERS: Record<LanguageCode, Stemmer> = {
  de: german,
  fr: french,
  es: spanish,
  pt: portuguese,
  it: italian,
  nl: dutch,
  sv: swedish,
  da: danish,
  nb: norwegian,
  fi: finnish,
  hu: hungarian,
  ro: romanian,
  tr: turkish,
  id: indonesian,
  ru: russian,
  uk: ukrainian,
  bg: bulgarian,
  ar: arabic,
  el: greek,
};

/** Languages this module stems (English is stemmed by the index itself). */
export const STEMMED_LANGUAGES: readonly LanguageCode[] = Object.keys(STEMMERS);

/** Whether words of this language are stemmed here. */
export function isStemmed(language: LanguageCode | null | undefined): boolean {
  return language !== null && language !== undefined && Object.hasOwn(STEMMERS, language);
}

/**
 * A word's stem in a language, lower case in normal form C; the word itself (normalised) where the
 * language is not stemmed here, or where the word holds a digit (a code such as "GC-2" or "4C12"
 * is no inflected word) or is in a script written without spaces.
 */
export function stemWord(word: string, language: LanguageCode | null | undefined): string {
  const normal = normaliseWord(word);
  if (!isStemmed(language) || /\p{N}/u.test(normal) || SPACELESS.test(normal)) return normal;
  return STEMMERS[language!]!(normal) || normal;
}
