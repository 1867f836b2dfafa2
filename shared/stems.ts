// A stemmer per language, so "Beiträge" finds "Beitrag" and "contributions" finds "contribuer"
// (issue 28). SQLite's full-text index stems with Porter's English algorithm only: on German it
// takes off English endings and leaves German ones, so a German query found a guide only through
// the exact form its text used.
//
// The stemmers are Snowball's algorithms as @orama/stemmers ships them. English keeps the path it
// had (the index's own Porter stemmer, measured on SciFact), so English text is never stemmed
// here; a language without a Snowball stemmer (Chinese, Japanese, Korean, Polish, Czech, ...) is
// left as it is. The same function stems the text the index receives and the words of the query,
// so both sides are cut alike; the index's Porter stemmer then runs on both sides as before.

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
import { detectLanguage, UNDETERMINED, type LanguageCode } from './languages.ts';
import { normaliseWord, SPACELESS, WORD_RUN } from './words.ts';

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

/** The text with each of its words replaced by its stem in `language` (as it is, where that language is not stemmed here). */
export function stemmedText(text: string, language: LanguageCode | null | undefined): string {
  if (!isStemmed(language)) return text;
  return text.replace(WORD_RUN, (word) => stemWord(word, language));
}

/** Share of a folder's items a language must hold to count as one the folder is written in. */
export const FOLDER_LANGUAGE_SHARE = 0.05;

/** How a query's words are searched: in which languages' stems, and whether also as typed. */
export interface QueryStemming {
  languages: LanguageCode[];
  /** Also as typed: the folder holds items whose words are not stemmed here (English, Chinese, undetermined, ...). */
  asTyped: boolean;
}

/**
 * How a query's words are searched (`folder`: the folder's items per detected language). Stemmed in
 * the query's own language where it can be told (a query of a few words rarely can), else in each
 * stemmed language that holds at least FOLDER_LANGUAGE_SHARE of the folder's items. As typed too
 * unless every language the folder is written in is stemmed: a word searched both ways where both
 * forms meet in the index would count twice. An English or Chinese query, or a folder in English
 * only, is searched as it always was.
 */
export function queryStemming(query: string, folder: ReadonlyMap<LanguageCode, number>): QueryStemming {
  let total = 0;
  for (const count of folder.values()) total += count;
  const written = [...folder].filter(([, count]) => count >= total * FOLDER_LANGUAGE_SHARE).map(([language]) => language);
  const own = detectLanguage(query).language;
  const languages = own !== UNDETERMINED ? (isStemmed(own) ? [own] : []) : written.filter(isStemmed);
  return { languages, asTyped: languages.length === 0 || written.some((language) => !isStemmed(language)) };
}
