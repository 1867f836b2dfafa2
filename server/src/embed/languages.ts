// Which languages an embedding model reads, so that its similarity is used only where it means
// something (issue 28). USE-lite was trained on English: two German guides sit at cosine 0.9
// whatever they say, and that number would be read as evidence and shown as "similarity 0.90".
//
// A model is named by the id its vectors are stored under (ModelDescriptor.id), so discovery and
// search can ask with what they already hold:
// - USE-lite (`use-lite@…`) reads English;
// - a local ONNX model (`onnx:<folder name>#…`) reads every language when its folder's name says
//   it is multilingual (paraphrase-multilingual-…, multilingual-e5-…, LaBSE, bge-m3, xlm-…), else
//   English: the sentence-transformers models people download by default (all-MiniLM-L6-v2,
//   all-mpnet-base-v2) were trained on English.
// An item whose language could not be told ('und') or was never detected is given the benefit of
// the doubt: names, figures and code read the same in every language.

import { UNDETERMINED, type LanguageCode } from '../../../shared/languages.ts';

/** Every language. */
export const EVERY_LANGUAGE = '*';

const MULTILINGUAL_NAME = /multilingual|labse|bge-m3|xlm|mul-|-mul\b|e5-.*multi|distiluse-base-multilingual/i;

/** The languages a model reads: ISO 639-1 codes, or EVERY_LANGUAGE. */
export function modelLanguages(modelId: string): readonly LanguageCode[] | typeof EVERY_LANGUAGE {
  if (modelId.startsWith('onnx:') && MULTILINGUAL_NAME.test(modelId.slice('onnx:'.length).split('#')[0]!)) return EVERY_LANGUAGE;
  return ['en'];
}

/** Whether the model's similarity means something on text in this language (see the top of this module). */
export function modelReadsLanguage(modelId: string | null, language: LanguageCode | null | undefined): boolean {
  if (modelId === null || language === null || language === undefined || language === UNDETERMINED) return true;
  const languages = modelLanguages(modelId);
  return languages === EVERY_LANGUAGE || languages.includes(language);
}

/** "English", "every language": the model's languages in words, for explanations. */
export function modelLanguagesInWords(modelId: string): string {
  const languages = modelLanguages(modelId);
  if (languages === EVERY_LANGUAGE) return 'every language';
  const names = new Intl.DisplayNames(['en'], { type: 'language' });
  return languages.map((code) => names.of(code) ?? code).join(', ');
}

/** A language's name in English ("German"), or the code when it has none. */
export function languageName(language: LanguageCode): string {
  if (language === UNDETERMINED) return 'an undetermined language';
  return new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
}
