// relationship-score-v2: v1 plus what the documents themselves say, with evidence judged within
// the folder (docs/SCORING.md gives each rule and the measurement behind it). A link an author wrote
// (`[the build guide](../b/)`, `[[Build guide]]`, `related: [b]`) is a person's statement that the
// two files belong together, so `document_link` weighs enough that a link alone is stored (0.30,
// above the 0.25 storage threshold), as strongly as similarity can at its best and below a
// byte-identical copy. Repeated links between one pair diminish like any signal: a page linking
// its neighbour ten times says it once. A name guessed from capitals counts for half
// (GUESSED_NAME_FACTOR_V2). Every other number is v1's, unchanged (docs/SCORING.md).

import type { SignalType } from '../../../shared/types.ts';
import type { ScoreConstants } from './constants.ts';
import { RELATIONSHIP_SCORE_V1, SIGNAL_WEIGHTS_V1 } from './v1.ts';

export const SCORE_VERSION_V2 = 'relationship-score-v2';

export const SIGNAL_WEIGHTS_V2: Readonly<Record<SignalType, number>> = Object.freeze({
  ...SIGNAL_WEIGHTS_V1,
  document_link: 0.3,
  // Near-copies by their text: as strong as identical bytes at full overlap (v1 flagged them by a cosine alone).
  shared_text: 0.45,
});

/**
 * A pair's cosine counts from 2 spreads above what is ordinary for both its items (about the top
 * 2% of an item's pairs, were they normal) and fully at 5; never more than v1's rebased cosine, so
 * a folder of unrelated pages cannot lift a weak cosine. Where every pair is alike (German guides
 * under the English model: median 0.895) similarity then adds nothing.
 */
export const SIMILARITY_STANDING_V2 = Object.freeze({ from: 2, full: 5 });

/**
 * A product or tool name is the rules' guess from capitals alone (entities/names.ts): 0.71 of them
 * were right in a hand-labelled sample (docs/EXTRACTION.md), against 0.97-1.00 for identifiers, code
 * names and addresses. Shared, one counts for half a name a rule vouches for, as a model-found one does.
 */
export const GUESSED_NAME_FACTOR_V2 = 0.5;

export const RELATIONSHIP_SCORE_V2 = Object.freeze({
  ...RELATIONSHIP_SCORE_V1,
  version: SCORE_VERSION_V2,
  weights: SIGNAL_WEIGHTS_V2,
  guessedNameFactor: GUESSED_NAME_FACTOR_V2,
  similarityStanding: SIMILARITY_STANDING_V2,
  rules: Object.freeze({
    similarity: 'within_folder',
    concepts: 'tf_idf',
    claimsNeedTie: true,
    nearDuplicates: 'shared_text',
    chronologyNeedsSpecificName: true,
    templateNamesDiscounted: true,
  }),
}) satisfies ScoreConstants;
