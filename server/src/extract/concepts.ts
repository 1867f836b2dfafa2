// Concepts: the key phrases an item is about, as evidence for shared_concept. Counting is per
// item and stored; weighting happens at read time against the workspace's document frequency,
// so adding items never requires re-extracting old ones.
//
// Candidate phrases are noun phrases of one to four words, found by a fast chunker rather than
// compromise's full tagger: a phrase is a run of words between function words, verbs,
// punctuation and numbers, with compromise's word list deciding which known words are verbs or
// adverbs. compromise's tagger measured 65–200 ms per 10 KB on this machine (about 2 s for a
// 330 KB contract); this chunker takes 1–5 ms per 10 KB and finds mostly the same phrases.
// docs/EXTRACTION.md has the measurements and the weighting formula.
//
// Section headings are house style, not subject matter: two reports from one template share
// "Summary", "Cause" and "Actions taken" whatever they are about. So a phrase found only in an
// item's section headings is not counted; one its body also uses keeps every occurrence.

import { conceptWord, detectLanguage, isFunctionWord, type LanguageCode } from '../../../shared/languages.ts';
import { isSpaceless, splitSpaceless, wordLength } from '../../../shared/words.ts';
import { lookupUnit } from './claims/units.ts';
import type { PhraseCount } from './types.ts';
import { DETERMINERS, lexiconTags, phraseKey } from './words.ts';

/** Recorded with the counts. Bump on any change to the output for the same input. */
export const CONCEPT_EXTRACTOR_VERSION = 'concepts@5';

const MAX_WORDS = 4;

/** Words that end a phrase: function words and verbs too common for the word list's tags to matter. */
const STOP_WORDS = new Set(
  `
  a an the this that these those its their our his her my your any each every some all both such no nor not only
  of in on at by for from to into onto with without within between among against about above below under over
  after before during since until till through throughout across along around behind beyond near per via upon
  than as like unlike versus vs including excluding except despite towards toward out up off down back away
  and or but so yet while whereas whilst although though because if unless whether when where once then also
  just even still already again never very quite rather too more most less least much many few several
  is are was were be been being am has have had having do does did done will would shall should may might must
  can could ought i me we us you he him she it they them who whom whose which what there here
  make makes made take takes took give gives gave get gets got provide provides use uses ensure ensures
  require requires include includes set sets keep keeps ask asks asked need needs see sees say says said go goes
  went come comes came know knows want wants show shows find finds call calls help helps let lets put puts seem
  seems become becomes leave leaves begin begins following regarding concerning according being using making
  taking providing hereby herein hereof hereto hereunder thereof thereto therein thereunder whereby wherein
  involving relating pertaining containing affecting causing allowing enabling getting giving having becoming
  remaining resulting arising keeping leaving showing bringing holding putting telling asking reaching requiring
  ensuring awaiting anything something everything nothing anyone someone everyone nobody
  january february march april may june july august september october november december
  monday tuesday wednesday thursday friday saturday sunday
  mr mrs ms dr prof sir madam
  eur usd gbp chf jpy cad aud nzd sek nok dkk pln czk huf inr cny hkd sgd zar brl mxn
  `.split(/\s+/).filter(Boolean),
);

/** Single words too general to be a concept on their own (still fine inside a longer phrase). */
const STOP_NOUNS = new Set(
  `thing things way ways time times part parts case cases number numbers lot lots kind kinds type types use
  example purpose question questions day days week weeks month months year years today date dates page pages section
  sections clause clauses item items end start other others one ones same first last next total amount fact
  point points place area areas level levels line lines order orders term terms report reports note notes copy
  detail details information person people party parties quarter work works`.split(/\s+/),
);

/** Adjectives that add nothing at the start of a phrase: "current crane inspection" is "crane inspection". */
const WEAK_LEADING = new Set(
  `current new old other several various certain further additional relevant specific particular general overall
  total full whole entire final first last next previous same main major minor possible necessary appropriate
  reasonable applicable due available existing actual original initial such own`.split(/\s+/),
);

/** compromise tags that mark a word as not part of a noun phrase. */
const BREAK_TAGS = new Set([
  'PastTense', 'PresentTense', 'Modal', 'Copula', 'Adverb', 'Auxiliary', 'Negative', 'QuestionWord',
  'Preposition', 'Conjunction', 'Pronoun', 'Determiner', 'Possessive', 'Expression', 'Month', 'WeekDay',
  'Date', 'TextValue', 'Cardinal', 'Ordinal', 'Honorific',
]);
const TRAILING_TAGS = new Set(['Adjective', 'Comparable', 'Superlative']);
const LEGAL_FORMS = new Set(['ltd', 'limited', 'inc', 'llc', 'plc', 'gmbh', 'corp', 'corporation', 'co', 'ag', 'sa', 'bv', 'nv']);
const AUXILIARY = new Set(['to', 'will', 'shall', 'must', 'should', 'may', 'can', 'could', 'would', 'might', 'please']);
const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);
const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'sir']);

// A line break before a capital starts a new line of thought (a memo's "To:" line, a heading);
// before a lower-case word it is a wrapped line, which a phrase may cross.
// Email addresses, web addresses and digit-led codes ("4C-12") are single tokens that end a phrase.
// A word is shared/words.ts's: Unicode letters, marks and digits ("können" is one word, not "k"
// and "nnen"), with the apostrophes and hyphens that join English words; a run in a script
// written without spaces is cut into its words afterwards (wordsOfToken). A word never ends in an
// underscore: "_nicht_" is Markdown emphasis around the stop word "nicht", not a word "nicht_".
const TOKEN =
  /\n\s*(?=[^\p{Ll}\s])|[\w.+-]+@[\w.-]+|https?:\/\/\S+|\p{L}[\p{L}\p{M}\p{N}_'’-]*[\p{L}\p{M}\p{N}]|\p{L}\p{M}*|\p{N}[\p{L}\p{M}\p{N}_.,:/-]*|[^\s\p{L}\p{N}]/gu;

/** Whether a token starts with a letter and is no address ("a@b", "https:"). */
function isWordToken(token: string): boolean {
  return /^\p{L}/u.test(token) && !/[@:]/.test(token);
}

type WordClass = 'break' | 'word' | 'adjective';

const classCache = new Map<string, WordClass>();

function classify(lower: string): WordClass {
  const cached = classCache.get(lower);
  if (cached) return cached;
  let result: WordClass = 'word';
  const tags = lexiconTags(lower);
  if (STOP_WORDS.has(lower) || DETERMINERS.has(lower)) result = 'break';
  else if (tags.some((t) => BREAK_TAGS.has(t))) result = 'break';
  else if (/^[a-z]{3,}ly$/.test(lower) && !tags.includes('Singular')) result = 'break';
  else if (/^[a-z]{3,}ed$/.test(lower) && !tags.some((t) => t === 'Singular' || t === 'Noun' || t === 'Uncountable')) result = 'break';
  else if (tags.some((t) => TRAILING_TAGS.has(t))) result = 'adjective';
  if (classCache.size > 100_000) classCache.clear();
  classCache.set(lower, result);
  return result;
}

const VERB_CONTEXT = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'its', 'their', 'our', 'his', 'her']);

function isVerbContext(next: string | undefined): boolean {
  if (next === undefined) return false;
  return VERB_CONTEXT.has(next.toLowerCase()) || /^[\d€£$]/.test(next) || /^[A-Z]{3}$/.test(next);
}

interface Tally {
  count: number;
  /** The first surface form; `surfaces` is made only when a second one appears (most phrases have one). */
  surface: string;
  surfaces?: Map<string, number>;
}

/** The most frequent surface form of a tally, ties to the smallest string. */
function displayForm(tally: Tally): string {
  if (!tally.surfaces) return tally.surface;
  let phrase = '';
  let best = 0;
  for (const [surface, n] of tally.surfaces) {
    if (n > best || (n === best && surface < phrase)) [phrase, best] = [surface, n];
  }
  return phrase;
}

/**
 * Candidate key phrases of a text, with how often each occurs. Sorted by count, then key.
 * `sectionHeadings` are the text's own section headings (the title is not one): a phrase that
 * occurs in them and nowhere else in the text is left out.
 */
export function countPhrases(text: string, sectionHeadings: readonly string[] = [], language?: LanguageCode): PhraseCount[] {
  return topPhrases(text, sectionHeadings, Infinity, language).phrases;
}

/**
 * The `limit` most frequent key phrases (countPhrases' order) and how many distinct ones were
 * found. Memory is bounded too: while counting, at most 8 × limit distinct phrases are held;
 * past that the rarest are dropped (lossy counting), so for a text with that many distinct
 * phrases the kept counts may be slightly low and `found` is approximate (`exact` false: a dropped
 * phrase seen again is counted again). No ordinary
 * document comes near (EXTRACTION_CAPS in caps.ts).
 */
export function topPhrases(
  text: string,
  sectionHeadings: readonly string[],
  limit: number,
  language: LanguageCode = detectLanguage(text).language,
  otherLanguages: readonly TextInLanguage[] = [],
): { phrases: PhraseCount[]; found: number; exact: boolean } {
  const inHeadings = new Map<string, number>();
  for (const heading of sectionHeadings) {
    for (const [key, tally] of tallyPhrases(heading, Infinity, language).tallies) inHeadings.set(key, (inHeadings.get(key) ?? 0) + tally.count);
  }
  const out: PhraseCount[] = [];
  const maxKeys = Number.isFinite(limit) ? Math.max(8 * limit, 1_000) : Infinity;
  const { tallies, dropped: droppedHere } = tallyPhrases(text, maxKeys, language);
  let dropped = droppedHere;
  // Passages in another language are cut with that language's function words and stems, into the same tallies.
  for (const part of otherLanguages) dropped += tallyPhrases(part.text, maxKeys, part.language, tallies).dropped;
  for (const [key, tally] of tallies) {
    if (tally.count <= (inHeadings.get(key) ?? 0)) continue;
    out.push({ key, phrase: displayForm(tally), count: tally.count });
  }
  out.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { phrases: out.length > limit ? out.slice(0, limit) : out, found: out.length + dropped, exact: dropped === 0 };
}

/**
 * Drop the rarest tallies, oldest first (a phrase seen once long ago is the least likely to
 * matter), until half of `maxKeys` are left; returns how many went.
 */
function pruneRarest(tallies: Map<string, Tally>, maxKeys: number): number {
  const keep = Math.floor(maxKeys / 2);
  let dropped = 0;
  for (let floor = 1; tallies.size > keep; floor++) {
    for (const [key, tally] of tallies) {
      if (tallies.size <= keep) break;
      if (tally.count <= floor) {
        tallies.delete(key);
        dropped++;
      }
    }
  }
  return dropped;
}

/** A text written in a language other than its item's (extract/passageLanguages.ts). */
export interface TextInLanguage {
  text: string;
  language: LanguageCode;
}

function tallyPhrases(
  text: string,
  maxKeys = Infinity,
  language: LanguageCode = 'en',
  tallies = new Map<string, Tally>(),
): { tallies: Map<string, Tally>; dropped: number } {
  // English function words are the hand list above (with compromise's tags); any other language's
  // come from its stop-word list, so "Sie", "ist", "haben" and "werden" end a phrase as "is" does.
  const isStop = language === 'en' ? null : (word: string): boolean => isFunctionWord(word, language);
  // English plural rules only where the text may be English.
  const englishPlurals = language === 'en' || language === 'und';
  let dropped = 0;
  const add = (words: string[]): void => {
    const key = phraseKey(words, englishPlurals, language);
    // A single word needs three letters, or two in a script without spaces (most Chinese words are two characters).
    const tooShort = wordLength(key) < (isSpaceless(key) ? 2 : 3);
    if (key === '' || (words.length === 1 && (STOP_NOUNS.has(key) || tooShort || lookupUnit(words[0]!) !== null))) return;
    const surface = words.join(' ');
    const tally = tallies.get(key);
    if (tally === undefined) {
      if (tallies.size >= maxKeys) dropped += pruneRarest(tallies, maxKeys);
      tallies.set(key, { count: 1, surface });
      return;
    }
    tally.count++;
    if (tally.surfaces === undefined) {
      if (surface === tally.surface) return;
      tally.surfaces = new Map([[tally.surface, tally.count - 1]]);
    }
    tally.surfaces.set(surface, (tally.surfaces.get(surface) ?? 0) + 1);
  };

  let run: { text: string; cls: WordClass }[] = [];
  let skipNames = 0;
  const flush = (): void => {
    let words = run;
    run = [];
    while (words.length > 0 && words[words.length - 1]!.cls === 'adjective') words = words.slice(0, -1);
    if (words.length === 0) return;
    // Organisations are entities, not concepts.
    if (LEGAL_FORMS.has(words[words.length - 1]!.text.toLowerCase().replace(/\.$/, ''))) return;
    const phrase = words.slice(-MAX_WORDS).map((w) => w.text);
    add(phrase);
    // The head alone as well, so "gantry crane GC-2 refurbishment" and "refurbishment of gantry
    // crane GC-2" share a concept.
    if (phrase.length > 1) add(phrase.slice(-1));
  };

  // Tokens one at a time with one of lookahead, not text.match: an array of every token of a
  // 50 MB text is about ten million strings, the largest thing extraction held.
  const tokenizer = new RegExp(TOKEN.source, TOKEN.flags);
  const pending: string[] = [];
  const nextToken = (): string | undefined => {
    if (pending.length > 0) return pending.shift();
    const token = tokenizer.exec(text)?.[0];
    if (token === undefined || !isWordToken(token) || !isSpaceless(token)) return token;
    pending.push(...splitSpaceless(token));
    return pending.shift();
  };
  let previous = '';
  let following = nextToken();
  for (let token = following; token !== undefined; token = following) {
    following = nextToken();
    if (language === 'ko' || language === 'fr' || language === 'it') token = conceptWord(token, language);
    if (!isWordToken(token)) {
      flush();
      if (token !== '.') skipNames = 0;
      previous = '';
      continue;
    }
    const lower = token.normalize('NFC').toLowerCase().replace(/['’]s$/, '');
    if (isStop?.(lower)) {
      flush();
      previous = lower;
      continue;
    }
    // A word of a script without spaces is a phrase of its own: no space joins it to the next.
    if (isSpaceless(token)) {
      flush();
      run.push({ text: token, cls: 'word' });
      flush();
      previous = lower;
      continue;
    }
    // "Mr. Tomasz Wieczorek": a person's name is an entity, not a concept.
    if (HONORIFICS.has(lower)) {
      flush();
      skipNames = 3;
      continue;
    }
    if (skipNames > 0 && /^\p{Lu}/u.test(token)) {
      skipNames--;
      continue;
    }
    skipNames = 0;
    // "Graham confirmed …": a capitalised first name starts a person's name.
    if (/^[A-Z][a-z]/.test(token) && lexiconTags(lower).some((t) => NAME_TAGS.has(t))) {
      flush();
      skipNames = 1;
      continue;
    }
    let cls = classify(lower);
    // "to add contingency", "must avoid disruption": after "to" or a modal, a known verb is one.
    if (cls !== 'break' && AUXILIARY.has(previous) && lexiconTags(lower).includes('Infinitive')) cls = 'break';
    previous = lower;
    // "GC-2 serves the lane", "the review records EUR 51,500": an -s word before a determiner or figure is a verb.
    if (cls !== 'break' && /[a-z]s$/.test(lower) && isVerbContext(following)) cls = 'break';
    if (cls === 'break') {
      flush();
      continue;
    }
    if (run.length === 0 && WEAK_LEADING.has(lower)) continue;
    // "Northgate Distribution Centre site inspection": a name of several capitalised words ends
    // where lower-case words begin.
    const capital = /^\p{Lu}/u.test(token);
    if (!capital && run.length >= 2 && run.slice(-2).every((w) => /^\p{Lu}/u.test(w.text))) flush();
    run.push({ text: token.replace(/['’]s$/, ''), cls });
    // "Example Ltd's final invoice": what follows an organisation's name starts afresh.
    if (LEGAL_FORMS.has(lower) && run.length > 1) run = [];
  }
  flush();
  return { tallies, dropped };
}

/**
 * Whether a word of a phrase key can carry a concept: not a stop word, determiner or pronoun, nor a
 * general noun on its own. The chunker already breaks phrases at these; discovery checks stored keys
 * again (relationship-score-v2), as keys stored by an older extractor may hold one.
 */
export function isConceptWord(lower: string, alone: boolean): boolean {
  if (STOP_WORDS.has(lower) || DETERMINERS.has(lower) || lexiconTags(lower).includes('Pronoun')) return false;
  return !(alone && STOP_NOUNS.has(lower));
}

export interface WeightedConcept {
  key: string;
  phrase: string;
  weight: number;
}

/**
 * The item's top concepts against the workspace: tf-idf with sublinear term frequency and smoothed
 * inverse document frequency, favouring longer phrases a little,
 *
 *   raw = (1 + ln count) × (1 + ln((1 + N) / (1 + df))) × (1 + 0.25 × (words − 1))
 *
 * where N is itemCount and df the number of items whose phrases include the key. Weights are
 * scaled so the top concept has 1, rounded to three decimals. Ties break on the key.
 */
export function weightConcepts(
  phrases: readonly PhraseCount[],
  documentFrequency: (key: string) => number,
  itemCount: number,
  limit = 12,
): WeightedConcept[] {
  const n = Math.max(itemCount, 1);
  const scored = phrases
    .filter((p) => p.count > 0)
    .map((p) => {
      const df = Math.min(Math.max(documentFrequency(p.key), 0), n);
      const words = p.key.split(' ').length;
      const raw = (1 + Math.log(p.count)) * (1 + Math.log((1 + n) / (1 + df))) * (1 + 0.25 * (Math.min(words, 4) - 1));
      return { key: p.key, phrase: p.phrase, raw };
    })
    .sort((a, b) => b.raw - a.raw || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, Math.max(0, limit));
  const top = scored[0]?.raw ?? 1;
  return scored.map((s) => ({ key: s.key, phrase: s.phrase, weight: Math.round((s.raw / top) * 1000) / 1000 }));
}
