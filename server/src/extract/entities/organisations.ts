// Organisations named with a legal form: "Acme Holdings, Inc.", "BIRCH FIRST GLOBAL INVESTMENTS
// INC.", "Dong-A ST Co., Ltd.". The legal form is the evidence; the name is the run of
// capitalised words just before it, read backwards until something that cannot be part of a
// registered name (a lower-case word, a sentence end, a heading line, a word such as "between").
// Without a legal form nothing is claimed: "Acme" alone is left to a model.

import { findLegalForms, normaliseName, organisationKey, type SuffixMatch } from './legalSuffixes.ts';
import { HONORIFIC_WORDS } from './people.ts';
import type { Found } from './found.ts';

/** Joining words allowed inside a name ("Bank of America", "Procter & Gamble"), never at its start. */
const CONNECTORS = new Set([
  '&', 'and', 'of', 'for', 'de', 'du', 'des', 'del', 'della', 'la', 'le', 'van', 'von', 'der', 'den', 'y', 'et', 'und',
]);

/**
 * Capitalised words that are never part of a registered name. They end the name so that a
 * title, a clause ("THIS AGREEMENT IS MADE BY ...") or an all-caps disclaimer ("INCLUDING BUT
 * NOT LIMITED TO") is not swallowed.
 */
const STOP_WORDS = new Set([
  'a', 'an', 'this', 'that', 'these', 'those', 'between', 'among', 'amongst', 'by', 'with', 'from', 'to', 'as',
  'at', 'on', 'in', 'into', 'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'will', 'shall',
  'may', 'must', 'not', 'but', 'or', 'nor', 'if', 'all', 'any', 'each', 'every', 'such', 'other', 'its',
  'their', 'his', 'her', 'our', 'your', 'which', 'who', 'whom', 'under', 'upon', 'over', 'including',
  'made', 'entered', 'dated', 'hereby', 'herein', 'hereto', 'whereas', 'witnesseth', 'agreement',
  'contract', 'amendment', 'party', 'parties', 'section', 'article', 'exhibit', 'schedule', 'annex',
  'appendix', 'name', 'title', 'signed', 'date', 'attn', 'attention', 'dear', 're', 'page',
  'copy', 'execution', 'confidential', 'notice', 'source', 'no', 'per', 'via', 'than', 'then', 'so',
  'because', 'when', 'where', 'while', 'after', 'before', 'during', 'against', 'without', 'within', 'about',
  'through', 'also', 'only', 'both', 'either', 'neither', 'whether', 'there', 'here', 'it', 'he', 'she',
  'they', 'we', 'you', 'accordingly', 'therefore', 'however', 'whereby', 'hereinafter', 'thereof',
  // Signature-block labels: "Authorized Signatory", "Chief Financial Officer".
  'signatory', 'officer', 'president', 'secretary', 'treasurer',
  'chairman', 'authorized', 'authorised', 'administrator',
  // Headings that run into the first sentence of a section ("RECITALS Company is engaged ...").
  'recitals', 'background', 'preamble', 'definitions', 'behalf', 'trademark', 'trademarks',
]);

/** Determiners that make the following words a description ("a Delaware Corporation"), not a name. */
const DESCRIPTIVE_DETERMINERS = new Set(['a', 'an', 'any', 'each', 'every', 'another', 'such', 'no']);

/** Abbreviations that end in a full stop but sit inside names ("St. James's Place plc"). */
const INNER_ABBREVIATIONS = new Set(['st.', 'mt.', 'ft.', 'etc.']);

const ADDRESS_WORDS = new Set(['street', 'st', 'road', 'rd', 'avenue', 'ave', 'floor', 'suite', 'drive', 'boulevard', 'blvd', 'lane', 'box', 'building', 'highway', 'parkway']);

const MAX_NAME_WORDS = 12;
/** " of Canada", " of North America": one to three capitalised words, then no further name word. */
const OF_PLACE = /^[^\S\n]+of[^\S\n]+(\p{Lu}[\p{L}.]*(?:[^\S\n]+\p{Lu}[\p{L}.]*){0,2})(?![^\S\n]*(?:\p{Lu}|&))/u;
const LEADING_NOISE = /^(?:(?:19|20)\d\d|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4})$/;
const LOOKBACK = 400;

// Capitalised or a number ("3M", "Tele 2"), camel-case ("iMine", "eDiets"), or a lower-case
// brand with a dot or a one-letter prefix ("drkoop.com", "e-centives").
const NAME_WORD = /^(?:[\p{Lu}\p{N}][\p{L}\p{N}'’.\-&!+/_]*|\p{Ll}+[\p{Lu}\p{N}][\p{L}\p{N}'’.\-&+/]*|\p{Ll}[\p{L}\p{N}-]*\.(?:com|net|org|io)|\p{Ll}-\p{L}+)$/u;
const ALL_CAPS = /^[^\p{Ll}]*\p{Lu}[^\p{Ll}]*\p{Lu}[^\p{Ll}]*$/u;
const HAS_LOWER = /\p{Ll}/u;
const INITIALS = /^(?:\p{Lu}\.)+$/u;
const NUMBERING = /^[\p{N}.]+$/u;
const OPENERS = /^["'“‘(\[]+/u;

interface Token {
  text: string;
  start: number;
  end: number;
  /** Whitespace between this token and the next one holds a line break / a blank line. */
  breakAfter: 'none' | 'line' | 'paragraph';
}

function tokensBefore(text: string, end: number): Token[] {
  const from = Math.max(0, end - LOOKBACK);
  const tokens: Token[] = [];
  const re = /\S+/g;
  const slice = text.slice(from, end);
  for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
    tokens.push({ text: m[0], start: from + m.index, end: from + m.index + m[0].length, breakAfter: 'none' });
  }
  for (let i = 0; i < tokens.length; i++) {
    const gap = text.slice(tokens[i]!.end, i + 1 < tokens.length ? tokens[i + 1]!.start : end);
    // A wide gap (four spaces, a tab) is a column or a line in a PDF's layout, not a space in a
    // name; two or three spaces are common in justified text.
    tokens[i]!.breakAfter = /\n[^\S\n]*\n/.test(gap) ? 'paragraph' : /\n|\t| {4}/.test(gap) ? 'line' : 'none';
  }
  // The first token may be cut by the lookback window: never start a name inside it.
  if (from > 0 && tokens.length > 0 && tokens[0]!.start === from) tokens.shift();
  return tokens;
}

type Stop = 'lineStart' | 'stopWord' | 'prose';

interface Run {
  /** Name tokens, left to right, with the start of the first one. */
  words: string[];
  start: number;
  /** The word just before the run (lower-cased, punctuation stripped), if any. */
  before: string;
}

function isConnector(word: string): boolean {
  return CONNECTORS.has(word.toLowerCase());
}

/** Reads the name backwards from `nameEnd`; null when no name word precedes the legal form. */
function readName(text: string, nameEnd: number, formEnds: Set<number>): Run | null {
  const tokens = tokensBefore(text, nameEnd);
  const words: string[] = [];
  let start = nameEnd;
  let before = '';
  let stop: Stop = 'lineStart';
  // Words taken since the last line break crossed; dropped if the walk swallows that whole line.
  let lineBreakAt = -1;

  let i = tokens.length - 1;
  for (; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.breakAfter === 'paragraph' && words.length > 0) break;

    // A second line break crossed: the line in between was taken whole, so it stands alone.
    if (token.breakAfter === 'line' && lineBreakAt >= 0 && lineBreakAt !== words.length) {
      words.splice(0, words.length - lineBreakAt);
      return { words, start: startOfWord(tokens, tokens.length - 1, words.length), before: '' };
    }
    if (token.breakAfter === 'line' && words.length > 0) lineBreakAt = words.length;

    // A parenthesised qualifier inside a name: "Bunker One (USA) Inc.", "TOM Online (BVI) Limited".
    if (token.text.endsWith(')')) {
      const open = findParenthesisStart(tokens, i);
      if (open >= 0) {
        for (let k = i; k >= open; k--) words.unshift(tokens[k]!.text);
        start = tokens[open]!.start;
        i = open;
        continue;
      }
    }

    // Another organisation's legal form ends here ("Example Ltd and Example Limited").
    if (formEnds.has(token.end) || formEnds.has(token.end - 1)) {
      before = token.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
      stop = 'prose';
      break;
    }

    let raw = token.text;
    let tokenStart = token.start;
    // "By:Yorkville Advisors Global, LLC": a label glued to the name.
    const glued = raw.lastIndexOf(':', raw.length - 2);
    if (glued >= 0) {
      raw = raw.slice(glued + 1);
      tokenStart += glued + 1;
      if (NAME_WORD.test(raw)) {
        words.unshift(raw);
        start = tokenStart;
      }
      before = '';
      stop = 'stopWord';
      break;
    }
    const opener = raw.match(OPENERS);
    if (opener !== null) {
      raw = raw.slice(opener[0].length);
      tokenStart += opener[0].length;
    }
    const lower = raw.toLowerCase();
    if (/[,;!?]$/.test(raw)) {
      before = lower.replace(/[^\p{L}\p{N}]/gu, '');
      stop = 'prose';
      break;
    }
    // A label ("Party A:", "Licensee:") stands apart like a heading.
    if (raw.endsWith(':')) {
      before = '';
      stop = 'stopWord';
      break;
    }
    if (raw.endsWith('.') && !INITIALS.test(raw) && !INNER_ABBREVIATIONS.has(lower)) {
      before = lower.replace(/[^\p{L}\p{N}]/gu, '');
      stop = 'prose';
      break;
    }
    if (lower === 'the' && raw !== 'the') {
      words.unshift(raw);
      start = tokenStart;
      i--;
      before = i >= 0 ? tokens[i]!.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '') : '';
      // A name opens with "The"; across a line break, "THE COMMISSION\nACCURAY INCORPORATED" is
      // a line of its own before the name.
      stop = lineBreakAt >= 0 ? 'stopWord' : 'prose';
      break;
    }
    if (STOP_WORDS.has(lower)) {
      before = lower;
      stop = raw === lower ? 'prose' : 'stopWord';
      break;
    }
    // "between Acme and Beta Ltd" names two parties; "Athene Annuity and Life Company" one. A
    // lower-case "and" stays inside a name only after two or more name words.
    if (lower === 'and' && nameWordsBefore(tokens, i) < 2) {
      before = lower;
      stop = 'prose';
      break;
    }
    // An upper-case name does not run on into title-case words ("Authorized Signatory ACME LTD").
    if (HAS_LOWER.test(raw) && isUpperCaseName(words)) {
      before = lower;
      stop = 'stopWord';
      break;
    }
    if (isConnector(raw) || NAME_WORD.test(raw) || INITIALS.test(raw) || INNER_ABBREVIATIONS.has(lower)) {
      words.unshift(raw);
      start = tokenStart;
      if (opener !== null) {
        i--;
        before = i >= 0 ? tokens[i]!.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '') : '';
        stop = 'prose';
        break;
      }
      if (words.length > MAX_NAME_WORDS + 2) return null;
      continue;
    }
    before = lower.replace(/[^\p{L}\p{N}]/gu, '');
    stop = 'prose';
    break;
  }
  if (i < 0) stop = 'lineStart';
  // Crossing a line break is fine inside running text ("... with Northern\nWidget Ltd"), but a
  // line taken whole, or one that ends a heading word, is a heading or a separate line.
  if (lineBreakAt >= 0 && stop !== 'prose') {
    const previousLineWords = words.length - lineBreakAt;
    words.splice(0, previousLineWords);
    if (words.length === 0) return null;
    start = startOfWord(tokens, tokens.length - 1, words.length);
    before = '';
  }
  return words.length === 0 ? null : { words, start, before };
}

/** How many plain name words run directly before token `at` (at most two are needed). */
function nameWordsBefore(tokens: Token[], at: number): number {
  let count = 0;
  for (let k = at - 1; k >= 0 && count < 2; k--) {
    const t = tokens[k]!;
    // Postcodes and numbers ("Canada N3C2A7 and ...", "NY 10016 and ...") are not name words here.
    if (t.breakAfter !== 'none' || !/^\p{Lu}\P{N}*$/u.test(t.text) || !NAME_WORD.test(t.text) || STOP_WORDS.has(t.text.toLowerCase())) break;
    count++;
  }
  return count;
}

/** Start offset of the name when it keeps `count` words, the last of which is `tokens[last]`. */
function startOfWord(tokens: Token[], last: number, count: number): number {
  const token = tokens[last + 1 - count]!;
  return token.start + (token.text.match(OPENERS)?.[0].length ?? 0);
}

/** Index of the token opening the parenthesis that token `close` ends, within three words, or -1. */
function findParenthesisStart(tokens: Token[], close: number): number {
  for (let k = close; k >= Math.max(0, close - 3); k--) {
    const t = tokens[k]!.text;
    const inner = t.replace(/^\(/, '').replace(/\)$/, '');
    if (!NAME_WORD.test(inner) && !isConnector(inner)) return -1;
    // "(1) Acme Ltd" is a list marker, not part of the name.
    if (t.startsWith('(')) return /\p{L}/u.test(tokens.slice(k, close + 1).map((x) => x.text).join(' ')) ? k : -1;
  }
  return -1;
}

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

/** A capitalised word follows on the same line that is neither a connector nor a stop word. */
function continuesName(text: string, end: number): boolean {
  const next = /^[^\S\n]{1,2}(\p{Lu}[\p{L}.]*)/u.exec(text.slice(end, end + 40));
  if (next === null) return false;
  const word = next[1]!.toLowerCase().replace(/\.$/, '');
  return !isConnector(word) && !STOP_WORDS.has(word);
}

/**
 * An upper-case name ("SCULPTOR MASTER FUND LTD") is taken so far: at least two upper-case words,
 * one of them a long word rather than an acronym (so "White Hat SP GP LLC" is not one).
 */
function isUpperCaseName(words: string[]): boolean {
  if (words.some((w) => HAS_LOWER.test(w))) return false;
  const upper = words.filter((w) => ALL_CAPS.test(w));
  return upper.length >= 2 && upper.some((w) => /^\p{Lu}{5,}$/u.test(w));
}

/** "9.2 Limited Warranty" is a heading; "Third Floor 160 Shelbourne Road ... Co." an address. */
function isSectionOrAddress(words: string[]): boolean {
  if (/^\p{N}+(?:\.\p{N}+)+\.?$/u.test(words[0]!)) return true;
  return words.some((w) => NUMBERING.test(w)) && words.some((w) => ADDRESS_WORDS.has(w.toLowerCase().replace(/\.$/, '')));
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
    // "Investment Company Act", "Registered Company No.": the noun is inside a longer name.
    // "Company:" is a label in a signature block ("Natalija Tunevic Company: /s/ ...").
    if (lastForm.commonNoun && (continuesName(text, suffix.end) || text[suffix.end] === ':')) continue;
    const nameEnd = nameEndBefore(text, suffix);
    if (nameEnd === null) continue;
    const run = readName(text, nameEnd, formEnds);
    if (run === null) continue;
    let { words, start } = run;

    // "Mr. John Smith of Acme Ltd": the person is not part of the company's name.
    if (HONORIFIC_WORDS.has(run.before)) {
      const of = words.findIndex((w) => w.toLowerCase() === 'of');
      if (of >= 0) {
        start = text.indexOf(words[of + 1] ?? '', start);
        words = words.slice(of + 1);
      }
    }
    // Connectors join names; at the start they belong to the sentence ("... and Acme Ltd"). A
    // leading year or date belongs to a signature line ("4/8/2020 YA II PN, Ltd."), a leading
    // parenthesis to a label ("(Client) Pelican Delivers Inc.").
    while (words.length > 0 && (isConnector(words[0]!) || LEADING_NOISE.test(words[0]!) || words[0]!.startsWith('('))) {
      if (words[0]!.startsWith('(') && !words[0]!.endsWith(')')) {
        while (words.length > 0 && !words[0]!.endsWith(')')) words.shift();
      }
      words.shift();
      start = words.length > 0 ? text.indexOf(words[0]!, start) : start;
    }
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
