// Which language a text is written in, and the stop words of each language Relata knows: the
// function words ("Sie", "ist", "haben", "werden", "и", "的") that say nothing about what a text
// is about, so they never become concepts nor weigh a query (issue 28).
//
// No language detector is installed (franc, eld, tinyld: none in node_modules), so this is the
// smallest honest one, built on the stop-word lists the `stopword` package already supplies:
// - a text's script decides first where the script belongs to one language here: Hangul is
//   Korean; kana (hiragana, katakana) is Japanese; Han characters without kana are Chinese; Thai,
//   Greek, Hebrew, Armenian are their own;
// - otherwise (Latin, Cyrillic, Arabic script) the language whose stop words cover the largest
//   share of the text's words wins, as long as that share is at least MIN_COVERAGE and the lead
//   over the runner-up is clear; function words make up 30-50% of running text in these
//   languages, so a real text clears it easily and a list of names or figures does not.
// A text the rules cannot place is 'und' (undetermined), never a guess.
// test/unit/languages.test.ts measures it on real text in every language it names.

import * as stopword from 'stopword';
import { normaliseWord, WORD_RUN } from './words.ts';

/** ISO 639-1 code of a language, or 'und' when it could not be told. */
export type LanguageCode = string;

export const UNDETERMINED: LanguageCode = 'und';

/** Per language told apart by its stop words: the stopword package's list. */
const STOP_LISTS: Record<LanguageCode, readonly string[]> = {
  en: stopword.eng,
  de: stopword.deu,
  fr: stopword.fra,
  es: stopword.spa,
  pt: stopword.por,
  it: stopword.ita,
  nl: stopword.nld,
  sv: stopword.swe,
  da: stopword.dan,
  nb: stopword.nob,
  fi: stopword.fin,
  pl: stopword.pol,
  cs: stopword.ces,
  ro: stopword.ron,
  hu: stopword.hun,
  tr: stopword.tur,
  id: stopword.ind,
  ru: stopword.rus,
  uk: stopword.ukr,
  bg: stopword.bul,
  ar: stopword.ara,
  fa: stopword.fas,
  ja: stopword.jpn,
  ko: stopword.kor,
  zh: stopword.zho,
  th: stopword.tha,
  el: stopword.ell,
  he: stopword.heb,
  hy: stopword.hye,
  hi: stopword.hin,
};

const stopSets = new Map<LanguageCode, ReadonlySet<string>>();

/** The stop words of a language (normalised as words are compared); empty for one without a list. */
export function stopWordsOf(language: LanguageCode): ReadonlySet<string> {
  let set = stopSets.get(language);
  if (set === undefined) {
    set = new Set((STOP_LISTS[language] ?? []).map(normaliseWord));
    stopSets.set(language, set);
  }
  return set;
}

/**
 * Chinese function words the stopword package's short list (78 words) lacks and that the Open
 * Source Guides' most frequent "concepts" showed: pronouns with 的, 一个, 可以, 如果, 如何, 是否.
 */
const CHINESE_FUNCTION_WORDS = new Set(
  '一个 一些 你的 我的 他的 她的 它的 我们 你们 他们 她们 它们 我们的 你们的 他们的 可以 如果 如何 是否 这个 那个 这些 那些 因为 所以 但是 以及 没有 什么 怎么 怎样 这样 那样 已经 还是 或者 就是 不是 也是 只是 一样 其他 其中 非常 例如 比如 通过 对于 关于 自己 需要 能够 应该 不要 这里 那里 时候 之后 之前 然后 虽然 而且 并且'.split(' '),
);

/**
 * Whether a word (normalised) is a function word of the language: on its stop-word list, or, for
 * the two languages whose lists cannot hold every form, by its shape. In Japanese a word written
 * in hiragana alone is a particle, an auxiliary or a verb ending (what ICU's segmenter leaves of
 * "しましょう" is "しま" and "しょう"); a Japanese concept is written in kanji or katakana. In
 * Korean a word ending in a polite or plain predicate ending ("있습니다", "합니다", "있나요") is a
 * verb, never a concept.
 */
export function isFunctionWord(word: string, language: LanguageCode): boolean {
  if (stopWordsOf(language).has(word)) return true;
  if (language === 'ja') return /^[\p{Script=Hiragana}ー]+$/u.test(word);
  if (language === 'ko') return KOREAN_PREDICATE.test(word);
  if (language === 'zh') return CHINESE_FUNCTION_WORDS.has(word);
  return false;
}

const KOREAN_PREDICATE = /(?:니다|니까|나요|세요|어요|아요|해요|예요|에요|까요|습니다|었다|였다|한다|된다|있다|없다|이다|하는|하고|하여|해야|해서|하면|되는|있는|없는|같은)$/u;

/** Korean particles written onto the noun they follow, longest first. */
const KOREAN_PARTICLE = /(?:에서|에게|으로|까지|부터|처럼|보다|이라는|라는|을|를|은|는|이|가|에|의|와|과|로|도|만)$/u;

/** French and Italian articles and pronouns elided onto the next word: "l'open source", "d'un", "qu'il", "dell'anno". */
const ELISION = /^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quelqu|dell|all|dall|nell|sull|un)['’](?=\p{L})/iu;

/**
 * A word as a concept counts it: in French and Italian without an elided article ("l'open" is
 * "open"); in Korean without the particle written onto it ("프로젝트를", "프로젝트에" are
 * "프로젝트"), as long as two syllables remain (so "회의" keeps its "의") or what remains is a stop word.
 */
export function conceptWord(word: string, language: LanguageCode): string {
  if (language === 'fr' || language === 'it') return word.replace(ELISION, '');
  if (language !== 'ko' || !/^\p{Script=Hangul}+$/u.test(word)) return word;
  const stem = word.replace(KOREAN_PARTICLE, '');
  // "것이" is "것" (thing) and its particle: a stop word, which a one-syllable stem may be.
  return stem.length >= 2 || stopWordsOf('ko').has(stem) ? stem : word;
}

/** Languages with a stop-word list. */
export const LANGUAGES_WITH_STOP_WORDS: readonly LanguageCode[] = Object.keys(STOP_LISTS);

/** Share of a text's words that must be one language's stop words for the text to be called that language. */
export const MIN_COVERAGE = 0.12;
/** Fewer words than this say too little to tell a language by its function words. */
const MIN_WORDS = 8;
/** Words read at most: the start of a long text tells its language as well as the whole. */
const MAX_WORDS = 4000;
/** Characters of a text detectLanguage reads at most (its first MAX_WORDS words fit in them). */
export const LANGUAGE_SAMPLE_CHARS = MAX_WORDS * 8;

/** Scripts that belong to one language among those named here. */
const SCRIPT_LANGUAGES: [RegExp, LanguageCode][] = [
  [/\p{Script=Hangul}/u, 'ko'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Armenian}/u, 'hy'],
];
const SYLLABIC = new Set(['ko', 'ja', 'zh']);
const SCRIPT_CANDIDATES: [RegExp, LanguageCode[]][] = [
  [/\p{Script=Cyrillic}/u, ['ru', 'uk', 'bg']],
  [/\p{Script=Arabic}/u, ['ar', 'fa']],
  [/\p{Script=Devanagari}/u, ['hi']],
  [/\p{Script=Latin}/u, ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'sv', 'da', 'nb', 'fi', 'pl', 'cs', 'ro', 'hu', 'tr', 'id']],
];

/** The script most of the text's letters are in, as its first matching pattern above; counted on a sample. */
function dominantScript(sample: string): { single: LanguageCode | null; candidates: LanguageCode[] } {
  const counts = new Map<string, number>();
  for (const char of sample) {
    if (!/\p{L}/u.test(char)) continue;
    const single = SCRIPT_LANGUAGES.find(([pattern]) => pattern.test(char));
    // Japanese mixes Han characters with kana: the kana decide, however few.
    const key = single ? `1:${single[1]}` : `n:${SCRIPT_CANDIDATES.findIndex(([pattern]) => pattern.test(char))}`;
    // A Han character, a kana or a Hangul syllable carries about what three Latin letters do, and
    // these guides quote English names and links in between: weigh by meaning, not by character.
    counts.set(key, (counts.get(key) ?? 0) + (single && SYLLABIC.has(single[1]) ? 3 : 1));
  }
  if ((counts.get('1:zh') ?? 0) > 0 && (counts.get('1:ja') ?? 0) > 0) {
    counts.set('1:ja', (counts.get('1:ja') ?? 0) + (counts.get('1:zh') ?? 0));
    counts.delete('1:zh');
  }
  let best: [string, number] | null = null;
  for (const entry of counts) if (best === null || entry[1] > best[1]) best = entry;
  if (best === null) return { single: null, candidates: [] };
  if (best[0].startsWith('1:')) return { single: best[0].slice(2), candidates: [] };
  const index = Number(best[0].slice(2));
  return { single: null, candidates: index >= 0 ? SCRIPT_CANDIDATES[index]![1] : [] };
}

export interface DetectedLanguage {
  language: LanguageCode;
  /** The winning language's stop-word share of the words (1 when the script alone decided). */
  coverage: number;
}

/** The language a text is written in (see the top of this module), 'und' when it cannot be told. */
export function detectLanguage(text: string): DetectedLanguage {
  const sample = text.length > LANGUAGE_SAMPLE_CHARS ? text.slice(0, LANGUAGE_SAMPLE_CHARS) : text;
  const script = dominantScript(sample);
  if (script.single !== null) return { language: script.single, coverage: 1 };
  if (script.candidates.length === 0) return { language: UNDETERMINED, coverage: 0 };
  const words: string[] = [];
  for (const match of sample.matchAll(WORD_RUN)) {
    if (!/^\p{N}+$/u.test(match[0])) words.push(normaliseWord(match[0]));
    if (words.length >= MAX_WORDS) break;
  }
  if (words.length < MIN_WORDS) return { language: UNDETERMINED, coverage: 0 };
  // Ranked by the words only one candidate's list has: long lists share many words ("de", "la",
  // "que" are Spanish, Portuguese and Italian alike; Portuguese's list is ten times Spanish's), so
  // the shared ones would let the longest list win. The share of all its stop words must still
  // reach MIN_COVERAGE.
  const lists = script.candidates.map((language) => ({ language, stops: stopWordsOf(language) }));
  const ranked = lists
    .map(({ language, stops }) => {
      let hits = 0;
      let own = 0;
      for (const word of words) {
        if (!stops.has(word)) continue;
        hits++;
        if (!lists.some((other) => other.language !== language && other.stops.has(word))) own++;
      }
      return { language, coverage: hits / words.length, own };
    })
    .sort((a, b) => b.coverage - a.coverage || b.own - a.own);
  const [first, second] = ranked;
  if (!first || first.coverage < MIN_COVERAGE || first.own < 3) return { language: UNDETERMINED, coverage: first?.coverage ?? 0 };
  // A close second is a mixed text or a language without a list here: better unsaid than wrong.
  if (second && second.coverage > first.coverage * 0.85 && second.own >= first.own) return { language: UNDETERMINED, coverage: first.coverage };
  return { language: first.language, coverage: Math.round(first.coverage * 1000) / 1000 };
}
