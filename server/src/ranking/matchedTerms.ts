// What of the query a result matched, named so a person can check it: the query's words its title
// and passages contain, the figures its passage states about what the query asks (a claim whose
// sentence holds the query's words, or whose figure the query gives), and whether the best of a
// result set is only a weak match. Relevance is relative (the best result is always 1.00), so
// weakness is said apart, in words, from what the paths found; it is not a number.

import { wordMatches } from '../../../shared/queryWords.ts';
import type { SearchResultView } from '../../../shared/types.ts';
import { formatValue } from '../extract/claims/compare.ts';
import { SIMILARITY_FLOOR } from '../scoring/model.ts';
import type { StoredClaim } from '../store/contract.ts';

/** Figures named per result: a passage can state many, the row has room for a few. */
const MAX_FIGURES = 2;

/**
 * A result contains the query's words when its title or passages hold at least this share of
 * them: one common word of a long question ("cost") is how an unrelated invoice matches.
 */
export const STRONG_WORD_SHARE = 0.5;

/** A claim's figure as the numbers one would type: "12400" for 12,400.00, ["2025", "03", "14"] for a date. */
function figureDigits(claim: StoredClaim): string[] {
  return typeof claim.value === 'number' ? [String(Number(claim.value.toPrecision(12))).replace(/\.0+$/, '')] : claim.value.split(/\D+/);
}

/** The figures of the passages' claims that the query's words or figures point at, best first. */
export function matchedFigures(claims: readonly StoredClaim[], chunkIds: ReadonlySet<string>, words: readonly string[]): string[] {
  const scored = claims
    .filter((claim) => chunkIds.has(claim.chunkId))
    .map((claim) => {
      const inSentence = new Set(wordMatches(`${claim.text} ${claim.attribute}`, words).map((match) => match.word)).size;
      const figureGiven = words.some((word) => /^\d+$/.test(word) && figureDigits(claim).includes(word));
      return { claim, weight: inSentence + (figureGiven ? words.length : 0) };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight);
  const figures = scored.map(({ claim }) => `${claim.attribute} ${formatValue(claim, true)}`);
  return [...new Set(figures)].slice(0, MAX_FIGURES);
}

/**
 * Whether a result is more than the closest thing there was: it names what the query names, has
 * the title asked for, contains most of the query's words (unless the folder lacks a third of
 * them: server/src/ranking/spelling.ts), states a figure the query gives, or is close in meaning
 * above the similarity floor relationship scoring uses.
 */
export function isStrongMatch(result: SearchResultView, words: readonly string[], wordsMissingFromFolder = false): boolean {
  if ((result.contributions.entity ?? 0) > 0 || (result.contributions.title ?? 0) > 0) return true;
  const numbers = words.filter((word) => /^\d+$/.test(word));
  // Figures are written grouped ("51,500"); the query gives them as typed ("51500").
  const digits = (figure: string) => figure.replace(/(\d),(?=\d{3}(?!\d))/g, '$1').split(/\D+/);
  if (result.matched?.figures.some((figure) => digits(figure).some((part) => numbers.includes(part)))) return true;
  // A query a third of whose words no document holds ("forklift" among guides) is not answered by the rest of its words.
  if (!wordsMissingFromFolder && words.length > 0 && (result.matched?.words.length ?? 0) >= Math.ceil(words.length * STRONG_WORD_SHARE)) return true;
  return result.semantic_similarity !== null && result.semantic_similarity >= SIMILARITY_FLOOR;
}
