// Claims of direction: "Aspirin reduces the risk of stroke", "DUSP4 increases apoptosis",
// "ALDH1 expression is associated with poorer prognosis", "Exercise does not reduce mortality".
// Papers state their findings this way far more often than as figures, and two sources that give
// opposite directions for the same subject and object disagree. A wrong contradiction is the
// worst outcome, so only one shape is read: a noun phrase of one to six words that opens the
// sentence (or a "we show that" clause), a direction verb, and the noun phrase it acts on, all in
// one sentence. Anything else (a pronoun subject, a passive, a question, a hypothesis, an object
// joined by "and") is no claim. docs/EXTRACTION.md describes the rules.

import { phraseKey } from '../words.ts';
import { type Token, tokenize } from './tokens.ts';
import { DETERMINERS, isFunctionWord } from './wordClass.ts';

/**
 * What the sentence says the subject does to the object. "not increase" is weaker than "none":
 * "does not increase" is consistent with a decrease, "has no effect on" is not.
 */
export type Direction = 'increase' | 'decrease' | 'none' | 'not increase' | 'not decrease';

/** Improving and worsening are judged on an outcome's own scale: "improves symptoms" reduces them. */
export const OUTCOME_SCALE = 'outcome';

export interface DirectionDraft {
  subject: string;
  object: string;
  direction: Direction;
  /** null for amounts (increase, reduce), OUTCOME_SCALE for improve and worsen. */
  scale: string | null;
}

type Verb = { direction: 'increase' | 'decrease'; scale: string | null };
const up: Verb = { direction: 'increase', scale: null };
const down: Verb = { direction: 'decrease', scale: null };
const better: Verb = { direction: 'increase', scale: OUTCOME_SCALE };
const worse: Verb = { direction: 'decrease', scale: OUTCOME_SCALE };

/** Verb stems and the forms they take: "reduce" → reduce, reduces, reduced. */
const VERB_STEMS: Record<string, Verb> = {
  increase: up, raise: up, accelerate: up, promote: up, enhance: up, elevate: up, augment: up, boost: up,
  decrease: down, reduce: down, lower: down, slow: down, inhibit: down, suppress: down, attenuate: down,
  diminish: down, improve: better, worsen: worse, impair: worse,
};
const VERBS = new Map<string, Verb>();
for (const [stem, verb] of Object.entries(VERB_STEMS)) {
  const base = stem.endsWith('e') ? stem.slice(0, -1) : stem;
  for (const form of [stem, `${base}es`.replace(/ees$/, 'es'), `${stem}s`, `${base}ed`]) VERBS.set(form, verb);
}

/** Adjectives after "associated with", "leads to", "have": "increased risk", "poorer prognosis". */
const ADJECTIVES = new Map<string, Verb>([
  ...['increased', 'higher', 'greater', 'elevated', 'enhanced', 'more', 'accelerated', 'raised'].map((w): [string, Verb] => [w, up]),
  ...['decreased', 'reduced', 'lower', 'lowered', 'diminished', 'less', 'slower', 'attenuated'].map((w): [string, Verb] => [w, down]),
  ...['improved', 'better'].map((w): [string, Verb] => [w, better]),
  ...['worse', 'poorer', 'impaired', 'worsened'].map((w): [string, Verb] => [w, worse]),
]);

/** Words between the subject and the verb that leave the claim as it is: hedges, adverbs, auxiliaries. */
const AUXILIARIES = new Set(
  `may might can could would will should does do did also significantly markedly substantially strongly further
  directly partly partially dramatically consistently independently greatly potently specifically selectively
  effectively robustly modestly slightly strikingly profoundly likely`.split(/\s+/),
);
const NEGATIONS = new Set(['not', 'never', "doesn't", "don't", "didn't", 'cannot', "can't"]);
/** "has been shown to", "is likely to", "appears to": the verb follows "to". */
const RAISING = new Set(['shown', 'able', 'likely', 'known', 'thought', 'found', 'predicted', 'expected', 'appears', 'appear', 'appeared', 'seems', 'seem', 'tends', 'tend', 'been', 'is', 'are', 'was', 'were', 'has', 'have', 'had']);
const FAILS = new Set(['fails', 'fail', 'failed']);
const BE = new Set(['is', 'are', 'was', 'were', 'be', 'been']);
const HAVE = new Set(['has', 'have', 'had']);
/** "leads to increased …", "results in reduced …", "is associated with higher …". */
const LINKS = new Set(['leads', 'lead', 'led', 'results', 'result', 'resulted', 'causes', 'cause', 'caused']);
const ASSOCIATED = new Set(['associated', 'correlated', 'linked']);
const NEUTRAL_VERBS = new Set(['affect', 'affects', 'affected', 'alter', 'alters', 'altered', 'change', 'changes', 'changed', 'influence', 'influences', 'influenced', 'modify', 'modifies', 'modified']);
const EFFECT_NOUNS = new Set(['effect', 'effects', 'impact', 'influence', 'change']);

/** Subjects that name nothing another document could share. */
const VAGUE_SUBJECTS = new Set(
  `it this that these those they them we you he she there which who what one ones its their our
  study studies result results data finding findings analysis analyses trial trials evidence paper report review model
  approach method methods work effect effects group groups patient patients participant participants author authors
  treatment intervention difference association change changes`.split(/\s+/),
);
/** Objects too vague to compare without more words: "reduces risk" of what? */
const VAGUE_OBJECTS = new Set(
  `risk level levels expression activity rate rates effect effects outcome outcomes it them this that these those
  function response responses number amount production`.split(/\s+/),
);
/** Words that open what follows an intransitive verb ("increased due to …", "fell over time"), never its object. */
const NOT_AN_OBJECT = new Set(['due', 'over', 'since', 'because', 'following', 'thereafter', 'afterwards', 'recently', 'steadily', 'sharply']);
/** A "that" clause after one of these states a finding; after "hypothesised" or "tested" it does not. */
const REPORTING = /^(?:show|shows|showed|shown|demonstrate|demonstrates|demonstrated|find|finds|found|suggest|suggests|suggested|indicate|indicates|indicated|reveal|reveals|revealed|confirm|confirms|confirmed|conclude|concluded|establish|established|report|reports|reported)$/;
const NOT_A_FINDING = /\b(?:whether|hypothes\w*|if|test(?:ed|s)?|examin\w*|investigat\w*|assess\w*|determin\w*|aim\w*|objective|purpose|predict\w*|propos\w*|speculat\w*)\b|\?/i;
const SECTION_LABELS = new Set(
  'background backgrounds methods method results result conclusion conclusions findings finding interpretation objective objectives purpose design setting significance summary'.split(' '),
);
/** Sentence openers followed by a comma: "However, …", "In mice, …". */
const OPENERS = new Set('however thus therefore moreover furthermore together collectively overall conversely importantly finally here hence additionally notably consequently'.split(' '));
const LEADING_PREPOSITIONS = new Set('in among at during after for compared within across from under'.split(' '));
/** Verbs a subject phrase never contains: "Aspirin reduces …" stops at "reduces". */
const STOPS_PHRASE = new Set([...AUXILIARIES, ...NEGATIONS, ...RAISING, ...LINKS, ...ASSOCIATED, ...NEUTRAL_VERBS, ...FAILS]);

/** A cheap test before tokenising: no direction word, no claim. */
const HINT = /\b(?:increas|decreas|rais|lower|reduc|accelerat|slow|inhibit|promot|enhanc|elevat|augment|boost|suppress|attenuat|diminish|improv|worse|impair|associated|correlated|linked|leads?\b|led\b|result|caus|affect|alter|chang|influenc|modif|effect|impact)/i;

export function mayHaveDirection(text: string): boolean {
  return HINT.test(text);
}

interface Phrase {
  words: string[];
  complement: string[];
  end: number;
}

const isPhraseWord = (tokens: readonly Token[], k: number): boolean => {
  const t = tokens[k];
  if (!t || t.kind !== 'word') return false;
  return !isFunctionWord(t.lower) && !VERBS.has(t.lower) && !STOPS_PHRASE.has(t.lower) && !/^[a-z]+ly$/.test(t.lower);
};

/** Words of a phrase from k, skipping an abbreviation in brackets ("protein kinase (AMPK) activation"). */
function readWords(tokens: readonly Token[], from: number): { words: string[]; end: number } {
  const words: string[] = [];
  let k = from;
  while (tokens[k] && DETERMINERS.has(tokens[k]!.lower)) k++;
  for (;;) {
    if (isPhraseWord(tokens, k)) words.push(tokens[k++]!.text);
    else if (words.length > 0 && tokens[k]?.text === '(' && tokens[k + 2]?.text === ')' && isPhraseWord(tokens, k + 3)) k += 3;
    else break;
  }
  return { words, end: k };
}

/** A noun phrase at i: determiners skipped, words, one "of" complement ("the risk of stroke"). */
function readPhrase(tokens: readonly Token[], i: number, object: boolean): Phrase | null {
  const head = readWords(tokens, i);
  if (head.words.length === 0) return null;
  let { end } = head;
  let complement: string[] = [];
  const linker = tokens[end]?.lower;
  if (linker === 'of' || (linker === 'for' && object && /^risks?$/i.test(head.words.at(-1)!))) {
    const tail = readWords(tokens, end + 1);
    if (tail.words.length === 0) return null;
    complement = tail.words;
    end = tail.end;
  }
  if (head.words.length + complement.length > 6) return null;
  return { words: head.words, complement, end };
}

/** "the risk of stroke" and "stroke risk" are one key. */
const keyOf = (phrase: Phrase): string => phraseKey([...phrase.complement, ...phrase.words]);

/** Where the subject may start: the sentence's opening, past a section label, an opener, or a leading "In X,". */
function subjectStarts(tokens: readonly Token[]): number[] {
  let i = 0;
  while (tokens[i] && (SECTION_LABELS.has(tokens[i]!.lower) && /^[A-Z]+$/.test(tokens[i]!.text))) i++;
  if (SECTION_LABELS.has(tokens[i]?.lower ?? '') && tokens[i + 1]?.text === ':') i += 2;
  if (OPENERS.has(tokens[i]?.lower ?? '') && tokens[i + 1]?.text === ',') i += 2;
  if (tokens[i]?.lower === 'in' && tokens[i + 1]?.lower === 'conclusion' && tokens[i + 2]?.text === ',') i += 3;
  const starts = [i];
  if (LEADING_PREPOSITIONS.has(tokens[i]?.lower ?? '')) {
    const comma = tokens.findIndex((t, k) => k > i && k <= i + 10 && t.text === ',');
    if (comma > 0) starts.push(comma + 1);
  }
  for (let k = 1; k < tokens.length; k++) {
    if (tokens[k]!.lower === 'that' && REPORTING.test(tokens[k - 1]!.lower)) starts.push(k + 1);
  }
  return starts;
}

function vagueSubject(phrase: Phrase, tokens: readonly Token[], start: number): boolean {
  const first = tokens[start]!.lower;
  if (VAGUE_SUBJECTS.has(first) && phrase.words.length === 1 && phrase.complement.length === 0) return true;
  return ['it', 'this', 'they', 'these', 'those', 'we', 'that', 'there', 'which', 'its', 'their', 'our'].includes(first);
}

/** The direction a sentence states, or null. */
export function findDirection(sentence: string): DirectionDraft | null {
  if (NOT_A_FINDING.test(sentence)) return null;
  const tokens = tokenize(sentence, []);
  for (const start of subjectStarts(tokens)) {
    const draft = directionAt(tokens, start);
    if (draft) return draft;
  }
  return null;
}

function directionAt(tokens: readonly Token[], start: number): DirectionDraft | null {
  if (!tokens[start]) return null;
  const subjectPhrase = readPhrase(tokens, start, false);
  if (!subjectPhrase || vagueSubject(subjectPhrase, tokens, start)) return null;
  // A phrase in brackets after the subject ("AMP-activated protein kinase (AMPK) activation") is read as an aside.
  let k = subjectPhrase.end;
  let negated = false;
  let sawBe = false;
  for (;;) {
    const t = tokens[k];
    if (!t) return null;
    if (NEGATIONS.has(t.lower)) negated = true;
    else if (FAILS.has(t.lower) && tokens[k + 1]?.lower === 'to') {
      negated = true;
      k++;
    } else if (t.lower === 'to' && RAISING.has(tokens[k - 1]?.lower ?? '')) sawBe = false;
    else if (BE.has(t.lower)) sawBe = true;
    else if (!AUXILIARIES.has(t.lower) && !RAISING.has(t.lower)) break;
    k++;
  }
  const verb = tokens[k]!;
  let found: { verb: Verb | null; objectAt: number } | null = null;
  if (VERBS.has(verb.lower)) {
    // "Y is reduced by X" is a passive, "Y was lower in X" a comparison: the phrase before is not the agent.
    if (sawBe) return null;
    found = { verb: VERBS.get(verb.lower)!, objectAt: k + 1 };
  } else if (ASSOCIATED.has(verb.lower) || (['positively', 'negatively', 'inversely'].includes(verb.lower) && ASSOCIATED.has(tokens[k + 1]?.lower ?? ''))) {
    const sign = verb.lower === 'positively' ? up : verb.lower === 'negatively' || verb.lower === 'inversely' ? down : null;
    const at = sign ? k + 1 : k;
    if (!['with', 'to'].includes(tokens[at + 1]?.lower ?? '')) return null;
    const adjective = ADJECTIVES.get(tokens[at + 2]?.lower ?? '');
    if (negated) found = { verb: null, objectAt: adjective ? at + 3 : at + 2 };
    else if (sign && !adjective) found = { verb: sign, objectAt: at + 2 };
    else if (adjective && !sign) found = { verb: adjective, objectAt: at + 3 };
    else return null;
  } else if (LINKS.has(verb.lower)) {
    // "leads to increased risk", "results in reduced …".
    const adjective = ['to', 'in'].includes(tokens[k + 1]?.lower ?? '') ? ADJECTIVES.get(tokens[k + 2]?.lower ?? '') : undefined;
    if (!adjective || sawBe) return null;
    found = { verb: adjective, objectAt: k + 3 };
  } else if (HAVE.has(tokens[k - 1]?.lower ?? '') && ADJECTIVES.has(verb.lower) && !sawBe) {
    // "carriers have higher risk for …"
    found = { verb: ADJECTIVES.get(verb.lower)!, objectAt: k + 1 };
  } else if (NEUTRAL_VERBS.has(verb.lower) && negated) {
    found = { verb: null, objectAt: k + 1 };
  } else if (HAVE.has(tokens[k - 1]?.lower ?? '') && verb.lower === 'no') {
    // "X has no effect on Y"
    let e = k + 1;
    if (tokens[e]?.lower === 'significant') e++;
    if (!EFFECT_NOUNS.has(tokens[e]?.lower ?? '') || !['on', 'in'].includes(tokens[e + 1]?.lower ?? '')) return null;
    found = { verb: null, objectAt: e + 2 };
  }
  if (!found) return null;
  // "rates have increased due to screening": an intransitive verb followed by its cause, not an object.
  if (NOT_AN_OBJECT.has(tokens[found.objectAt]?.lower ?? '')) return null;
  const objectPhrase = readPhrase(tokens, found.objectAt, true);
  if (!objectPhrase) return null;
  // "the expansion and infiltration of MDSCs": a coordinated object is not read.
  const after = tokens[objectPhrase.end];
  if (after && (after.lower === 'and' || after.lower === 'or' || after.text === '/')) return null;
  const object = keyOf(objectPhrase);
  if (VAGUE_OBJECTS.has(object)) return null;
  const subject = keyOf(subjectPhrase);
  if (found.verb === null) return { subject, object, direction: 'none', scale: null };
  const direction: Direction = negated ? (found.verb.direction === 'increase' ? 'not increase' : 'not decrease') : found.verb.direction;
  return { subject, object, direction, scale: found.verb.scale };
}
