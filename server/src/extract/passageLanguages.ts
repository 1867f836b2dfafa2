// A file may mix languages: a README with an English half and a German half, a French report
// quoting an English contract clause by clause. The item's language is told once, on its whole
// text (its main language, or 'und' when two are close); a passage whose own words clearly say
// another language is recorded with that language, so the embedding model's similarity is not
// used on a passage it cannot read (ranking/vectorPath.ts) and the passage's concepts are cut with
// its own function words (concepts.ts). A passage too short to tell keeps the item's language.

import { detectLanguage, UNDETERMINED, type LanguageCode } from '../../../shared/languages.ts';
import { WORD_RUN } from '../../../shared/words.ts';

/**
 * Words a passage needs before its own language overrides the item's: the detector needs eight,
 * but a heading and a sentence quoting a name or two would then be enough to move a passage out of
 * a language the model reads.
 */
export const PASSAGE_MIN_WORDS = 30;

/** Whether the text has at least `min` words (counted no further). */
function hasWords(text: string, min: number): boolean {
  let n = 0;
  for (const _ of text.matchAll(WORD_RUN)) if (++n >= min) return true;
  return false;
}

/**
 * The passages (by chunk id) whose language differs from the item's, each with its own; none
 * for an item of one passage, whose language is the item's.
 */
export function passageLanguages(chunks: readonly { id: string; text: string }[], itemLanguage: LanguageCode): Record<string, LanguageCode> {
  const languages: Record<string, LanguageCode> = {};
  if (chunks.length < 2) return languages;
  for (const chunk of chunks) {
    // A passage in a script of its own (kana, Hangul, Han) is told by the script, however short.
    const { language, coverage } = detectLanguage(chunk.text);
    if (language === UNDETERMINED || language === itemLanguage) continue;
    if (coverage < 1 && !hasWords(chunk.text, PASSAGE_MIN_WORDS)) continue;
    languages[chunk.id] = language;
  }
  return languages;
}
