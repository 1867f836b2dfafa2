// The signals between two items, read off their profiles: byte identity, rebased similarity,
// shared names (discounted by how common they are), agreeing or disagreeing figures, shared key
// phrases, closeness of their dates, values both give in their own metadata, and the links either
// one's author wrote to the other (relationship-score-v2). Only what fired
// is returned; each signal carries its own plain-words detail.

import type { SignalView } from '../../../shared/types.ts';
import { compareItemClaims } from '../extract/claims/compare.ts';
import type { EvidenceRules, SignalBuilders } from '../scoring/index.ts';
import { standing } from './folderSimilarity.ts';
import { itemCosine } from './itemCosine.ts';
import { copyKind, type CopyKind, type TextOverlap } from './sharedText.ts';
import { metadataValueKey } from '../parse/metadata.ts';
import { linkAsWritten, linkPlace } from './links/itemLinks.ts';
import { subjectMetadata, topicsOf, type ItemProfile } from './profile.ts';

/** Per signal type, the strongest few are kept on the relationship: the rest could not count (diminishing returns end at three). */
const SIGNALS_KEPT_PER_TYPE = 6;

export interface PairEvidence {
  signals: SignalView[];
  /** Mutual best-match cosine of the two items' windows (see itemCosine); null when either has no vectors. */
  cosine: number | null;
  /** The texts are near-copies, or one a draft of the other (v2: by shared text; v1 flags by cosine in discoverItem). */
  copy: CopyKind | null;
}

/** What discovery read about the pair beyond the two profiles: the texts' overlap, when it was worth reading. */
export interface PairReading {
  cosine: number | null;
  overlap: TextOverlap | null;
  /** Names of one item a person confirmed as the same as names of the other (confirmed aliases): they tie the pair as a shared name does. */
  aliasTies?: readonly string[];
}

/**
 * A shared name, identifier or link specific enough that two items' figures can be about the same
 * thing (v2, rule 3): a shared name counts from this strength after the frequency discount, i.e.
 * one at most four items give (1 / (1 + ln 3) = 0.48 for five). Two banks' contracts that share
 * only the regulators every such contract names are not tied, so their fees are never compared.
 */
export const TIE_STRENGTH = 0.45;

/**
 * Under v2, figures are compared only between documents dated within a year of each other (or
 * undated): two agency agreements of one agent, ten years apart, give its fee as $25,000 and
 * $30,000, and neither is wrong.
 */
export const SAME_MOMENT_DAYS = 366;

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

export function pairEvidence(a: ItemProfile, b: ItemProfile, frequencies: Frequencies, version: EvidenceVersion, reading?: PairReading): PairEvidence {
  const { claimSignal, conceptSignal, contentHashSignal, sharedTextSignal, similaritySignal, temporalSignal } = version.signals;
  const { rules } = version;
  const signals: SignalView[] = [];
  if (a.item.contentHash && a.item.contentHash === b.item.contentHash) signals.push(contentHashSignal());

  // The model's cosine means nothing on a language it does not read (issue 28, embed/languages.ts).
  const cosine = a.readByModel === false || b.readByModel === false ? null : reading ? reading.cosine : itemCosine(a.vectors, b.vectors);
  if (cosine !== null) {
    const folder = rules.similarity === 'within_folder' ? folderStanding(cosine, a, b) : null;
    // Within the folder, a pair no item's sample can judge (a folder of a handful) is not judged at all.
    const similarity = rules.similarity === 'within_folder' && !folder ? null : similaritySignal(cosine, folder);
    if (similarity && similarity.strength > 0) signals.push(similarity);
  }

  const entities = strongest(sharedEntities(a, b, frequencies, version.signals));
  signals.push(...entities);

  const links = [...linkSignals(a, b, version.signals), ...linkSignals(b, a, version.signals)];
  const tiedBy = [
    ...entities.filter((signal) => !signal.found_by_model && signal.strength >= TIE_STRENGTH).map((signal) => signal.value),
    ...(reading?.aliasTies ?? []),
    ...links.map((signal) => signal.value),
  ];
  // Figures of documents dated years apart describe different moments: a different fee in 1999 and
  // 2009 is a change, not a contradiction (v2: such a pair compares directions only).
  const sameMoment = !a.date || !b.date || Math.abs(Date.parse(a.date) - Date.parse(b.date)) <= SAME_MOMENT_DAYS * 86_400_000;
  const findings = compareItemClaims(a.claims, b.claims, {
    topicsA: topicsOf(a),
    topicsB: topicsOf(b),
    requireTie: rules.claimsNeedTie,
    tiedBy: rules.claimsNeedTie && !sameMoment ? [] : tiedBy,
  });
  const overlap = rules.nearDuplicates === 'shared_text' ? (reading?.overlap ?? null) : null;
  // A changed figure makes near-copies a comparison, never a duplicate; and a copy never corroborates its original.
  const copy = overlap && !findings.some((finding) => finding.relation === 'contradicts') ? copyKind(overlap) : null;
  if (copy) {
    const shorter = overlap!.shorter === 'a' ? a : b;
    signals.push(sharedTextSignal(copy, copy === 'near_copy' ? overlap!.overlap : overlap!.containment, shorter.item.path));
  }
  for (const finding of findings) {
    if (copy && finding.relation === 'supports') continue;
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
  signals.push(...links);
  // A version weighs only the evidence it knows (v1 knew no links).
  return { signals: signals.filter((signal) => signal.weight !== 0), cosine, copy };
}

/** How the pair's cosine stands against what is ordinary for both items in the folder; null when either has no baseline. */
function folderStanding(cosine: number, a: ItemProfile, b: ItemProfile): { typical: number; standing: number } | null {
  if (!a.baseline || !b.baseline) return null;
  return { typical: Math.min(a.baseline.typical, b.baseline.typical), standing: standing(cosine, a.baseline, b.baseline) };
}

/** Where `from` links to `to`, in document order, each as its author wrote it (the first few: more could not count). */
export function linkSignals(from: ItemProfile, to: ItemProfile, builders: SignalBuilders): SignalView[] {
  return (from.links ?? [])
    .filter((link) => link.toItemId === to.item.id)
    .slice(0, SIGNALS_KEPT_PER_TYPE)
    .map((link) => builders.documentLinkSignal(from.item.path, to.item.path, linkPlace(link.link.location, from.item.path), linkAsWritten(link.link)));
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
