// Word-level normalisation shared by claim subjects and concept keys, so that "the gantry cranes"
// in one passage and "gantry crane" in another reduce to the same key. compromise supplies the
// English plural rules and its word list; the guards below cover the plural-only and Latin words
// its singular rule gets wrong ("premises", "series", "status", "data").

import { createRequire } from 'node:module';
import type { LanguageCode } from '../../../shared/languages.ts';
import { isStemmed, stemWord } from '../../../shared/stems.ts';

interface CompromiseWorld {
  model: { one: { lexicon: Record<string, string | string[]> }; two: { uncountable: Record<string, boolean> } };
  methods: { two: { transform: { noun: { toSingular: (word: string, model: unknown) => string } } } };
}

let loaded: CompromiseWorld | undefined;

/**
 * compromise's word model, loaded on first use, never at import: unpacking its lexicon takes
 * ~0.2 s, which every process importing an extractor for a constant (`relata --help`, `relata
 * search`, the language server before it extracts) would otherwise pay. A plain require() is
 * what lets the bundle defer it (esbuild inlines the package and evaluates it at this call); from
 * source (tsx, tests) Node loads it by name. Both get the package's CommonJS build, so the bundle
 * and the tests run the same code. test/unit/coldStart.test.ts keeps it off the import graph.
 */
function world(): CompromiseWorld {
  if (loaded === undefined) {
    const nlp = (import.meta.url.endsWith('.ts') ? createRequire(import.meta.url)('compromise') : require('compromise')) as { world(): CompromiseWorld };
    loaded = nlp.world();
  }
  return loaded;
}

/** Words that look plural but are not, or whose singular means something else. */
const KEEP_AS_IS = new Set([
  'goods', 'premises', 'series', 'species', 'means', 'news', 'data', 'media', 'sales', 'savings',
  'damages', 'arrears', 'proceeds', 'earnings', 'customs', 'logistics', 'electronics', 'analytics',
  'headquarters', 'thanks', 'works', 'whereas', 'always', 'perhaps', 'its', 'his', 'this', 'was',
  'has', 'is', 'us', 'yes', 'gas', 'bus', 'plus', 'minus', 'bonus', 'status', 'census', 'canvas',
  'lens', 'atlas', 'alias', 'chassis', 'apparatus', 'corpus', 'campus', 'virus', 'focus', 'basis',
  'analysis', 'diagnosis', 'thesis', 'crisis', 'axis', 'tennis', 'physics', 'mathematics', 'ethics',
  'economics', 'politics', 'statistics', 'mechanics', 'dynamics', 'ltd', 'llc', 'inc',
]);

const singularCache = new Map<string, string>();

/** The singular of a lower-case noun; unchanged when it is not a regular plural. */
export function singular(word: string): string {
  const cached = singularCache.get(word);
  if (cached !== undefined) return cached;
  let result = word;
  if (
    word.length > 3 &&
    word.endsWith('s') &&
    !/(ss|us|is|ous|ics)$/.test(word) &&
    !KEEP_AS_IS.has(word) &&
    !world().model.two.uncountable[word] &&
    /^[a-z][a-z-]*$/.test(word)
  ) {
    const out = world().methods.two.transform.noun.toSingular(word, world().model);
    if (out && out.length >= word.length - 3) result = out;
  }
  if (singularCache.size > 50_000) singularCache.clear();
  singularCache.set(word, result);
  return result;
}

/** compromise's tags for a lower-case word, or [] when the word is not in its lexicon. */
export function lexiconTags(word: string): readonly string[] {
  const tags = world().model.one.lexicon[word];
  if (tags === undefined) return [];
  return Array.isArray(tags) ? tags : [tags];
}

/** Determiners and possessives that say nothing about what a phrase names. */
export const DETERMINERS = new Set([
  'the', 'a', 'an', 'this', 'that', 'these', 'those', 'its', 'their', 'our', 'his', 'her', 'my',
  'your', 'any', 'each', 'every', 'some', 'all', 'both', 'such', 'said', 'no',
]);

/** Identifiers such as "GC-2", "PO-2025-0412", "Q2": letters and digits in one token. */
export function isIdentifier(token: string): boolean {
  return /\d/.test(token) && /[a-z]/i.test(token);
}

/**
 * One token of a key: lower case, possessive dropped, and an identifier's letter-digit hyphen
 * removed so "GC-2", "GC2" and "gc-2" agree.
 */
export function normaliseToken(token: string): string {
  let t = token.normalize('NFC').toLowerCase().replace(/[’']s$/, '').replace(/[’']$/, '');
  if (/^[a-z]+-\d+$/.test(t)) t = t.replace('-', '');
  return t;
}

/**
 * Lower-case, singular-headed form of a phrase's words: the shared key of a subject or concept.
 * `englishPlurals` false leaves the head as written: compromise's rules are English, and they cut
 * a Spanish "contribuciones" to "contribucione", a piece of a word. In a `language` with a
 * Snowball stemmer (shared/stems.ts) every word is its stem instead, so "Beiträge" and "Beitrag",
 * "contributions" and "contribution" are one concept, as they are one word to the search.
 */
export function phraseKey(words: readonly string[], englishPlurals = true, language?: LanguageCode): string {
  const tokens = words.map(normaliseToken).filter((t) => t.length > 0);
  if (isStemmed(language)) return tokens.map((token) => stemWord(token, language)).join(' ');
  const last = tokens.length - 1;
  // An acronym ("JRVS", "MKOS") is a name, not a plural.
  const acronym = /^[A-Z0-9]{2,}$/.test(words[words.length - 1] ?? '');
  if (englishPlurals && last >= 0 && !acronym && !isIdentifier(tokens[last]!)) tokens[last] = singular(tokens[last]!);
  return tokens.join(' ');
}
