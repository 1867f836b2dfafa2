// Just enough part-of-speech to find where a noun phrase ends: function words from a fixed list,
// verbs from compromise's word list plus two context rules. Running compromise's full tagger on
// every sentence with a figure was tried and rejected: it is slower, and it tags "cost" in "the
// refurbishment cost EUR 42,000" and "serves" in "GC-2 serves the lane" as nouns anyway.

import { DETERMINERS, lexiconTags } from '../words.ts';
import type { Token } from './tokens.ts';

export { DETERMINERS };

/** Words that never belong inside a noun phrase naming a subject. */
const FUNCTION_WORDS = new Set(
  `
  of in on at by for from to into onto with without within between among against about above below under over
  after before during since until till through throughout across along around behind beyond near per via upon
  than as like unlike versus vs including excluding except despite towards toward out up off down back away
  and or but nor so yet while whereas whilst although though because if unless whether when where once then
  also only just even still already again not never no yes very quite rather too more most less least much
  is are was were be been being am has have had having do does did done will would shall should may might
  must can could ought
  i me my we us our you your he him his she her they them their it its itself this that these those which who
  whom whose what there here
  please thanks thank
  `.split(/\s+/).filter(Boolean),
);

// PresentTense is left out: "pumps", "records", "costs" are plural nouns as often as verbs; the
// context rule below catches the verbs.
const VERB_TAGS = new Set(['PastTense', 'Modal', 'Copula', 'Adverb', 'Auxiliary', 'Negative', 'QuestionWord', 'Preposition', 'Conjunction', 'Pronoun']);

export function isFunctionWord(lower: string): boolean {
  return FUNCTION_WORDS.has(lower) || DETERMINERS.has(lower);
}

/**
 * Whether the word token at i reads as a verb here. compromise's word list decides for known
 * words; an unknown "-ed" word is a participle; an "-s" word followed by a determiner or a figure
 * is a verb ("serves the lane", "records EUR 51,500"), as is any word right before a figure when
 * a noun came just before it ("the refurbishment cost EUR 42,000").
 */
export function isVerbAt(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i]!;
  const next = tokens[i + 1];
  const prev = tokens[i - 1];
  const nextIsFigure = next !== undefined && next.kind === 'figure';
  const nextIsDeterminer = next !== undefined && DETERMINERS.has(next.lower);
  if (/^[a-z]+s$/.test(t.lower) && (nextIsDeterminer || nextIsFigure)) return true;
  if (/[a-z]{2}ed$/.test(t.lower) && nextIsDeterminer) return true;
  if (nextIsFigure && prev !== undefined && prev.kind === 'word' && !isFunctionWord(prev.lower)) return true;
  const tags = lexiconTags(t.lower);
  if (tags.some((tag) => VERB_TAGS.has(tag))) {
    // "approved budget", "replaced coupling": a participle right before a noun is an adjective.
    const modifies = next !== undefined && next.kind === 'word' && !isFunctionWord(next.lower) && /ed$/.test(t.lower);
    return !modifies;
  }
  if (tags.length === 0 && /[a-z]{3}ly$/.test(t.lower)) return true;
  if (tags.length === 0 && /[a-z]{3}ed$/.test(t.lower)) {
    const modifies = next !== undefined && next.kind === 'word' && !isFunctionWord(next.lower);
    return !modifies;
  }
  return false;
}

/** A word that can sit inside a noun phrase at position i. */
const NUMBER_TAGS = new Set(['Cardinal', 'Ordinal', 'TextValue', 'Fraction', 'Multiple']);

export function isContentAt(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i];
  if (!t || t.kind !== 'word') return false;
  if (isFunctionWord(t.lower)) return false;
  // "one hundred and twenty (120) days": number words are part of a figure, not of a name.
  if (lexiconTags(t.lower).some((tag) => NUMBER_TAGS.has(tag))) return false;
  return !isVerbAt(tokens, i);
}
