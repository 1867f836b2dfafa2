// The arithmetic of relationship strength: score = min(1, Σ strength × weight × diminishing
// factor), never below 0. Each signal's contribution is returned beside the total, so a screen
// can show a table whose rows add up to the score.

import type { SignalType, SignalView } from '../../../shared/types.ts';
import { DIMINISHING_FACTORS } from './model.ts';

export interface Contribution {
  signal: SignalView;
  /** 1.0, 0.5, 0.25 or 0 by the signal's rank among signals of its type. */
  factor: number;
  contribution: number;
}

export interface ScoredSignals {
  score: number;
  contributions: Contribution[];
}

/** Scores rounded to this many decimals, so stored, printed and recomputed numbers agree. */
const DECIMALS = 4;

export function round(value: number, decimals = DECIMALS): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** Evidence resting on a model: a model's opinion of the pair, or a name or figure the model stage found. */
export function isModelEvidence(signal: SignalView): boolean {
  return signal.found_by_model === true || signal.type === 'model_classification';
}

/** The score of the rule-found evidence alone. */
export function ruleFoundScore(signals: readonly SignalView[]): number {
  return scoreSignals(signals.filter((signal) => !isModelEvidence(signal))).score;
}

/**
 * A model cannot manufacture a relationship: evidence resting on a model counts only on a pair
 * that rule-found evidence alone brings to the minimum score (which is never above the storage
 * threshold). Below it, the rule-found signals are all that count, so whatever a model found or
 * said, the pair scores what the rules give it.
 */
export function countedSignals(signals: readonly SignalView[], minScore: number): SignalView[] {
  return ruleFoundScore(signals) >= minScore ? [...signals] : signals.filter((signal) => !isModelEvidence(signal));
}

/**
 * Score a relationship's signals. Within one type the strongest counts fully and the next ones
 * by the diminishing factors, so the order signals were found in does not matter.
 */
export function scoreSignals(signals: readonly SignalView[]): ScoredSignals {
  const byType = new Map<SignalType, SignalView[]>();
  for (const signal of signals) byType.set(signal.type, [...(byType.get(signal.type) ?? []), signal]);
  const factorOf = new Map<SignalView, number>();
  for (const group of byType.values()) {
    const ranked = [...group].sort((a, b) => Math.abs(b.strength * b.weight) - Math.abs(a.strength * a.weight));
    ranked.forEach((signal, rank) => factorOf.set(signal, DIMINISHING_FACTORS[rank] ?? 0));
  }
  const contributions = signals.map((signal) => {
    const factor = factorOf.get(signal)!;
    return { signal, factor, contribution: round(signal.strength * signal.weight * factor) };
  });
  const sum = contributions.reduce((total, c) => total + c.contribution, 0);
  return { score: round(Math.min(1, Math.max(0, sum))), contributions };
}
