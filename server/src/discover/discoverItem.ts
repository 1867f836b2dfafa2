// Discovery for one item: gather bounded candidates, weigh each pair's evidence under the current
// scoring model, and store what reaches the storage threshold as a pending proposal. Decisions
// people made are respected: a rejected pair is never re-proposed, a confirmed one keeps its
// confirmation while its evidence is brought up to date. Nothing is auto-confirmed.

import type { SignalView } from '../../../shared/types.ts';
import {
  inferType,
  modelSignal,
  SCORE_VERSION,
  scoreSignals,
  type Thresholds,
} from '../scoring/index.ts';
import type { ItemRecord, RelationshipRecord, WorkspaceStore } from '../store/contract.ts';
import { gatherCandidates } from './candidates.ts';
import type { ClassifierInput, RelationshipClassifier } from './classifier.ts';
import { pairEvidence, type Frequencies } from './evidence.ts';
import { DEFAULT_LIMITS, type CandidateLimits } from './limits.ts';
import { loadProfile, type ItemProfile } from './profile.ts';

/** Recorded on every proposal as what produced it; bump when candidate or evidence rules change. */
export const DISCOVER_VERSION = 'discover@1';

export interface DiscoverOptions {
  /** The embedding model whose vectors give neighbours and similarity; null when embedding is off. */
  modelId: string | null;
  thresholds: Thresholds;
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
  const subject = await loadProfile(store, item, options.modelId);
  const entityItems = await store.entityItemCounts([...new Set(subject.entities.map((entity) => entity.key))]);
  const candidates = await gatherCandidates(store, subject, options.modelId, options.limits ?? DEFAULT_LIMITS, entityItems);
  outcome.candidates = candidates.size;

  for (const candidateId of [...candidates.keys()].sort()) {
    const other = await store.getItem(candidateId);
    if (!other || other.deletedAt) continue;
    const existing = await store.relationshipBetween(itemId, candidateId);
    if (existing?.status === 'rejected') {
      outcome.keptRejected += 1;
      continue;
    }
    const profile = await loadProfile(store, other, options.modelId);
    const frequencies = await frequenciesFor(store, subject, profile, entityItems);
    const evidence = pairEvidence(subject, profile, frequencies);
    let signals = evidence.signals;
    let proposedScore = scoreSignals(signals).score;
    if (proposedScore < options.thresholds.minScore && !existing) {
      outcome.discarded += 1;
      continue;
    }
    let modelType = null;
    if (options.classifier && proposedScore >= options.thresholds.minScore) {
      const opinion = await options.classifier.classify(await classifierInput(store, subject.item), await classifierInput(store, other));
      if (opinion) {
        modelType = opinion.type;
        signals = [...signals, modelSignal(opinion.type, opinion.confidence, options.classifier.name)];
        proposedScore = scoreSignals(signals).score;
      }
    }
    if (proposedScore < options.thresholds.storeScore && !existing) continue;

    const [from, to] = orient(subject, profile);
    const type = inferType({ signals, modelType, dateA: from.date, dateB: to.date });
    const decision = existing ? decisionSignals(existing) : [];
    const allSignals = [...signals, ...decision];
    const { outcome: stored } = await store.upsertRelationship({
      fromItemId: from.item.id,
      toItemId: to.item.id,
      type,
      score: scoreSignals(allSignals).score,
      proposedScore,
      scoreVersion: SCORE_VERSION,
      nearDuplicate: evidence.cosine !== null && evidence.cosine >= options.thresholds.nearDuplicateSimilarity,
      signals: allSignals,
      producedBy: DISCOVER_VERSION,
    });
    if (stored === 'kept_rejected') outcome.keptRejected += 1;
    else if (proposedScore >= options.thresholds.storeScore) outcome.stored += 1;
  }
  return outcome;
}

/** A copy reads "derived_from" its original: the duplicate (or, failing that, the later item) comes first. */
function orient(subject: ItemProfile, other: ItemProfile): [ItemProfile, ItemProfile] {
  if (subject.item.contentHash !== other.item.contentHash) return [subject, other];
  if (other.item.duplicateOf === subject.item.id) return [other, subject];
  if (subject.item.duplicateOf === other.item.id) return [subject, other];
  return subject.item.createdAt >= other.item.createdAt ? [subject, other] : [other, subject];
}

function decisionSignals(existing: RelationshipRecord): SignalView[] {
  return existing.signals.filter((signal) => signal.type === 'user_confirmation' || signal.type === 'user_rejection');
}

async function frequenciesFor(
  store: WorkspaceStore,
  a: ItemProfile,
  b: ItemProfile,
  entityItems: Map<string, number>,
): Promise<Frequencies> {
  const phrasesB = new Set(b.phrases.map((phrase) => phrase.key));
  const shared = a.phrases.map((phrase) => phrase.key).filter((key) => phrasesB.has(key));
  return { entityItems, phraseItems: shared.length > 0 ? await store.phraseDocumentFrequencies(shared) : new Map() };
}

/** The model sees the opening passage and the title, never ids or paths. */
async function classifierInput(store: WorkspaceStore, item: ItemRecord): Promise<ClassifierInput> {
  const [first] = await store.listChunks(item.id);
  return { title: item.title, text: (first?.text ?? '').slice(0, 1500) };
}
