// Discovery for one item: gather bounded candidates, weigh each pair's evidence under the current
// scoring model, and store what reaches the storage threshold as a pending proposal. Decisions
// people made are respected: a rejected pair is never re-proposed, a confirmed one keeps its
// confirmation while what was confirmed still holds (decisionReview.ts). Nothing is auto-confirmed.

import type { SignalView } from '../../../shared/types.ts';
import {
  countedSignals,
  inferType,
  LIVE_SCORE_VERSION,
  ruleFoundScore,
  scoreSignals,
  signalsFor,
  type ScoreConstants,
  type SignalBuilders,
  type Thresholds,
} from '../scoring/index.ts';
import type { ItemRecord, RelationshipRecord, WorkspaceStore } from '../store/contract.ts';
import { gatherCandidates } from './candidates.ts';
import { itemLinks } from './links/itemLinks.ts';
import { reviewAgainstDecision } from './decisionReview.ts';
import type { ClassifierInput, RelationshipClassifier } from './classifier.ts';
import { pairEvidence, type Frequencies, type PairReading } from './evidence.ts';
import { similarityBaselines } from './folderSimilarity.ts';
import { folderView } from './folderView.ts';
import { indexedItems, phraseCounts, phraseMemory } from './phraseMemory.ts';
import { itemCosine } from './itemCosine.ts';
import { copyKind, shingledItem, textOverlap, type TextOverlap } from './sharedText.ts';
import { DEFAULT_LIMITS, type CandidateLimits } from './limits.ts';
import { loadProfiles, subjectMetadata, type ItemProfile } from './profile.ts';
import { templateNames } from './templateText.ts';

/** Recorded on every proposal as what produced it; bump when candidate or evidence rules change. */
export const DISCOVER_VERSION = 'discover@3';

export interface DiscoverOptions {
  /** The embedding model whose vectors give neighbours and similarity; null when embedding is off. */
  modelId: string | null;
  thresholds: Thresholds;
  /** The scoring version to weigh evidence under; the live one unless a person asked for another. */
  version?: ScoreConstants;
  limits?: CandidateLimits;
  classifier?: RelationshipClassifier | null;
}

export interface DiscoverOutcome {
  candidates: number;
  /** Pairs whose evidence reached the storage threshold (new or updated proposals). */
  stored: number;
  /** Pairs a person rejected: left alone. */
  keptRejected: number;
  /** Pairs below the minimum score, dropped before any model call. */
  discarded: number;
}

export async function discoverItem(store: WorkspaceStore, itemId: string, options: DiscoverOptions): Promise<DiscoverOutcome> {
  const outcome: DiscoverOutcome = { candidates: 0, stored: 0, keptRejected: 0, discarded: 0 };
  const item = await store.getItem(itemId);
  if (!item || item.deletedAt || !item.contentHash) return outcome;
  const limits = options.limits ?? DEFAULT_LIMITS;
  const version = options.version ?? LIVE_SCORE_VERSION;
  const builders = signalsFor(version);
  // v2 compares the phrases that set an item apart in the folder (rule 2); v1 its most frequent.
  const phraseChoice = { concepts: version.rules.concepts, frequencyCap: limits.frequencyCap };
  const [subject] = await loadProfiles(store, [item], options.modelId, phraseChoice);
  // Links are resolved against the folder's live items as they are now (discover/links), read
  // once per change to the folder's items rather than once per item (folderView.ts).
  const folder = await folderView(store);
  const linkable = folder.links;
  subject!.links = (await itemLinks(store, item, linkable)).resolved;
  const phrases = await phraseMemory(store);
  const frequencies: Frequencies = {
    entityItems: await store.entityItemCounts(nameKeys(subject!), limits.frequencyCap),
    // Shared phrases are among the subject's own, so their frequencies are read once per item.
    phraseItems: await phraseCounts(store, phrases, subject!.phrases.map((phrase) => phrase.key), limits.frequencyCap),
    // Shared values are among the subject's own too.
    metadataItems: await store.metadataItemCounts(subjectMetadata(subject!), limits.frequencyCap),
    cap: limits.frequencyCap,
    itemCount: version.rules.concepts === 'tf_idf' ? await indexedItems(store, phrases) : undefined,
  };
  const related = new Map<string, RelationshipRecord>();
  for (const relationship of await store.relationshipsTouching([itemId])) {
    related.set(relationship.fromItemId === itemId ? relationship.toItemId : relationship.fromItemId, relationship);
  }
  const aliases = await store.confirmedAliases(nameKeys(subject!));
  const candidates = await gatherCandidates(store, subject!, options.modelId, limits, frequencies.entityItems, frequencies.metadataItems, related, aliases);
  outcome.candidates = candidates.size;

  const others: ItemRecord[] = [];
  for (const candidateId of [...candidates.keys()].sort()) {
    const other = await store.getItem(candidateId);
    if (other && !other.deletedAt) others.push(other);
  }

  const profiles = await loadProfiles(store, others, options.modelId, phraseChoice);
  if (version.rules.similarity === 'within_folder' && options.modelId) {
    const baselines = await similarityBaselines(store, options.modelId, [subject!, ...profiles], folder.similarity);
    for (const profile of [subject!, ...profiles]) profile.baseline = baselines.get(profile.item.id) ?? null;
  }
  // v2: a name standing where a template puts it, in both files of a pair, is not evidence (rule 8).
  if (version.rules.templateNamesDiscounted) frequencies.templateNames = await templateNames(store, subject!, profiles, frequencies.entityItems);

  for (const profile of profiles) {
    // The other item's links too, so the pair gives the same evidence from either end.
    profile.links = (await itemLinks(store, profile.item, linkable)).resolved;
    const existing = related.get(profile.item.id) ?? null;
    // Evidence is read in the relationship's direction, so the pair gives the same signals from either end.
    const reading = await readPair(store, subject!, profile, version);
    const [from, to] = orient(subject!, profile, existing, reading.overlap);
    // The overlap was read from the subject's end; the evidence reads from the relationship's.
    const oriented = from === subject || !reading.overlap ? reading : { ...reading, overlap: { ...reading.overlap, shorter: reading.overlap.shorter === 'a' ? ('b' as const) : ('a' as const) } };
    const confirmedAliases = aliasSignals(from, to, aliases, builders);
    const evidence = pairEvidence(from, to, frequencies, { rules: version.rules, signals: builders }, { ...oriented, aliasTies: confirmedAliases.map((signal) => signal.value) });
    const found = [...evidence.signals, ...confirmedAliases];
    // A model cannot manufacture a relationship: what the model stage found counts only on a pair
    // that rule-found evidence alone brings to the minimum score, as the classifier's opinion does.
    const ruleScore = ruleFoundScore(found);
    if (ruleScore < options.thresholds.minScore && !existing) {
      outcome.discarded += 1;
      continue;
    }
    let signals = countedSignals(found, options.thresholds.minScore);
    let proposedScore = scoreSignals(signals).score;
    let modelType = null;
    // A rejected pair is never re-proposed, so no model is asked about it; its evidence is still
    // weighed, so a material change can be shown to the person who rejected it.
    if (options.classifier && ruleScore >= options.thresholds.minScore && existing?.status !== 'rejected') {
      const opinion = await options.classifier.classify(await classifierInput(store, from.item), await classifierInput(store, to.item));
      if (opinion) {
        modelType = opinion.type;
        signals = [...signals, builders.modelSignal(opinion.type, opinion.confidence, options.classifier.name)];
        proposedScore = scoreSignals(signals).score;
      }
    }
    if (proposedScore < options.thresholds.storeScore && !existing) continue;

    // v2 dates a pair only by the events its files state, tied by a specific name (rule 7).
    const chronology = version.rules.chronologyNeedsSpecificName;
    const type = inferType({
      signals,
      modelType,
      dateA: chronology ? from.eventDate : from.date,
      dateB: chronology ? to.eventDate : to.date,
      chronologyNeedsSpecificName: chronology,
    });
    // The evidence alone: the pair's decision is applied by the store inside its write, to the
    // decision as it stands then, not as it was read above.
    const { outcome: stored } = await store.upsertRelationship(
      {
        fromItemId: from.item.id,
        toItemId: to.item.id,
        type,
        score: proposedScore,
        proposedScore,
        scoreVersion: version.version,
        nearDuplicate:
          version.rules.nearDuplicates === 'shared_text'
            ? evidence.copy !== null
            : evidence.cosine !== null && evidence.cosine >= options.thresholds.nearDuplicateSimilarity,
        signals,
        producedBy: DISCOVER_VERSION,
      },
      reviewAgainstDecision,
    );
    if (stored === 'kept_rejected') outcome.keptRejected += 1;
    else if (proposedScore >= options.thresholds.storeScore) outcome.stored += 1;
  }
  return outcome;
}

/**
 * Below this cosine two texts are not read for shared word sequences: a near-copy or a draft sits
 * far above it (its windows each find their twin), and reading every candidate's text would cost
 * a folder's worth of passages per item.
 */
const COPY_COSINE = 0.7;

/** The pair's cosine, and under v2 its texts' overlap where the cosine says they may be copies. */
async function readPair(store: WorkspaceStore, a: ItemProfile, b: ItemProfile, version: ScoreConstants): Promise<PairReading> {
  const cosine = itemCosine(a.vectors, b.vectors);
  const mayBeCopies = cosine === null ? a.vectors.length === 0 || b.vectors.length === 0 : cosine >= COPY_COSINE;
  if (version.rules.nearDuplicates !== 'shared_text' || !mayBeCopies || a.item.contentHash === b.item.contentHash) return { cosine, overlap: null };
  const overlap = textOverlap(await shingledItem(store, a.item), await shingledItem(store, b.item));
  return { cosine, overlap };
}

/**
 * Which end a relationship reads from. A copy reads "derived_from" its original: the duplicate
 * (or, failing that, the later item) comes first; a draft (the shorter of two texts one of which
 * holds the other) comes first too. A link reads from the file that wrote it, when
 * only one of the two links to the other. Otherwise an existing relationship keeps its
 * direction, so discovering the pair from its other end does not flip it, and a new one reads
 * from the file whose path sorts first: the same from either end, so two items discovered at
 * once (two discovery lanes, two indexers) propose the pair the same way round.
 */
function orient(subject: ItemProfile, other: ItemProfile, existing: RelationshipRecord | null, overlap: TextOverlap | null): [ItemProfile, ItemProfile] {
  if (subject.item.contentHash === other.item.contentHash) {
    if (other.item.duplicateOf === subject.item.id) return [other, subject];
    if (subject.item.duplicateOf === other.item.id) return [subject, other];
    return laterFirst(subject, other);
  }
  const copy = overlap ? copyKind(overlap) : null;
  if (copy === 'draft') return overlap!.shorter === 'a' ? [subject, other] : [other, subject];
  if (copy === 'near_copy') return laterFirst(subject, other);
  // A link reads from the file that wrote it: "a.md links_to b.md", whichever end is discovered.
  const forward = (subject.links ?? []).some((link) => link.toItemId === other.item.id);
  const backward = (other.links ?? []).some((link) => link.toItemId === subject.item.id);
  if (forward !== backward) return forward ? [subject, other] : [other, subject];
  if (existing) return existing.fromItemId === other.item.id ? [other, subject] : [subject, other];
  return byPath(subject.item, other.item) <= 0 ? [subject, other] : [other, subject];
}

/** The item stored later first; of two stored in the same millisecond, the one whose path sorts last. */
function laterFirst(subject: ItemProfile, other: ItemProfile): [ItemProfile, ItemProfile] {
  if (subject.item.createdAt !== other.item.createdAt) return subject.item.createdAt > other.item.createdAt ? [subject, other] : [other, subject];
  return byPath(subject.item, other.item) > 0 ? [subject, other] : [other, subject];
}

/** Code-point order of the two paths (then ids, for two items of one path), the same on every machine. */
function byPath(a: ItemRecord, b: ItemRecord): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The item's names (not dates), the keys aliases can attach to. */
function nameKeys(profile: ItemProfile): string[] {
  return [...new Set(profile.entities.filter((entity) => entity.type !== 'date').map((entity) => entity.key))];
}

/**
 * One signal per confirmed alias linking a name in one item to its other form in the other (and
 * not already shared). Read from the relationship's first item, with both items' own spellings,
 * so the pair gives the same signal from either end.
 */
function aliasSignals(from: ItemProfile, to: ItemProfile, aliases: Map<string, { key: string }[]>, builders: SignalBuilders): SignalView[] {
  const linked = new Set<string>();
  for (const [key, forms] of aliases) for (const form of forms) linked.add(`${key}|${form.key}`).add(`${form.key}|${key}`);
  const toKeys = new Set(to.entities.map((entity) => entity.key));
  const signals: SignalView[] = [];
  const said = new Set<string>();
  for (const mine of from.entities) {
    if (toKeys.has(mine.key)) continue;
    for (const theirs of to.entities) {
      const pair = `${mine.key}|${theirs.key}`;
      if (!linked.has(pair) || said.has(pair)) continue;
      said.add(pair);
      signals.push(builders.aliasEntitySignal(mine.surface, theirs.surface));
    }
  }
  return signals;
}

/** The model sees the opening passage and the title, never ids or paths. */
async function classifierInput(store: WorkspaceStore, item: ItemRecord): Promise<ClassifierInput> {
  const [first] = await store.listChunks(item.id);
  return { title: item.title, text: (first?.text ?? '').slice(0, 1500) };
}
