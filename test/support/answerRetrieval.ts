// A retrieval for answer tests: three passages about the GC-2 refurbishment's cost, a recorded
// contradiction between the first two, and the pending relationship that brought the third in.
// The ids and paths look like real ones so that tests can check they never reach a model.

import assert from 'node:assert/strict';
import type { AnswerConflict, AnswerResult, RelationshipView } from '../../shared/types.ts';
import type { Retrieval } from '../../server/src/answer/answer.ts';

export const MAINTENANCE = { item_id: 'item-maintenance-7f3a', path: 'maintenance/gc2-report.md', title: 'GC-2 refurbishment report' };
export const FINANCE = { item_id: 'item-finance-91bc', path: 'finance/q2-review.md', title: 'Q2 capital budget review' };
export const HANDOVER = { item_id: 'item-handover-0d12', path: 'notes/handover.md', title: 'Handover GC-2' };

export const CONFLICT: AnswerConflict = {
  relationship_id: 'rel-contradiction-1',
  items: [MAINTENANCE, FINANCE],
  detail: 'The sources give different figures for cost: 42000 and 51500. Relata does not decide which is correct.',
};

export const EXPANSION: RelationshipView = {
  id: 'rel-supports-2',
  from: HANDOVER,
  to: MAINTENANCE,
  type: 'supports',
  score: 0.52,
  score_version: 'relationship-score-v1',
  status: 'pending',
  near_duplicate: false,
  signals: [],
  produced_by: 'discover@1',
  created_at: '2025-06-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
  decided_by: null,
  decided_at: null,
  note: null,
  changed_since_decision: null,
};

export function costRetrieval(): Retrieval {
  return {
    sources: [
      { ...MAINTENANCE, location: { kind: 'lines', start: 12, end: 20 }, passage: 'The refurbishment of GC-2 by Example Ltd cost EUR 42,000.' },
      { ...FINANCE, location: { kind: 'lines', start: 28, end: 31 }, passage: 'The GC-2 refurbishment by Example Ltd cost EUR 51,500.' },
      { ...HANDOVER, location: { kind: 'lines', start: 3, end: 9 }, passage: 'Crane GC-2 handed back to operations; cost €42k.' },
    ],
    conflicts: [CONFLICT],
    inferredRelationships: [EXPANSION],
  };
}

/**
 * The guarantees that must hold for any reply whatever: the retrieval is intact, every citation
 * (listed or inline) names a supplied label, sufficiency is backed by a citation, and an answer is
 * either given or rejected with a reason.
 */
export function assertGuaranteesHold(result: AnswerResult, retrieval: Retrieval): void {
  assert.deepEqual(
    result.sources.map(({ label, ...source }) => [label, source]),
    retrieval.sources.map((source, index) => [`S${index + 1}`, source]),
  );
  assert.deepEqual(result.conflicts, retrieval.conflicts);
  assert.deepEqual(result.inferred_relationships, retrieval.inferredRelationships);
  const supplied = new Set(result.sources.map((source) => source.label));
  for (const label of result.citations) assert.ok(supplied.has(label), `cites a supplied label: ${label}`);
  for (const [, inner] of (result.answer ?? '').matchAll(/\[\s*(S\d+(?:\s*[,;]\s*S\d+)*)\s*\]/gi)) {
    for (const label of inner!.split(/\s*[,;]\s*/)) assert.ok(supplied.has(label.toUpperCase()), `inline marker names a supplied label: ${label}`);
  }
  if (result.sufficient) assert.ok(result.citations.length > 0 && result.answer !== null, 'sufficiency is backed by a citation');
  assert.equal(result.answer === null, result.rejected_reason !== null, 'an answer is either given or rejected with a reason');
}
