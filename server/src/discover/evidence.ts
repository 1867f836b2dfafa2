// The signals between two items, read off their profiles: byte identity, rebased similarity,
// shared names (discounted by how common they are), agreeing or disagreeing figures, shared key
// phrases, closeness of their dates, values both give in their own metadata, and the links either
// one's author wrote to the other (relationship-score-v2). Only what fired
// is returned; each signal carries its own plain-words detail.

import type { SignalView } from '../../../shared/types.ts';
import { compareItemClaims } from '../extract/claims/compare.ts';
import type { EvidenceRules, SignalBuilders } from '../scoring/index.ts';
import { metadataValueKey } from '../parse/metadata.ts';
import { linkAsWritten, linkPlace } from './links/itemLinks.ts';
import { subjectMetadata, topicsOf, type ItemProfile } from './profile.ts';

/** Per signal type, the strongest few are kept on the relationship: the rest could not count (diminishing returns end at three). */
const SIGNALS_KEPT_PER_TYPE = 6;

export interface PairEvidence {
  signals: SignalView[];
  /** Mutual best-match cosine of the two items' windows (see itemCosine); null when either has no vectors. */
  cosine: number | null;
}

export interface Frequencies {
  /** Items mentioning each entity key. */
  entityItems: Map<string, number>;
  /** Items whose key phrases include each phrase key. */
  phraseItems: Map<string, number>;
  /** Items giving themselves each metadata value (metadataValueKey). */
  metadataItems: Map<string, number>;
  /** Counts stop here (limits.frequencyCap). */
  cap: number;
  /** The folder's indexed items, when concepts are weighed by tf-idf: a shared concept's detail says "in 3 of 60 files". */
  itemCount?: number;
  /** Names that are a template's in some files (templateText.ts, relationship-score-v2): no evidence between two of those files. */
  templateNames?: ReadonlyMap<string, { items: ReadonlySet<string> }>;
}

/** The scoring version the evidence is read under: its rules and its signal builders. */
export interface EvidenceVersion {
  rules: EvidenceRules;
  signals: SignalBuilders;
}

export function pairEvidence(a: ItemProfile, b: ItemProfile, frequencies: Frequencies, version: EvidenceVersion): PairEvidence {
  const { claimSignal, conceptSignal, contentHashSignal, similaritySignal, temporalSignal } = version.signals;
  const signals: SignalView[] = [];
  if (a.item.contentHash && a.item.contentHash === b.item.contentHash) signals.push(contentHashSignal());

  const cosine = itemCosine(a.vectors, b.vectors);
  if (cosine !== null) {
    const similarity = similaritySignal(cosine);
    if (similarity.strength > 0) signals.push(similarity);
  }

  signals.push(...strongest(sharedEntities(a, b, frequencies, version.signals)));

  for (const finding of compareItemClaims(a.claims, b.claims, { topicsA: topicsOf(a), topicsB: topicsOf(b) })) {
    const byModel = finding.a.producer === 'model' || finding.b.producer === 'model';
    signals.push(claimSignal(finding.relation, finding.a.attribute, finding.detail, byModel));
  }

  const phrasesB = new Set(b.phrases.map((phrase) => phrase.key));
  signals.push(
    ...strongest(
      a.phrases
        .filter((phrase) => phrasesB.has(phrase.key))
        .map((phrase) => conceptSignal(phrase.phrase, frequencies.phraseItems.get(phrase.key) ?? 2, frequencies.itemCount)),
    ),
  );

  if (a.date && b.date) {
    const temporal = temporalSignal(a.date, b.date);
    if (temporal) signals.push(temporal);
  }

  signals.push(...strongest(sharedMetadata(a, b, frequencies, version.signals)));
  signals.push(...linkSignals(a, b, version.signals), ...linkSignals(b, a, version.signals));
  // A version weighs only the evidence it knows (v1 knew no links).
  return { signals: signals.filter((signal) => signal.weight !== 0), cosine };
}

/** Where `from` links to `to`, in document order, each as its author wrote it (the first few: more could not count). */
export function linkSignals(from: ItemProfile, to: ItemProfile, builders: SignalBuilders): SignalView[] {
  return (from.links ?? [])
    .filter((link) => link.toItemId === to.item.id)
    .slice(0, SIGNALS_KEPT_PER_TYPE)
    .map((link) => builders.documentLinkSignal(from.item.path, to.item.path, linkPlace(link.link.location), linkAsWritten(link.link)));
}

/** Values both items give under a key that says what they are about, in the first item's words. */
function sharedMetadata(a: ItemProfile, b: ItemProfile, frequencies: Frequencies, builders: SignalBuilders): SignalView[] {
  const valuesB = new Set(subjectMetadata(b).map(metadataValueKey));
  return subjectMetadata(a)
    .filter((entry) => valuesB.has(metadataValueKey(entry)))
    .map((entry) => {
      const count = frequencies.metadataItems.get(metadataValueKey(entry)) ?? 2;
      return builders.metadataSignal(entry.label, entry.text, count, count >= frequencies.cap);
    });
}

/**
 * Dates are left out: a shared date says when, not what (temporal_proximity covers it). A name
 * that either item knows only from the model stage gives a model-found signal; the surface shown
 * is a rule's when there is one.
 */
function sharedEntities(a: ItemProfile, b: ItemProfile, frequencies: Frequencies, builders: SignalBuilders): SignalView[] {
  const keysB = new Set(b.entities.map((entity) => entity.key));
  const ruleKeys = (profile: ItemProfile) =>
    new Set(profile.entities.filter((entity) => entity.producer === 'deterministic').map((entity) => entity.key));
  const ruleA = ruleKeys(a);
  const ruleB = ruleKeys(b);
  const seen = new Set<string>();
  const signals: SignalView[] = [];
  const byRuleFirst = [...a.entities].sort((x, y) => Number(x.producer === 'model') - Number(y.producer === 'model'));
  for (const entity of byRuleFirst) {
    if (entity.type === 'date' || seen.has(entity.key) || !keysB.has(entity.key)) continue;
    seen.add(entity.key);
    const template = frequencies.templateNames?.get(entity.key)?.items;
    if (template?.has(a.item.id) && template.has(b.item.id)) continue;
    const count = frequencies.entityItems.get(entity.key) ?? 2;
    const byModel = !ruleA.has(entity.key) || !ruleB.has(entity.key);
    signals.push(builders.sharedEntitySignal(entity.surface, entity.type, count, count >= frequencies.cap, byModel));
  }
  return signals;
}

function strongest(signals: SignalView[]): SignalView[] {
  return signals.sort((x, y) => y.strength - x.strength || x.value.localeCompare(y.value)).slice(0, SIGNALS_KEPT_PER_TYPE);
}

/** Windows per item compared for similarity, spread over the item, so a long item costs a bounded amount. */
const WINDOWS_COMPARED = 32;

/**
 * How alike two items are as wholes: for each window of one, its closest window in the other,
 * averaged, in both directions. A near-copy scores close to 1; two reports written from one
 * template about different events match on their boilerplate and little else, so they score
 * far lower than their single best pair of windows (the header table) or their mean vectors
 * (the shared house style) would suggest.
 */
export function itemCosine(a: readonly Float32Array[], b: readonly Float32Array[]): number | null {
  if (a.length === 0 || b.length === 0) return null;
  const x = spreadOver(a, WINDOWS_COMPARED);
  const y = spreadOver(b, WINDOWS_COMPARED);
  const similarities = x.map((u) => y.map((v) => cosine(u, v)));
  const bestForX = similarities.map((row) => Math.max(...row));
  const bestForY = y.map((_, j) => Math.max(...similarities.map((row) => row[j]!)));
  const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / values.length;
  return (mean(bestForX) + mean(bestForY)) / 2;
}

/** Up to `limit` values spread evenly, so a long item is represented end to end. */
export function spreadOver<T>(values: readonly T[], limit: number): T[] {
  if (values.length <= limit) return [...values];
  return Array.from({ length: limit }, (_, index) => values[Math.floor((index * values.length) / limit)]!);
}

function cosine(x: Float32Array, y: Float32Array): number {
  let dot = 0;
  let nx = 0;
  let ny = 0;
  for (let i = 0; i < x.length; i++) {
    dot += x[i]! * y[i]!;
    nx += x[i]! * x[i]!;
    ny += y[i]! * y[i]!;
  }
  return nx === 0 || ny === 0 ? 0 : dot / Math.sqrt(nx * ny);
}
