// The coarse subject a figure is about, as a normalised noun phrase: "the refurbishment of
// gantry crane GC-2" and "Gantry crane GC-2 refurbishment" both become "gantry crane gc2
// refurbishment". Read from the sentence first (the cue's of-complement, the phrase the figure
// describes, the clause's opening noun phrase), then from the passage: a bare "the refurbishment"
// takes the fuller name a heading or the title gives the same head noun, and a sentence with no
// subject of its own ("The work was completed on …", "It cost …") takes the innermost specific
// heading or the title.

import { isIdentifier, lexiconTags, phraseKey } from '../words.ts';
import { ATTRIBUTE_NOUNS, ATTRIBUTE_PHRASES, type AttributeCue } from './attributes.ts';
import { type Token, tokenize } from './tokens.ts';
import { DETERMINERS, isContentAt, isFunctionWord, isVerbAt } from './wordClass.ts';

/** Modifiers that do not change what is talked about: "the new pumps" and "the pumps" are one subject. */
const WEAK_MODIFIERS = new Set(
  `new old final total overall full whole entire actual current approved existing other same such certain various
  several many main additional further first last next previous following above below respective relevant specific
  particular general recent latest complete completed successful planned proposed original revised advance prior
  minimum maximum initial material providing`.split(/\s+/),
);

/** Nouns too vague to be a subject on their own; the passage's heading or title is used instead. */
const GENERIC_NOUNS = new Set(
  `work works project projects job jobs task tasks thing things matter item items activity activities total subtotal
  sum figure figures amount amounts number numbers everything anything something part parts scope purpose quarter
  year month week day period time case way one ones other others it this that they we you he she there which who
  what same following above below
  agreement contract party parties company licensee licensor franchisee franchisor distributor supplier vendor
  customer client consultant contractor buyer seller purchaser employee employer lessee lessor tenant landlord
  reseller manufacturer provider recipient affiliate`.split(/\s+/),
);

/** Heading words that name a section of a document rather than a subject. */
const SECTION_WORDS = new Set(
  `background summary scope completion cost costs purpose introduction overview detail details note notes appendix
  total timeline action actions recommendation recommendations request requests outlook conclusion conclusions finding
  findings result results decision decisions lesson lessons sign-off signoff root cause immediate response strength
  strengths concern concerns scorecard downtime position other project projects status update updates general misc
  miscellaneous key main next step steps issue issues item items work of at for and the in on to a an contents table
  budget budgets finance financial cost breakdown schedule remarks comment comments reference references contact
  contacts attendee attendees agenda minute minutes`.split(/\s+/),
);

/** Words that name a kind of document: a title part ending in one labels the document, not its subject. */
const DOCUMENT_WORDS = new Set(
  `report memo memorandum review notes note minutes summary letter email e-mail proposal briefing update log record form
  sheet checklist register statement presentation slides agenda plan policy procedure guide manual`.split(/\s+/),
);

/** Words after "for" that name a period, not a subject ("budget of EUR 107,000 for the quarter"). */
const TIME_NOUNS = new Set('quarter year month week day period time season half term'.split(' '));

const YEAR = /^(19|20)\d\d$/;

interface Phrase {
  /** The words of the phrase up to "of". */
  words: string[];
  /** The words after "of", if any. */
  complement: string[];
}

/**
 * Reads a noun phrase starting at token i: leading determiners skipped, content words collected,
 * plus one of-complement ("refurbishment of gantry crane GC-2"). Null when no content word starts there.
 */
function readPhrase(tokens: readonly Token[], i: number): Phrase | null {
  let k = i;
  while (tokens[k] && DETERMINERS.has(tokens[k]!.lower)) k++;
  // "the only invoice", "the same work"
  if (k > i && ['only', 'same', 'sole'].includes(tokens[k]?.lower ?? '')) k++;
  const words = readWords(tokens, k);
  if (words.length === 0) return null;
  let complement: string[] = [];
  let after = k + words.length;
  if (tokens[after]?.lower === 'of') {
    after++;
    while (tokens[after] && DETERMINERS.has(tokens[after]!.lower)) after++;
    complement = readWords(tokens, after);
  }
  return { words, complement };
}

/** "(b)", "(ii)", "b)": enumerators, and a lone letter like the "U" of "U.S.", are not words of a subject. */
const ENUMERATOR = /^(?:[a-z]|[ivx]{1,4})$/i;

function readWords(tokens: readonly Token[], from: number): string[] {
  const words: string[] = [];
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (ENUMERATOR.test(t.text) && (tokens[k + 1]?.text === ')' || tokens[k + 1]?.text === '.' || t.text.length === 1)) break;
    if (isContentAt(tokens, k) && !/^\d/.test(t.text)) {
      words.push(t.text);
      continue;
    }
    // "Bay 4", "Door 3": a small number right after a capitalised word belongs to the name.
    const prev = tokens[k - 1];
    if (t.kind === 'number' && /^\d{1,3}$/.test(t.text) && prev && words.length > 0 && /^[A-Z]/.test(prev.text)) {
      words.push(t.text);
      continue;
    }
    break;
  }
  return words;
}

function clean(words: readonly string[]): string[] {
  const out = words.filter((w) => !YEAR.test(w));
  while (out.length > 1 && WEAK_MODIFIERS.has(out[0]!.toLowerCase())) out.shift();
  return out;
}

/** The subject key of a phrase: weak modifiers dropped, "X of Y" read as "Y X", head singular. */
function phraseSubject(phrase: Phrase): string {
  const words = clean(phrase.words);
  const complement = clean(phrase.complement);
  if (complement.length > 0 && words.length <= 2) return phraseKey([...complement, ...words]);
  return phraseKey(words);
}

const headOf = (subject: string): string => subject.slice(subject.lastIndexOf(' ') + 1);

/** Whether a subject key says too little to stand on its own. */
export function isGeneric(subject: string, attributeNouns = true): boolean {
  if (subject === '') return true;
  const words = subject.split(' ');
  if (words.length === 1 && (GENERIC_NOUNS.has(subject) || DOCUMENT_WORDS.has(subject))) return true;
  if (!attributeNouns) return false;
  // A phrase headed by an attribute ("the approved budget", "written notice period") names a
  // subject only through what remains when the attribute's words are taken away.
  const phrase = ATTRIBUTE_PHRASES.find((p) => subject === p || subject.endsWith(` ${p}`));
  if (phrase) return saysNothing(words.slice(0, words.length - phrase.split(' ').length));
  if (!ATTRIBUTE_NOUNS.has(headOf(subject))) return false;
  return saysNothing(words.slice(0, -1));
}

/** Modifiers that are only qualifiers ("written", "quarterly") or one vague noun ("agreement term"). */
function saysNothing(modifiers: readonly string[]): boolean {
  const rest = modifiers.filter((w) => !WEAK_MODIFIERS.has(w) && !ATTRIBUTE_NOUNS.has(w) && isNounish(w));
  return rest.length === 0 || (rest.length === 1 && (GENERIC_NOUNS.has(rest[0]!) || DOCUMENT_WORDS.has(rest[0]!)));
}

/** Adjectives and participles ("written notice", "quarterly budget") qualify an attribute; they name no subject. */
const NOT_NOUN_TAGS = new Set(['Adjective', 'PastTense', 'Participle', 'Comparable', 'Superlative', 'Adverb']);
const isNounish = (word: string): boolean =>
  !/(ly|ed)$/.test(word) && !lexiconTags(word).some((tag) => NOT_NOUN_TAGS.has(tag));

/** The subject key of a short free text: a table row's label, a heading, a part of a title. */
export function subjectOfText(text: string): string {
  const tokens = tokenize(text, []);
  let i = 0;
  while (i < tokens.length && !isContentAt(tokens, i) && tokens[i]!.kind !== 'number') i++;
  const phrase = readPhrase(tokens, i);
  return phrase === null ? '' : phraseSubject(phrase);
}

/** A heading that names a section ("Background", "Cost", "Position at 30 June 2025") rather than a subject. */
function isSectionHeading(heading: string): boolean {
  const words = heading.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  return words.every((w) => SECTION_WORDS.has(w) || isFunctionWord(w) || isMonth(w) || isIdentifier(w));
}

const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const isMonth = (word: string): boolean => MONTHS.includes(word);

/**
 * The subject a title names: "Gantry crane GC-2 refurbishment: completion report" → "gantry crane
 * gc2 refurbishment"; "Incident report INC-2025-031: Sprinkler branch line leak, Bay 4" →
 * "sprinkler branch line leak". Parts that end in a document word or an identifier label the
 * document and are skipped.
 */
function titleSubject(title: string): string {
  for (const part of title.split(/:\s+|\s+[-–—|]\s+/)) {
    const main = part.split(/[,(]/)[0]!.trim();
    const words = main.toLowerCase().split(/\s+/).filter(Boolean);
    const last = words[words.length - 1];
    if (!last || DOCUMENT_WORDS.has(last) || isIdentifier(last) || YEAR.test(last)) continue;
    if (isSectionHeading(main)) continue;
    const subject = subjectOfText(main);
    if (!isGeneric(subject)) return subject;
  }
  return '';
}

/** Subjects the passage offers, most specific first: its headings innermost first, then its title. */
export function passageSubjects(title: string | undefined, headingPath: readonly string[]): string[] {
  const out: string[] = [];
  for (const heading of [...headingPath].reverse()) {
    if (isSectionHeading(heading)) continue;
    const subject = titleSubject(heading);
    if (subject && !out.includes(subject)) out.push(subject);
  }
  if (title) {
    const subject = titleSubject(title);
    if (subject && !out.includes(subject)) out.push(subject);
  }
  return out;
}

export interface SubjectContext {
  /** From passageSubjects. */
  passage: readonly string[];
  /** The sentence before, when it is a short label such as "LED lighting upgrade." */
  label: string;
  /** Whether a sentence with no subject may take the passage's (money, dates, durations: yes; a weight: no). */
  mayFallBack: boolean;
  /** Whether a phrase headed by an attribute noun ("the approved budget") is too vague: for figures, not for dates. */
  attributeNounsAreGeneric: boolean;
  /** Whether a figure right before a noun describes it ("10 t gantry crane"): quantities only. */
  attributive?: boolean;
  /** Money reads "budget for X" and "spending on X" as naming X; a duration's "notice for X" does not. */
  money?: boolean;
}

const RELATIVE = new Set(['which', 'who', 'that', 'it', 'this', 'they', 'whose']);
const CLAUSE_WORDS = new Set(['while', 'whereas', 'whilst', 'but', 'which', 'who', 'although', 'though']);
const LEADING_SKIP = new Set(['and', 'but', 'so', 'yet', 'however', 'also', 'then', 'while', 'whereas', 'whilst', 'although', 'though']);
const PREPOSITIONS = new Set(
  'in on at during for after before within under by from since over following with without as upon until between against excluding including'.split(
    ' ',
  ),
);
/** A clause opened by one of these has its own subject, which says nothing: the passage's subject is used. */
const PERSONAL = new Set(['i', 'we', 'you', 'he', 'she', 'one']);

function isBoundary(tokens: readonly Token[], k: number): boolean {
  const t = tokens[k]!;
  if (t.kind === 'punct' && [';', ':', '(', '–', '—'].includes(t.text)) return true;
  // ", and we should expect …": a coordinated clause with a subject of its own.
  if ((t.lower === 'and' || t.lower === 'but') && tokens[k - 1]?.text === ',') return true;
  return CLAUSE_WORDS.has(t.lower);
}

/** The noun phrase that opens the clause starting at cs, skipping a leading adverbial ("In 2024, …"). */
function clauseOpening(
  tokens: readonly Token[],
  cs: number,
  limit: number,
): { phrase: Phrase | null; personal?: boolean } {
  let i = cs;
  while (
    i < limit &&
    (tokens[i]!.kind === 'punct' ||
      LEADING_SKIP.has(tokens[i]!.lower) ||
      (ENUMERATOR.test(tokens[i]!.text) && [')', '.'].includes(tokens[i + 1]?.text ?? '')))
  ) {
    i++;
  }
  // "Subject to Section 4.4, …" opens like a preposition.
  if (tokens[i]?.lower === 'subject' && tokens[i + 1]?.lower === 'to') i++;
  const first = tokens[i];
  if (!first || i >= limit || RELATIVE.has(first.lower)) return { phrase: null };
  if (PERSONAL.has(first.lower)) return { phrase: null, personal: true };
  if (PREPOSITIONS.has(first.lower) || first.lower === 'to') {
    const comma = tokens.findIndex((t, k) => k > i && k < limit && t.text === ',');
    if (comma < 0) return { phrase: null };
    i = comma + 1;
  }
  return { phrase: readPhrase(tokens, i) };
}

/** The subject of the clause holding token `at`, climbing out of relative clauses ("…, which is EUR 6,500"). */
function clauseSubject(tokens: readonly Token[], at: number): string {
  let end = at;
  while (end >= 0) {
    let cs = 0;
    for (let k = end - 1; k >= 0; k--) {
      // A parenthesis before the figure is an aside: look past it.
      if (tokens[k]!.text === ')') {
        while (k > 0 && tokens[k]!.text !== '(') k--;
        continue;
      }
      if (isBoundary(tokens, k)) {
        cs = RELATIVE.has(tokens[k]!.lower) ? k : k + 1;
        break;
      }
    }
    const { phrase, personal } = clauseOpening(tokens, cs, at);
    if (personal) return '';
    const subject = phrase === null ? '' : phraseSubject(phrase);
    if (subject !== '' && !isGeneric(subject, false)) return subject;
    if (cs === 0) return subject;
    end = cs - 1;
  }
  return '';
}

/** The noun phrase ending right before token `at` ("the budget approved in …"), or ''. */
export function phraseBefore(tokens: readonly Token[], at: number): string {
  let k = at;
  while (k > 0 && isContentAt(tokens, k - 1)) k--;
  if (k === at) return '';
  const phrase = readPhrase(tokens, k);
  return phrase === null ? '' : phraseSubject({ words: phrase.words.slice(0, at - k), complement: [] });
}

/**
 * The subject of the figure (or date) at token `at`, whose attribute came from `cue` (index −1
 * for a default attribute) or from a sentence `frame` ("The cost of X …").
 */
export function findSubject(
  tokens: readonly Token[],
  at: number,
  cue: AttributeCue,
  frame: AttributeCue | null,
  context: SubjectContext,
  leading: readonly string[] = [],
): string {
  const candidates: string[] = [...leading];
  const fromPhrase = (i: number): void => {
    const phrase = readPhrase(tokens, i);
    if (phrase) candidates.push(phraseSubject(phrase));
  };

  if (frame) fromPhrase(frame.end + 1);
  // "the cost of the GC-2 refurbishment", "the warranty on the hoist"; for money also "the budget
  // for …" (a duration's "notice for a change of control" gives a reason, not a subject).
  const linking = context.money ? ['of', 'for', 'on'] : ['of', 'on'];
  if (cue.index >= 0 && cue.noun && linking.includes(tokens[cue.end]?.lower ?? '')) fromPhrase(cue.end + 1);
  // "the crane's weight"
  const owner = cue.index > 0 ? tokens[cue.index - 1] : undefined;
  if (owner && /['’]s$/.test(owner.text)) {
    let k = cue.index - 1;
    while (k > 0 && isContentAt(tokens, k - 1)) k--;
    candidates.push(phraseSubject({ words: tokens.slice(k, cue.index).map((t) => t.text), complement: [] }));
  }
  // "a license issue fee of $500,000": the cue's own modifiers name what it is the fee for.
  if (cue.index > 0 && cue.noun && !isVerbAt(tokens, cue.index) && isContentAt(tokens, cue.index - 1)) {
    let k = cue.index - 1;
    while (k > 0 && isContentAt(tokens, k - 1)) k--;
    candidates.push(phraseSubject({ words: tokens.slice(k, cue.end).map((t) => t.text), complement: [] }));
  }
  const figure = tokens[at]!;
  // "a 10-tonne double-girder crane", "10 t gantry crane": the figure describes the phrase that follows it.
  if (figure.kind === 'figure' && (/\d-[a-z]/i.test(figure.text) || (context.attributive && isContentAt(tokens, at + 1)))) {
    fromPhrase(at + 1);
  }
  // "paid $3,500 for the new pumps", "EUR 85 per hour for the overhaul"
  const next = tokens[at + 1]?.lower === 'per' || tokens[at + 1]?.text === '/' ? at + 3 : at + 1;
  if (['for', 'on'].includes(tokens[next]?.lower ?? '')) {
    const phrase = readPhrase(tokens, next + 1);
    if (phrase && !TIME_NOUNS.has(phraseSubject(phrase))) candidates.push(phraseSubject(phrase));
  }
  // "an equity investment of $4,000,000": the phrase the figure measures.
  if (tokens[at - 1]?.lower === 'of') {
    let k = at - 1;
    while (k > 0 && isContentAt(tokens, k - 1)) k--;
    if (k < at - 1) candidates.push(phraseSubject({ words: tokens.slice(k, at - 1).map((t) => t.text), complement: [] }));
  }
  candidates.push(clauseSubject(tokens, at));
  if (context.label) candidates.push(subjectOfText(context.label));

  for (const candidate of candidates) {
    if (isGeneric(candidate, context.attributeNounsAreGeneric)) continue;
    if (!candidate.includes(' ')) {
      // A bare "the refurbishment" takes the fuller name the passage gives the same head noun.
      const fuller = context.passage.find((s) => headOf(s) === candidate);
      if (fuller) return fuller;
    }
    return candidate;
  }
  return context.mayFallBack ? (context.passage[0] ?? '') : '';
}
