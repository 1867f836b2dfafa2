// When two claims are about the same thing, and whether they agree: the one place the rules for
// claim_support and claim_contradiction live. Directions ("aspirin decreases stroke risk") compare
// when subject and object are the same words (compareDirections); figures and dates as follows. Comparable means the same kind, attribute and unit
// (so the same currency: there is no exchange rate) and a subject that matches: the same
// normalised subject of two or more words, or the same head noun backed by something more (the
// shorter subject's words all in the longer one, a shared entity, or a topic both items share). Subjects naming
// different identifiers ("gc1 …" and "gc2 …") never match. Equal values support, different ones
// contradict; the detail says so without deciding which source is right.

import { MODEL_FOUND_LABEL } from '../../../../shared/types.ts';
import { figureText } from '../../../../shared/wording.ts';
import type { Claim } from '../types.ts';
import { ATTRIBUTE_NOUNS, ATTRIBUTE_PHRASES } from './attributes.ts';
import { type Direction, OUTCOME_SCALE } from './direction.ts';

export interface CompareContext {
  /** Topic words of the item claim a comes from: its title and concept keys. */
  topicsA?: readonly string[];
  /** Topic words of the item claim b comes from. */
  topicsB?: readonly string[];
  /**
   * The specific things that tie the two items, as discovery found them: shared entity keys
   * (a party, an identifier, a named thing) and link targets. Read only when `requireTie` is set.
   */
  tiedBy?: readonly string[];
  /**
   * Compare the items' figures and dates only when `tiedBy` names something: two unrelated
   * contracts both state a "management fee", and that is no contradiction. Directions are compared
   * either way (their subject and object must both match). Absent (relationship-score-v1), any two
   * items' claims are compared.
   */
  requireTie?: boolean;
}

export interface ClaimComparison {
  relation: 'supports' | 'contradicts';
  detail: string;
}

/** Half a cent: amounts that agree to the cent are the same amount. */
const MONEY_TOLERANCE = 0.005;

const words = (subject: string): string[] => subject.split(' ').filter(Boolean);
const headOf = (subject: string): string => words(subject).at(-1) ?? '';
const identifiers = (subject: string): string[] => words(subject).filter((w) => /\d/.test(w) && /[a-z]/.test(w));

const namesAttribute = (subject: string): boolean =>
  ATTRIBUTE_NOUNS.has(headOf(subject)) || ATTRIBUTE_PHRASES.some((phrase) => subject === phrase || subject.endsWith(` ${phrase}`));

/** Whether two normalised subjects name the same thing, by the rules in the top comment. */
export function sameSubject(a: Claim, b: Claim, context: CompareContext = {}): boolean {
  if (a.subject === '' || b.subject === '') return false;
  // A subject headed by an attribute ("annual fee", "annual consulting fee") names which figure
  // it is, so only the same words name the same one: the longer one is a different fee.
  if (namesAttribute(a.subject) || namesAttribute(b.subject)) return a.subject === b.subject && a.subject.includes(' ');
  // One word ("termination", "pump") is too little to say two documents mean the same one,
  // unless the pair is already tied by something specific both name (v2's gate): two notes that
  // share a rare name and both give "the refurbishment cost" speak of the same refurbishment.
  // v1 never sets requireTie, so its comparisons are unchanged.
  const tied = context.requireTie === true && (context.tiedBy?.length ?? 0) > 0;
  if (a.subject === b.subject && (a.subject.includes(' ') || tied)) return true;
  const idsA = identifiers(a.subject);
  const idsB = identifiers(b.subject);
  if (idsA.length > 0 && idsB.length > 0 && !idsA.some((id) => idsB.includes(id))) return false;
  const head = headOf(a.subject);
  if (head !== headOf(b.subject)) return false;

  const [shorter, longer] = words(a.subject).length <= words(b.subject).length ? [a.subject, b.subject] : [b.subject, a.subject];
  const shortWords = words(shorter);
  const longWords = words(longer);
  // On a tied pair a bare head ("the refurbishment") is the tie's: "the gantry crane GC-2 refurbishment".
  if ((shortWords.length >= 2 || tied) && shortWords.every((w) => longWords.includes(w))) return true;

  // Beyond containment, the modifiers must not name different things ("roof refurbishment" vs
  // "crane refurbishment"): one subject is the bare head, or they share a modifier.
  const modifiersA = words(a.subject).slice(0, -1);
  const modifiersB = words(b.subject).slice(0, -1);
  const compatible = modifiersA.length === 0 || modifiersB.length === 0 || modifiersA.some((w) => modifiersB.includes(w));
  if (!compatible) return false;

  // Dates are left out: a shared date says when, not what.
  const entitiesB = new Set(b.entityKeys.filter((key) => !key.startsWith('date:')));
  if (a.entityKeys.some((key) => entitiesB.has(key))) return true;

  const mentions = (topics: readonly string[] | undefined): boolean =>
    (topics ?? []).some((topic) => topic.toLowerCase().split(/[^a-z0-9-]+/).includes(head));
  return mentions(context.topicsA) && mentions(context.topicsB);
}

function sameValue(a: Claim, b: Claim): boolean | null {
  if (a.kind === 'event_date') {
    const x = String(a.value);
    const y = String(b.value);
    if (x === y) return true;
    // "May 2025" and "2025-05-16" agree as far as the coarser one goes, which is not agreement
    // on the day; they are not compared. "May 2025" and "2025-06-03" do disagree.
    const common = Math.min(x.length, y.length);
    return x.slice(0, common) === y.slice(0, common) ? null : false;
  }
  const x = Number(a.value);
  const y = Number(b.value);
  if (a.kind === 'money') return Math.abs(x - y) < MONEY_TOLERANCE;
  // Unit conversions leave binary noise ("3.5 t" → 3500.0000000000005 kg).
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

/** Words after a subject that name the same agent: "aspirin" and "aspirin treatment" are one. */
const AGENT_SUFFIXES = new Set(['treatment', 'therapy', 'use', 'administration', 'supplementation', 'intake', 'consumption', 'exposure']);
const agentOf = (subject: string): string => {
  const parts = words(subject);
  return parts.length > 1 && AGENT_SUFFIXES.has(parts.at(-1)!) ? parts.slice(0, -1).join(' ') : subject;
};

/**
 * How two directions for the same subject and object stand: the same one supports; increase
 * against decrease, either against no effect, and a direction against its denial contradict.
 * "does not increase" and "decreases" are left alone: not increasing is what decreasing does.
 */
function directionRelation(x: Direction, y: Direction): 'supports' | 'contradicts' | null {
  if (x === y) return 'supports';
  const pair = new Set([x, y]);
  const either = (p: Direction, q: Direction): boolean => pair.has(p) && pair.has(q);
  if (either('increase', 'decrease') || either('none', 'increase') || either('none', 'decrease')) return 'contradicts';
  if (either('not increase', 'increase') || either('not decrease', 'decrease')) return 'contradicts';
  if (either('not increase', 'none') || either('not decrease', 'none')) return 'supports';
  return null;
}

/** A sentence quoted in a detail, cut at a word near 160 characters. */
function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/[.;:]$/, '');
  if (flat.length <= 160) return `"${flat}"`;
  const cut = flat.slice(0, 160);
  return `"${cut.slice(0, Math.max(cut.lastIndexOf(' '), 120))}…"`;
}

function compareDirections(a: Claim, b: Claim): ClaimComparison | null {
  if (a.subject === '' || agentOf(a.subject) !== agentOf(b.subject)) return null;
  const relation = directionRelation(a.value as Direction, b.value as Direction);
  if (relation === null) return null;
  const sentences = `one says ${quote(a.text)}, the other ${quote(b.text)}`;
  if (relation === 'supports') {
    return { relation, detail: `Both sources say ${a.subject} ${formatValue(a, true)} ${a.attribute}: ${sentences}.` };
  }
  return {
    relation,
    detail: `The sources disagree on what ${a.subject} does to ${a.attribute}: ${sentences}. Relata does not decide which is correct.`,
  };
}

const DIRECTION_WORDS: Record<string, Record<Direction, string>> = {
  amount: { increase: 'increases', decrease: 'decreases', none: 'has no effect on', 'not increase': 'does not increase', 'not decrease': 'does not decrease' },
  [OUTCOME_SCALE]: { increase: 'improves', decrease: 'worsens', none: 'has no effect on', 'not increase': 'does not improve', 'not decrease': 'does not worsen' },
};

/** A claim's figure as a person reads it: "42,000 GBP", "12%", "2025-03-14"; a direction as its verb, "decreases". */
export function formatValue(claim: Claim, withUnit: boolean): string {
  if (claim.kind === 'direction') return DIRECTION_WORDS[claim.unit ?? 'amount']?.[claim.value as Direction] ?? String(claim.value);
  const value = figureText(claim.value);
  if (claim.kind === 'percentage') return `${value}%`;
  if (!withUnit || claim.unit === null) return value;
  return `${value} ${claim.unit}`;
}

/**
 * Whether b supports or contradicts a, or null when they are not about the same thing. The
 * detail is a sentence for a person: it names the attribute and both figures.
 */
export function compareClaims(a: Claim, b: Claim, context: CompareContext = {}): ClaimComparison | null {
  if (a.kind !== b.kind || a.attribute !== b.attribute || a.unit !== b.unit) return null;
  if (a.kind === 'direction') return compareDirections(a, b);
  if (!sameSubject(a, b, context)) return null;
  const same = sameValue(a, b);
  if (same === null) return null;
  const noun = a.kind === 'event_date' ? 'date' : 'figure';
  if (same) {
    return { relation: 'supports', detail: `Both sources give the same ${noun} for ${a.attribute}: ${formatValue(a, true)}.` };
  }
  // Money reads as the design's example ("42,000 and 51,500"); quantities keep their unit, which is not obvious once converted.
  const withUnit = a.kind === 'quantity';
  return {
    relation: 'contradicts',
    detail:
      `The sources give different ${noun}s for ${a.attribute}: ${formatValue(a, withUnit)} and ${formatValue(b, withUnit)}. ` +
      'Relata does not decide which is correct.',
  };
}

export interface ItemClaimComparison extends ClaimComparison {
  a: Claim;
  b: Claim;
}

/** The comparison's detail, saying so when a figure in it was read by the model stage rather than a rule. */
export function labelledDetail(comparison: ItemClaimComparison): string {
  const byModel = comparison.a.producer === 'model' || comparison.b.producer === 'model';
  return byModel ? `${comparison.detail} One of the figures was ${MODEL_FOUND_LABEL}.` : comparison.detail;
}

/**
 * The comparisons between two items' claims, one per subject and attribute. Items often state
 * several figures for one attribute (a total and a subtotal, a figure quoted from elsewhere);
 * when any pair agrees, that is the finding, and a contradiction is reported only when the two
 * items share no value at all for it.
 */
export function compareItemClaims(
  claimsA: readonly Claim[],
  claimsB: readonly Claim[],
  context: CompareContext = {},
): ItemClaimComparison[] {
  if (context.requireTie && (context.tiedBy ?? []).length === 0) {
    // An untied pair's figures are not compared; a direction names its own subject and object
    // ("A20 knockdown slows tumor progression"), and two that match on both are about one thing.
    const directions = (claims: readonly Claim[]) => claims.filter((claim) => claim.kind === 'direction');
    return compareItemClaims(directions(claimsA), directions(claimsB), { ...context, requireTie: false });
  }
  const groups = new Map<string, ItemClaimComparison[]>();
  for (const a of claimsA) {
    for (const b of claimsB) {
      const comparison = compareClaims(a, b, context);
      if (comparison === null) continue;
      const key = `${a.kind}|${a.attribute}|${a.unit}|${a.subject}`;
      const list = groups.get(key) ?? [];
      list.push({ ...comparison, a, b });
      groups.set(key, list);
    }
  }
  const findings: ItemClaimComparison[] = [];
  const said = new Set<string>();
  for (const list of groups.values()) {
    const finding = list.find((c) => c.relation === 'supports') ?? list[0]!;
    if (said.has(finding.detail)) continue;
    said.add(finding.detail);
    findings.push(finding);
  }
  return findings;
}
