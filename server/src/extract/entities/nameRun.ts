// Reads a registered name backwards from where its legal form begins: the run of capitalised
// words, connectors ("of", "&") and parenthesised places that can make up a company's name, up to
// the first thing that cannot (a lower-case word, a sentence end, a label, a heading line, a
// word such as "between" or "Signatory"). Kept apart from organisations.ts, which decides whether
// a run and its legal form name an organisation at all.

/** Joining words allowed inside a name ("Bank of America", "Procter & Gamble"), never at its start. */
const CONNECTORS = new Set([
  '&', 'and', 'of', 'for', 'de', 'du', 'des', 'del', 'della', 'la', 'le', 'van', 'von', 'der', 'den', 'y', 'et', 'und',
]);

/**
 * Capitalised words that are never part of a registered name. They end the name so that a
 * title, a clause ("THIS AGREEMENT IS MADE BY ...") or an all-caps disclaimer ("INCLUDING BUT
 * NOT LIMITED TO") is not swallowed.
 */
export const STOP_WORDS = new Set([
  'a', 'an', 'this', 'that', 'these', 'those', 'between', 'among', 'amongst', 'by', 'with', 'from', 'to', 'as',
  'at', 'on', 'in', 'into', 'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'will', 'shall',
  'may', 'must', 'not', 'but', 'or', 'nor', 'if', 'all', 'any', 'each', 'every', 'such', 'other', 'its',
  'their', 'his', 'her', 'our', 'your', 'which', 'who', 'whom', 'under', 'upon', 'over', 'including',
  'made', 'entered', 'dated', 'hereby', 'herein', 'hereto', 'whereas', 'witnesseth', 'agreement',
  'contract', 'amendment', 'party', 'parties', 'section', 'article', 'exhibit', 'schedule', 'annex',
  'appendix', 'name', 'title', 'signed', 'date', 'attn', 'attention', 'dear', 'page',
  'copy', 'execution', 'confidential', 'notice', 'source', 'no', 'per', 'via', 'than', 'then', 'so',
  'because', 'when', 'where', 'while', 'after', 'before', 'during', 'against', 'without', 'within', 'about',
  'through', 'also', 'only', 'both', 'either', 'neither', 'whether', 'there', 'here', 'it', 'he', 'she',
  'they', 'we', 'you', 'accordingly', 'therefore', 'however', 'whereby', 'hereinafter', 'thereof',
  // Signature-block labels and what precedes a name in one ("Authorized Signatory", "General
  // Counsel", "on behalf of", "d/b/a" written "DBA").
  'signatory', 'officer', 'president', 'secretary', 'treasurer', 'chairman', 'authorized', 'authorised',
  'administrator', 'counsel', 'behalf', 'dba', 'trademark', 'trademarks', 'attest', 'witness',
  // Headings that run into the first sentence of a section ("RECITALS Company is engaged ...").
  'recitals', 'background', 'preamble', 'definitions',
]);

/** Abbreviations that end in a full stop but sit inside names ("St. James's Place plc"). */
const INNER_ABBREVIATIONS = new Set(['st.', 'mt.', 'ft.', 'etc.']);

export const MAX_NAME_WORDS = 12;
/** Characters read back from the legal form: far more than any name. */
const LOOKBACK = 400;

// Capitalised or a number ("3M", "Tele 2"), camel-case ("iMine", "eDiets"), or a lower-case
// brand with a dot or a one-letter prefix ("drkoop.com", "e-centives").
const NAME_WORD = /^(?:[\p{Lu}\p{N}][\p{L}\p{N}'’.\-&!+/_]*|\p{Ll}+[\p{Lu}\p{N}][\p{L}\p{N}'’.\-&+/]*|\p{Ll}[\p{L}\p{N}-]*\.(?:com|net|org|io)|\p{Ll}-\p{L}+)$/u;
const ALL_CAPS = /^[^\p{Ll}]*\p{Lu}[^\p{Ll}]*\p{Lu}[^\p{Ll}]*$/u;
const HAS_LOWER = /\p{Ll}/u;
const INITIALS = /^(?:\p{Lu}\.)+$/u;
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

export interface Run {
  /** Name tokens, left to right, and where each starts. */
  words: string[];
  offsets: number[];
  /** The word just before the run (lower-cased, punctuation stripped), if any. */
  before: string;
}

export function isConnector(word: string): boolean {
  return CONNECTORS.has(word.toLowerCase());
}

/** Reads the name backwards from `nameEnd`; null when no name word precedes the legal form. */
export function readName(text: string, nameEnd: number, formEnds: Set<number>): Run | null {
  const tokens = tokensBefore(text, nameEnd);
  const words: string[] = [];
  let before = '';
  let stop: Stop = 'lineStart';
  // Words taken since the last line break crossed; dropped if the walk swallows that whole line.
  let lineBreakAt = -1;

  // Every break below sets `stop`; running out of tokens or meeting a blank line leaves 'lineStart'.
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.breakAfter === 'paragraph' && words.length > 0) break;

    // A second line break crossed: the line in between was taken whole, so it stands alone.
    if (token.breakAfter === 'line' && lineBreakAt >= 0 && lineBreakAt !== words.length) {
      words.splice(0, words.length - lineBreakAt);
      return { words, offsets: offsetsOf(tokens, words), before: '' };
    }
    if (token.breakAfter === 'line' && words.length > 0) lineBreakAt = words.length;

    // A parenthesised qualifier inside a name: "Bunker One (USA) Inc.", "TOM Online (BVI) Limited".
    if (token.text.endsWith(')')) {
      const open = findParenthesisStart(tokens, i);
      if (open >= 0) {
        for (let k = i; k >= open; k--) words.unshift(tokens[k]!.text);
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
    // "By:Yorkville Advisors Global, LLC": a label glued to the name.
    const glued = raw.lastIndexOf(':', raw.length - 2);
    if (glued >= 0) {
      raw = raw.slice(glued + 1);
      if (NAME_WORD.test(raw)) words.unshift(raw);
      before = '';
      stop = 'stopWord';
      break;
    }
    const opener = raw.match(OPENERS);
    if (opener !== null) raw = raw.slice(opener[0].length);
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
    // A clause number ends a name ("13 TRADE MARK 13.1 MINDA IMPCO Limited").
    if (/^\p{N}+(?:\.\p{N}+)+\.?$/u.test(raw)) {
      before = '';
      stop = 'stopWord';
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
  // Crossing a line break is fine inside running text ("... with Northern\nWidget Ltd"), but a
  // line taken whole, or one that ends a heading word, is a heading or a separate line.
  if (lineBreakAt >= 0 && stop !== 'prose') {
    const previousLineWords = words.length - lineBreakAt;
    words.splice(0, previousLineWords);
    before = '';
  }
  return words.length === 0 ? null : { words, offsets: offsetsOf(tokens, words), before };
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

/** Where each word starts: the words are the ends of the last tokens (an opener or label cut off). */
function offsetsOf(tokens: Token[], words: string[]): number[] {
  return words.map((word, k) => tokens[tokens.length - words.length + k]!.end - word.length);
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

/**
 * An upper-case name ("SCULPTOR MASTER FUND LTD") is taken so far: at least two upper-case words,
 * one of them a long word rather than an acronym (so "White Hat SP GP LLC" is not one).
 */
function isUpperCaseName(words: string[]): boolean {
  if (words.some((w) => HAS_LOWER.test(w))) return false;
  const upper = words.filter((w) => ALL_CAPS.test(w));
  return upper.length >= 2 && upper.some((w) => /^\p{Lu}{5,}$/u.test(w));
}
