// The combined version of the extractors, recorded per item: when any extractor changes its
// version, or the model stage is switched on, off or to another model, items extracted otherwise
// are queued again (the model stage's cache makes that free for passages it has read before).

import { CLAIM_EXTRACTOR_VERSION } from './claims/index.ts';
import { CONCEPT_EXTRACTOR_VERSION } from './concepts.ts';
import { ENTITY_EXTRACTOR_VERSION } from './entities/index.ts';

export const EXTRACTOR_VERSIONS = [ENTITY_EXTRACTOR_VERSION, CLAIM_EXTRACTOR_VERSION, CONCEPT_EXTRACTOR_VERSION].join('+');

/**
 * What an item's extraction is recorded as: the rules' versions, and the model stage's
 * (model-extract@1(<model>)) when it runs. An extraction whose model calls did not all get an
 * answer is recorded as incomplete, which matches no configuration, so the next run extracts it again.
 */
export function extractionVersions(modelStage: string | null | undefined, complete = true): string {
  if (!modelStage) return EXTRACTOR_VERSIONS;
  return `${EXTRACTOR_VERSIONS}+${modelStage}${complete ? '' : ' incomplete'}`;
}
