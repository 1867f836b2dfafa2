// The combined version of the deterministic extractors, recorded per item: when any extractor
// changes its version, items extracted by the older one are queued again.

import { CLAIM_EXTRACTOR_VERSION } from './claims/index.ts';
import { CONCEPT_EXTRACTOR_VERSION } from './concepts.ts';
import { ENTITY_EXTRACTOR_VERSION } from './entities/index.ts';

export const EXTRACTOR_VERSIONS = [ENTITY_EXTRACTOR_VERSION, CLAIM_EXTRACTOR_VERSION, CONCEPT_EXTRACTOR_VERSION].join('+');
