// A relationship as the editor is shown one, for the views' tests and benchmarks: a pending v1
// proposal from discovery with no decision, so each caller names only the fields it is about.

import type { RelationshipView } from '../../shared/types.ts';

export function relationshipView(fields: Pick<RelationshipView, 'id' | 'from' | 'to' | 'type' | 'score'> & Partial<RelationshipView>): RelationshipView {
  return {
    score_version: 'relationship-score-v1',
    status: 'pending',
    near_duplicate: false,
    signals: [],
    produced_by: 'discover@1',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    decided_by: null,
    decided_at: null,
    note: null,
    changed_since_decision: null,
    ...fields,
  };
}
