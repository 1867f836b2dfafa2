// Builders for each signal, under one relationship-score version, with the plain-words detail a
// person reads beside it. Strength rules live here: rebased similarity, the frequency discount of entities and
// metadata values, the concept base strength, temporal decay.

import { MODEL_FOUND_LABEL, type EntityType, type SignalType, type SignalView } from '../../../shared/types.ts';
import { round } from './score.ts';
import type { ScoreConstants } from './constants.ts';
import { LIVE_SCORE_VERSION } from './model.ts';

/**
 * An entity shared by many items says little about any pair: strength ×= 1 / (1 + ln f), where f
 * is the number of items mentioning it beyond the first, so an entity only this pair shares
 * keeps full strength and one in most documents is heavily discounted.
 */
export function frequencyDiscount(itemsMentioning: number): number {
  const frequency = Math.max(1, itemsMentioning - 1);
  return 1 / (1 + Math.log(frequency));
}

const ENTITY_NOUNS: Record<EntityType, string> = {
  organisation: 'organisation',
  person: 'person',
  email: 'email address',
  date: 'date',
  place: 'place',
  product: 'product or tool',
  identifier: 'identifier',
  code: 'name from code',
  url: 'web address',
  domain: 'domain',
};

/** The signal builders of one scoring version: each signal carries that version's weight. */
export function signalsFor(version: ScoreConstants) {
  function signal(type: SignalType, value: string, strength: number, detail: string): SignalView {
    return { type, value, strength: round(Math.min(1, Math.max(0, strength))), weight: version.weights[type] ?? 0, detail };
  }

  /**
   * Evidence resting on the model stage's reading: its strength is discounted (MODEL_FOUND_FACTOR)
   * and its detail says who found it, whatever screen shows it.
   */
  function foundByModel(evidence: SignalView, which: string): SignalView {
    return {
      ...evidence,
      strength: round(evidence.strength * version.modelFoundFactor),
      detail: `${evidence.detail} ${which} was ${MODEL_FOUND_LABEL}, so it counts for half.`,
      found_by_model: true,
    };
  }

  const builders = {
    /** Ordinary similarity within one corpus counts for little: strength = max(0, (cos − 0.55) / 0.45). */
    rebasedSimilarity(cosine: number): number {
      return Math.max(0, (cosine - version.similarityFloor) / (1 - version.similarityFloor));
    },

    contentHashSignal(): SignalView {
      return signal('content_hash_match', 'identical bytes', 1, 'The two files have byte-identical content.');
    },

    /**
     * `folder`: where the version judges similarity within the folder, what is ordinary there for
     * the pair (the lower of the two items' typical cosines, and how many spreads above both the
     * pair stands); the strength is then the smaller of the rebased cosine and the standing's share.
     */
    similaritySignal(cosine: number, folder?: { typical: number; standing: number } | null): SignalView {
      const caution = 'Similar wording is not evidence that two items describe the same thing.';
      const standing = version.similarityStanding;
      if (!standing || !folder) {
        return signal('semantic_similarity', `${cosine.toFixed(2)} cosine`, builders.rebasedSimilarity(cosine), `How alike the wording and subject matter are. ${caution}`);
      }
      const share = (folder.standing - standing.from) / (standing.full - standing.from);
      const above = folder.standing > 0 ? `${folder.standing.toFixed(1)} spreads above` : 'no higher than';
      return signal(
        'semantic_similarity',
        `${cosine.toFixed(2)} cosine, ${above} this folder's typical ${folder.typical.toFixed(2)}`,
        Math.min(builders.rebasedSimilarity(cosine), Math.max(0, share)),
        `How alike the wording and subject matter are, against how alike pages of this folder usually are: it counts from ` +
          `${standing.from} spreads above both items' typical similarity, fully at ${standing.full}. ${caution}`,
      );
    },

    /**
     * The texts share most of their word sequences (five words in a row): `kind` says whether they
     * are near-copies or the shorter is a draft (or excerpt) of the longer; strength is the share
     * that makes it so.
     */
    sharedTextSignal(kind: 'near_copy' | 'draft', share: number, shorterPath: string): SignalView {
      const percent = `${Math.round(share * 100)}%`;
      return kind === 'near_copy'
        ? signal('shared_text', `${percent} of word sequences shared`, share, `The two texts are near-copies: ${percent} of their five-word sequences are the same. A copy repeats its original; it does not corroborate it.`)
        : signal('shared_text', `${percent} of ${shorterPath} in the other`, share, `${shorterPath} reads as a draft or excerpt of the other: ${percent} of its five-word sequences are in it. A copy repeats its original; it does not corroborate it.`);
    },

    /**
     * `countStopped`: the count stopped at a cap, so the entity is in at least that many items.
     * `byModel`: at least one of the two items names it only through the model stage.
     */
    sharedEntitySignal(surface: string, type: EntityType, itemsMentioning: number, countStopped = false, byModel = false): SignalView {
      const discounted = itemsMentioning > 2 ? ` It appears in ${countStopped ? 'at least ' : ''}${itemsMentioning} items, so it counts for less.` : '';
      const guessed = type === 'product' && version.guessedNameFactor < 1;
      const shared = signal(
        'shared_entity',
        surface,
        frequencyDiscount(itemsMentioning) * (guessed ? version.guessedNameFactor : 1),
        `Both items refer to this ${ENTITY_NOUNS[type]}.${discounted}${guessed ? ' The name is guessed from its capitals, so it counts for half.' : ''}`,
      );
      return byModel ? foundByModel(shared, 'It') : shared;
    },

    aliasEntitySignal(surfaceA: string, surfaceB: string): SignalView {
      return signal('alias_entity', `${surfaceA} = ${surfaceB}`, 1, `A person confirmed that ${surfaceA} and ${surfaceB} are the same.`);
    },

    /**
     * The comparison's detail already names both figures and, for a contradiction, says Relata does not decide.
     * `byModel`: either figure was read by the model stage.
     */
    claimSignal(relation: 'supports' | 'contradicts', attribute: string, detail: string, byModel = false): SignalView {
      const compared = signal(relation === 'supports' ? 'claim_support' : 'claim_contradiction', attribute, 1, detail);
      return byModel ? foundByModel(compared, 'One of the figures') : compared;
    },

    /** `itemCount`: the folder's files, when the phrase was chosen by its tf-idf weight in them (relationship-score-v2). */
    conceptSignal(phrase: string, itemsMentioning: number, itemCount?: number): SignalView {
      const why =
        itemCount === undefined
          ? 'Both items use this phrase prominently.'
          : `The phrase sets both items apart: it is in ${itemsMentioning} of ${itemCount} files.`;
      return signal(
        'shared_concept',
        phrase,
        version.conceptBaseStrength * frequencyDiscount(itemsMentioning),
        `${why} Concepts overlap by nature, so this counts for less than a shared name.`,
      );
    },

    temporalSignal(dateA: string, dateB: string): SignalView | null {
      const days = Math.abs(Date.parse(dateA) - Date.parse(dateB)) / 86_400_000;
      if (!Number.isFinite(days) || days >= version.temporalWindowDays) return null;
      const when = days < 1 ? 'the same day' : `${Math.round(days)} day${Math.round(days) === 1 ? '' : 's'} apart`;
      return signal(
        'temporal_proximity',
        `${dateA} and ${dateB}`,
        1 - days / version.temporalWindowDays,
        `The items are dated ${when}. Closeness in time is not evidence that one caused or explains the other.`,
      );
    },

    /**
     * The same value under the same key in both items' own metadata (front matter, document
     * properties): discounted as a shared entity is, by the items giving themselves that value.
     * `countStopped`: the count stopped at a cap.
     */
    metadataSignal(key: string, value: string, itemsSharing: number, countStopped = false): SignalView {
      const discounted = itemsSharing > 2 ? ` ${countStopped ? 'At least ' : ''}${itemsSharing} items give it, so it counts for less.` : '';
      return signal(
        'shared_metadata',
        `${key}: ${value}`,
        frequencyDiscount(itemsSharing),
        `Both items give ${key}: ${value} in their own metadata (front matter or document properties).${discounted}`,
      );
    },

    /**
     * One file links to the other, as its author wrote (relationship-score-v2). `value` says which way
     * and where: "a.md links to b.md at line 12: [the build guide](../b/)". Full strength: the author
     * said it; several links between one pair diminish as any repeated signal does.
     */
    documentLinkSignal(fromPath: string, toPath: string, place: string, asWritten: string): SignalView {
      return signal(
        'document_link',
        `${fromPath} links to ${toPath} at ${place}: ${asWritten}`,
        1,
        `The author of ${fromPath} links to ${toPath}. A link says the files belong together, not that they agree.`,
      );
    },

    modelSignal(type: string, confidence: number, model: string): SignalView {
      return signal(
        'model_classification',
        type,
        confidence,
        `A language model (${model}) suggested this type. A model's opinion is one weak signal, never the score.`,
      );
    },

    decisionSignal(status: 'confirmed' | 'rejected', by: string, note: string | null): SignalView {
      const suffix = note ? ` Note: ${note}` : '';
      return status === 'confirmed'
        ? signal('user_confirmation', by, 1, `Confirmed by ${by}.${suffix}`)
        : signal('user_rejection', by, 1, `Rejected by ${by}. Nothing was deleted; the proposal and its evidence are kept.${suffix}`);
    },
  };
  return builders;
}

export type SignalBuilders = ReturnType<typeof signalsFor>;

/** The live version's builders, as screens and decisions use them. */
export const {
  rebasedSimilarity,
  contentHashSignal,
  similaritySignal,
  sharedTextSignal,
  sharedEntitySignal,
  aliasEntitySignal,
  claimSignal,
  conceptSignal,
  temporalSignal,
  metadataSignal,
  documentLinkSignal,
  modelSignal,
  decisionSignal,
} = signalsFor(LIVE_SCORE_VERSION);
