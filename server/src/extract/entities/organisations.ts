// Organisations named with a legal form: "Acme Holdings, Inc.", "BIRCH FIRST GLOBAL INVESTMENTS
// INC.", "Dong-A ST Co., Ltd.". The legal form is the evidence; the name is the run of
// capitalised words just before it, read backwards until something that cannot be part of a
// registered name (a lower-case word, a sentence end, a heading line, a word such as "between").
// Without a legal form nothing is claimed: "Acme" alone is left to a model.

import { lexiconTags } from '../words.ts';
import { findLegalForms, normaliseName, organisationKey, type SuffixMatch } from './legalSuffixes.ts';
import { isConnector, MAX_NAME_WORDS, readName, STOP_WORDS } from './nameRun.ts';
import { HONORIFIC_WORDS } from './people.ts';
import type { Found } from './found.ts';

/** Determiners that make the following words a description ("a Delaware Corporation"), not a name. */
const DESCRIPTIVE_DETERMINERS = new Set(['a', 'an', 'any', 'each', 'every', 'another', 'such', 'no']);

/** With a number in the name, these make it an address ("Third Floor 160 Shelbourne Road ... Co."). */
const ADDRESS_WORDS = new Set([
  'street', 'st', 'road', 'rd', 'avenue', 'ave', 'floor', 'suite', 'drive', 'boulevard', 'blvd', 'lane', 'box',
  'building', 'highway', 'parkway',
]);

/** " of Canada", " of North America": one to three capitalised words, then no further name word. */
const OF_PLACE = /^[^\S\n]+of[^\S\n]+(\p{Lu}[\p{L}.]*(?:[^\S\n]+\p{Lu}[\p{L}.]*){0,2})(?![^\S\n]*(?:\p{Lu}|&))/u;
/** A year or a date in front of a name on a signature line ("4/8/2020 YA II PN, Ltd."). */
const LEADING_NOISE = /^(?:(?:19|20)\d\d|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4})$/;
const NUMBERING = /^[\p{N}.]+$/u;

/** Whitespace and an optional comma between name and legal form; at most one line break. */
function nameEndBefore(text: string, suffix: SuffixMatch): number | null {
  const gap = text.slice(Math.max(0, suffix.start - 20), suffix.start).match(/\s*,?\s*$/u)![0];
  if (/\n[^\S\n]*\n/.test(gap)) return null;
  if (gap.includes(',') && (suffix.forms[0]!.stateCode || suffix.forms[0]!.commonNoun)) return null;
  return suffix.start - gap.length;
}

/** "Las Vegas NV 89108", "Calgary AB T2P 1J9": an address, not a company. */
function followedByPostcode(text: string, end: number): boolean {
  return /^[^\S\n]+[\p{L}\p{N}-]*\p{N}/u.test(text.slice(end, end + 12));
}

/** Words after "Company" that make it a label or part of a term ("Company Name:", "Company No."). */
const LABEL_NOUNS = new Set(['name', 'address', 'number', 'no', 'registration', 'seal', 'stamp']);

/**
 * A capitalised word follows on the same line that is neither a connector nor a stop word (or
 * is a label noun): the legal-form word is inside a longer name or term, not its end. With
 * `titleCase`, only a title-case word counts: in an upper-case list ("ARES TRADING SA ARES ...")
 * the next capitals are the next name.
 */
function continuesName(text: string, end: number, titleCase = false): boolean {
  const next = /^[^\S\n]{1,2}(\p{Lu}[\p{L}.]*)/u.exec(text.slice(end, end + 40));
  if (next === null || (titleCase && !/\p{Ll}/u.test(next[1]!))) return false;
  const word = next[1]!.toLowerCase().replace(/\.$/, '');
  return LABEL_NOUNS.has(word) || (!isConnector(word) && !STOP_WORDS.has(word));
}

/** "9.2 Limited Warranty" is a heading; "Third Floor 160 Shelbourne Road ... Co." an address. */
function isSectionOrAddress(words: string[]): boolean {
  if (/^\p{N}+(?:\.\p{N}+)+\.?$/u.test(words[0]!)) return true;
  return words.some((w) => NUMBERING.test(w)) && words.some((w) => ADDRESS_WORDS.has(w.toLowerCase().replace(/\.$/, '')));
}

const OPENER_TAGS = new Set([
  'Adverb', 'Comparative', 'Conjunction', 'Preposition', 'Determiner', 'Possessive', 'Pronoun', 'QuestionWord',
  'Expression', 'Date',
]);

/**
 * Imperatives that open action items ("Ask Example Ltd to quote"). A short list rather than
 * compromise's verb tags: names often begin with a verb ("Mount Knowledge Holdings", "Target").
 */
const IMPERATIVES = new Set([
  'ask', 'contact', 'call', 'email', 'pay', 'tell', 'phone', 'visit', 'notify', 'remind', 'chase', 'check',
  'confirm', 'request', 'invite', 'inform', 'update',
]);

function isSentenceOpener(word: string): boolean {
  const lower = word.toLowerCase();
  return IMPERATIVES.has(lower) || lexiconTags(lower).some((tag) => OPENER_TAGS.has(tag));
}

/** Nothing but a sentence end, a line break, a table cell edge or the start of the text before `at`. */
function opensSentence(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 4), at).replace(/[ \t]+$/, '');
  return before === '' || /[.!?\n|:]["'”’)]?$/.test(before);
}

/** "WestRock", or "ABC" before a "Company" not in capitals: a made-up name, not a common word. */
function isCoinedName(word: string, form: string): boolean {
  if (/\p{Ll}/u.test(word)) return /\p{Ll}\p{Lu}/u.test(word);
  return /\p{Ll}/u.test(form);
}

/** Words that say what something is or does, not what it is called ("the Operating Company"). */
function isRoleWord(word: string): boolean {
  return /(?:ing|ed)$/i.test(word) || /^(?:parent|holding|successor|subsidiary|surviving|acquiror|buyer|seller|target|new|other|said|same|relevant|applicable)$/i.test(word);
}

export function findOrganisations(text: string): Found[] {
  const found: Found[] = [];
  // Where an organisation already found ends, the next name cannot reach back past it.
  const formEnds = new Set<number>();
  for (const suffix of findLegalForms(text)) {
    const lastForm = suffix.forms[suffix.forms.length - 1]!;
    if (lastForm.shortForm && followedByPostcode(text, suffix.end)) continue;
    // "Investment Company Act", "Registered Company No.", "SAS Base": the word is inside a longer
    // name or term. "Company:" is a label in a signature block ("Natalija Tunevic Company: /s/").
    if (lastForm.commonNoun && continuesName(text, suffix.end)) continue;
    if (lastForm.shortForm && continuesName(text, suffix.end, true)) continue;
    if (lastForm.commonNoun && text[suffix.end] === ':') continue;
    const nameEnd = nameEndBefore(text, suffix);
    if (nameEnd === null) continue;
    const run = readName(text, nameEnd, formEnds);
    if (run === null) continue;
    let { words, offsets } = run;
    const dropFirst = (count: number) => {
      words = words.slice(count);
      offsets = offsets.slice(count);
    };

    // "Mr. John Smith of Acme Ltd": the person is not part of the company's name.
    if (HONORIFIC_WORDS.has(run.before)) {
      const of = words.findIndex((w) => w.toLowerCase() === 'of');
      if (of >= 0) dropFirst(of + 1);
    }
    // At the start of a sentence a capital says nothing: "Later Example Ltd. wrote" and "Ask
    // Example Ltd to quote" name "Example Ltd". compromise's word list tells such openers
    // (adverbs, prepositions, pronouns...) from the nouns and adjectives names are made of.
    if (words.length > 0 && opensSentence(text, offsets[0]!)) {
      while (words.length > 1 && isSentenceOpener(words[0]!)) dropFirst(1);
    }
    // Connectors join names; at the start they belong to the sentence ("... and Acme Ltd"). A
    // leading year or date belongs to a signature line ("4/8/2020 YA II PN, Ltd."), a leading
    // parenthesis to a label ("(Client) Pelican Delivers Inc.").
    while (words.length > 0 && (isConnector(words[0]!) || LEADING_NOISE.test(words[0]!) || words[0]!.startsWith('('))) {
      const close = words[0]!.startsWith('(') ? words.findIndex((w) => w.endsWith(')')) : 0;
      dropFirst(close < 0 ? words.length : close + 1);
    }
    if (words.length === 0) continue;
    const start = offsets[0]!;
    const named = words.filter((w) => !/^the$/i.test(w) && !isConnector(w));
    if (!named.some((w) => /\p{L}/u.test(w)) || named.length > MAX_NAME_WORDS) continue;
    if (isSectionOrAddress(words)) continue;
    if (DESCRIPTIVE_DETERMINERS.has(run.before)) continue;
    // "Company" after a single ordinary word is nearly always a defined term ("any Group
    // Company", "the Operating Company"); real names have more words ("Roanoke Gas Company") or
    // a coined word ("WestRock Company", "ABC Company"). Lost: "The Boxlot Company". "Corporation"
    // after one word is a name often enough ("Xerox Corporation") to keep.
    if (suffix.forms.length === 1 && suffix.forms[0]!.family === 'co' && suffix.forms[0]!.commonNoun && named.length < 2 && !isCoinedName(named[0]!, text.slice(nameEnd, suffix.end))) {
      continue;
    }
    // "the Surviving Corporation", "the Parent Corporation" are roles defined by the contract.
    if (
      suffix.forms.length === 1 &&
      suffix.forms[0]!.commonNoun &&
      run.before === 'the' &&
      !/^the$/i.test(words[0]!) &&
      named.length === 1 &&
      isRoleWord(named[0]!)
    ) {
      continue;
    }
    // "RGA Life Reinsurance Company of Canada", "Mutual Insurance Corporation of America": a
    // place after "Company"/"Corporation" is part of the registered name.
    let end = suffix.end;
    let families = suffix.families;
    const place = lastForm.commonNoun ? OF_PLACE.exec(text.slice(end, end + 60)) : null;
    if (place !== null && !place[1]!.split(/\s+/).some((w) => STOP_WORDS.has(w.toLowerCase()))) {
      end += place[0].length;
      families = [...families, 'of', normaliseName(place[1]!)];
    }
    const name = text.slice(start, nameEnd);
    formEnds.add(end);
    found.push({
      type: 'organisation',
      surface: text.slice(start, end),
      key: organisationKey(name, families),
      start,
      end,
    });
  }
  return found;
}
