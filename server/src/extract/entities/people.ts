// People named with an honorific: "Dr. Amara Osei", "MR. JOHN SMITH", "Ms Osei", and in German,
// French and Spanish "Herr Tomasz Wieczorek", "Frau Schmidt", "Mme Claire Dubois", "Sra. García".
// The honorific is the evidence that the following capitalised words are a person's name; bare
// names are left to a model, because rules cannot tell "Jordan" the person from Jordan the country.
//
// The French "M." and the Spanish and Portuguese "Sr." are also an initial ("J. M. Keynes") and
// the English "Senior" ("Sr. Vice President", "John Smith Sr."), so they are read only in an item
// of their language (the item's detected language, shared/languages.ts), only before a capitalised
// name, and never right after a name word or an initial on the same line ("Jean M. Dupont").
//
// Limits, stated honestly: a brand or character named like a person ("Mr. Clean", "Dr Pepper")
// has the same form as a real name ("Mr. Green"), so no rule on the text alone separates them.
// Two signals are used: a trademark sign right after the name (a brand says so), and a short
// stop-list of famous brand characters. Anything else named that way is reported as a person.

import { stopWordsOf, type LanguageCode } from '../../../../shared/languages.ts';
import { normaliseWord } from '../../../../shared/words.ts';
import type { Found } from './found.ts';

/** Honorifics, lower-case and without the full stop (organisations.ts reads this too). */
export const HONORIFIC_WORDS = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'dame', 'lord', 'lady', 'rev', 'mx', 'herr', 'frau', 'mme', 'mlle', 'sra', 'srta']);

/** Brand characters named like people: a stop-list, not a rule (see the comment at the top). */
const BRAND_CHARACTERS = new Set([
  'mr clean', 'mr softee', 'mr coffee', 'mr peanut', 'mr potato', 'mr muscle', 'mr sheen', 'mr kipling',
  'mr pibb', 'mr goodbar', 'mr whippy', 'mr bubble', 'dr pepper', 'dr martens', 'dr scholl', 'dr scholls',
  'dr oetker', 'dr bronner', 'dr bronners',
]);

/**
 * Capitalised words that end a name: function words ("Lord Of The ..."), legal forms, street
 * types ("Lord Street"), the labels and titles that follow a name in a signature block ("Dr.
 * Wendy Graham Print Name", "Mr. Wei Li Fax"), and nouns that make a name a product's or a
 * firm's ("the Dr. Murray Products").
 */
const NOT_NAMES = new Set([
  'and', 'or', 'the', 'of', 'for', 'in', 'on', 'at', 'to', 'by', 'with', 'from', 'about', 're', 'is', 'are',
  'was', 'will', 'shall', 'may', 'a', 'an', 'this', 'that', 'ltd', 'limited', 'inc', 'llc', 'plc', 'corp',
  'corporation', 'company', 'co', 'gmbh', 'ag',
  'street', 'st', 'road', 'rd', 'avenue', 'ave', 'lane', 'drive', 'square', 'place', 'court', 'way', 'close',
  'name', 'title', 'print', 'date', 'signature', 'signed', 'fax', 'tel', 'telephone', 'phone', 'email', 'mobile',
  'president', 'director', 'deputy', 'chairman', 'chief', 'vice', 'manager', 'secretary', 'treasurer', 'ceo',
  'cfo', 'coo', 'cto', 'officer', 'partner', 'products', 'product', 'group', 'foundation', 'trust', 'fund',
  'holdings', 'enterprises', 'associates', 'partners', 'family', 'estate', 'agreement', 'if', 'attn', 'attention',
  'address', 'developer', 'consultant', 'contractor', 'coordinator', 'licensee', 'licensor', 'representative',
  // German, French and Spanish articles and conjunctions, which German capitalises before a noun ("Frau Die …").
  'die', 'das', 'dem', 'des', 'ein', 'eine', 'einer', 'und', 'oder', 'les', 'une', 'et', 'el', 'los', 'las', 'y',
]);

/** Particles inside a name ("Ludwig van Beethoven"), only between two name words. */
const PARTICLES = new Set(['van', 'von', 'de', 'da', 'del', 'della', 'der', 'den', 'di', 'du', 'la', 'le', 'bin', 'al', 'ibn']);

const HONORIFIC = /(?<![\p{L}\p{N}.])(Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame|Lord|Lady|Rev|Mx|Herr|Frau|Mme|Mlle|Sra|Srta|MR|MRS|MS|MISS|DR|PROF|SIR|DAME|LORD|LADY|REV|MX)(\.?)(?=[^\S\n]+)/gu;
/** Honorifics read only in an item of one of their languages (see the top of this module); "M." only with its full stop. */
const LANGUAGE_HONORIFIC = /(?<![\p{L}\p{N}.])(?:(M)(\.)|(Sr)(\.?))(?=[^\S\n]+)/gu;
const HONORIFIC_LANGUAGES: Record<string, readonly LanguageCode[]> = { m: ['fr'], sr: ['es', 'pt'] };
/** Salutations that open a letter before an honorific ("Estimado Sr. García"): capitalised, yet not a name. */
const SALUTATIONS = new Set(['estimado', 'estimada', 'querido', 'querida', 'distinguido', 'distinguida', 'apreciado', 'apreciada', 'prezado', 'prezada', 'caro', 'cara', 'cher', 'chère']);
/** The word just before a position on its line, with its punctuation. */
const WORD_BEFORE = /(\S+)[^\S\n]+$/u;
const WORD = /[^\S\n]+(\S+)/uy;
const STACKED = /[^\S\n]+(\p{Lu}\p{L}*)\.?(?=[^\S\n])/uy;
const NAME_WORD = /^\p{Lu}(?:[\p{L}'’-]*\p{L})?$/u;
const INITIAL = /^\p{Lu}\.?$/u;
const TRADEMARK = /^[^\S\n]?[™®©]/u;
const MAX_NAME_WORDS = 3;
const UPPER_ABBREVIATIONS = new Set(['MR', 'MRS', 'MS', 'DR', 'MX', 'REV', 'PROF']);

/**
 * "12 Harbour Dr. Springfield": "Dr." after a capitalised word with a house number before it
 * on the same line is the street type Drive, not Doctor.
 */
function isStreetDrive(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(Math.max(lineStart, at - 60), at).trim().split(/\s+/);
  const previous = before[before.length - 1] ?? '';
  if (!/^\p{Lu}\p{L}+$/u.test(previous)) return false;
  return before.slice(-5, -1).some((w) => /^\d+[A-Za-z]?$/.test(w));
}

/** Name words after the honorific at `from`: [words, end offset]. */
function readName(text: string, from: number): { words: string[]; end: number } {
  const words: string[] = [];
  let end = from;
  let at = from;
  let pendingParticle: { word: string; end: number } | null = null;
  while (words.length < MAX_NAME_WORDS) {
    WORD.lastIndex = at;
    const m = WORD.exec(text);
    if (m === null) break;
    const raw = m[1]!;
    const wordStart = m.index + m[0].length - raw.length;
    // Trailing punctuation ends the name after this word; a possessive is not part of it.
    const core = raw.replace(/(?:['’]s)?[,;:.!?)"'”’]*$/u, '');
    const closes = core.length < raw.length && !INITIAL.test(raw);
    const lower = core.toLowerCase();
    if (words.length > 0 && PARTICLES.has(core) && !closes) {
      pendingParticle = { word: core, end: wordStart + core.length };
      at = wordStart + raw.length;
      continue;
    }
    if (INITIAL.test(raw)) {
      if (pendingParticle !== null) break;
      words.push(raw.replace('.', ''));
      end = wordStart + raw.length;
      at = end;
      continue;
    }
    if (!NAME_WORD.test(core) || NOT_NAMES.has(lower) || HONORIFIC_WORDS.has(lower)) break;
    if (pendingParticle !== null) {
      words.push(pendingParticle.word);
      pendingParticle = null;
    }
    words.push(core);
    end = wordStart + core.length;
    at = end;
    if (closes) break;
  }
  // A lone initial ("Dr. J.") is too little to key a person on.
  if (words.length === 1 && INITIAL.test(words[0]!)) return { words: [], end };
  return { words, end };
}

/**
 * "J. M. Keynes", "Jean M. Dupont", "Ken Griffey Sr.": an initial or a name word right before `at`
 * on its line makes "M." or "Sr." part of that name. A name word is capitalised, has no sentence's
 * full stop, and is neither a function word of the language ("El Sr. García", "Par M. Dupont") nor
 * a salutation ("Estimado Sr. García").
 */
function followsName(text: string, at: number, language: LanguageCode): boolean {
  const before = WORD_BEFORE.exec(text.slice(Math.max(0, at - 40), at));
  if (before === null) return false;
  const word = before[1]!;
  if (INITIAL.test(word)) return true;
  const lower = normaliseWord(word);
  return NAME_WORD.test(word) && !SALUTATIONS.has(lower) && !stopWordsOf(language).has(lower);
}

/** An honorific found: where it starts and ends, as written, and whether a full stop follows it. */
interface Honorific {
  index: number;
  end: number;
  word: string;
  fullStop: boolean;
}

/** Every honorific in `text`, in order: those of every language, and "M." and "Sr." in an item of theirs. */
function honorifics(text: string, language: LanguageCode | undefined): Honorific[] {
  const hits: Honorific[] = [];
  for (const m of text.matchAll(HONORIFIC)) hits.push({ index: m.index, end: m.index + m[0].length, word: m[1]!, fullStop: m[2] === '.' });
  if (language === undefined) return hits;
  let own = false;
  for (const m of text.matchAll(LANGUAGE_HONORIFIC)) {
    const word = m[1] ?? m[3]!;
    if (!HONORIFIC_LANGUAGES[word.toLowerCase()]!.includes(language) || followsName(text, m.index, language)) continue;
    hits.push({ index: m.index, end: m.index + m[0].length, word, fullStop: (m[2] ?? m[4]) === '.' });
    own = true;
  }
  return own ? hits.sort((a, b) => a.index - b.index) : hits;
}

export function findPeople(text: string, language?: LanguageCode): Found[] {
  const found: Found[] = [];
  let readTo = 0;
  for (const m of honorifics(text, language)) {
    // A stacked title or a name already read ("Rev. Dr. Amara Osei") is not read again.
    if (m.index < readTo) continue;
    const honorific = m.word.toLowerCase();
    if (honorific === 'dr' && isStreetDrive(text, m.index)) continue;
    // An upper-case "MS" or "DR" without a full stop is an abbreviation (MS Word, DR = Dominican Republic).
    if (UPPER_ABBREVIATIONS.has(m.word) && !m.fullStop) continue;
    // Titles can stack ("Rev. Dr. Amara Osei"): read the name after the last one.
    let nameFrom = m.end;
    for (;;) {
      STACKED.lastIndex = nameFrom;
      const next = STACKED.exec(text);
      if (next === null || !HONORIFIC_WORDS.has(next[1]!.toLowerCase())) break;
      nameFrom += next[0].length;
    }
    const { words, end } = readName(text, nameFrom);
    if (words.length === 0) continue;
    // "Rev." is also revision, revenue and Revised ("Wash. Rev. Code"): a reverend needs a full name.
    if (honorific === 'rev' && words.length < 2) continue;
    if (TRADEMARK.test(text.slice(end, end + 2))) continue;
    const name = words.join(' ').toLowerCase();
    if (BRAND_CHARACTERS.has(`${honorific} ${words[0]!.toLowerCase().replace(/['’]/g, '')}`)) continue;
    found.push({
      type: 'person',
      surface: text.slice(m.index, end),
      key: `person:${name}`,
      start: m.index,
      end,
    });
    readTo = end;
  }
  return found;
}
