// The Proposals view in pages. A folder of 100,000 notes holds tens of thousands of relationships:
// no one reads them in one list, and sending the whole list took seconds (issue 32). The view's
// units are each type's group of proposals awaiting review, the relationships the documents' links
// state, and the Confirmed, Rejected and Conflicts sections; the server sends each unit's first
// rows in the order the view shows them and counts the rest, and the view offers "Show more" where
// a unit was cut. One definition of the units, their order and the filter for both sides, so what
// the server cuts is what the view would have shown first.

import { linkedInDocuments } from './linkedInDocuments.ts';
import { byReviewOrder } from './reviewOrder.ts';
import type { RelationshipStatus, RelationshipType, RelationshipView } from './types.ts';

/** Relationships of each unit sent at first, and added by each "Show more". */
export const PROPOSALS_PAGE_SIZE = 200;

/** What the Proposals view is narrowed to: some relationship types, some review statuses, a minimum strength. */
export interface ProposalFilter {
  /** Only these types; null for all. */
  types: RelationshipType[] | null;
  /** Only these review statuses; null for all. */
  statuses: RelationshipStatus[] | null;
  /** Strength (0-1, not a probability) at or above this; 0 keeps everything. */
  minStrength: number;
}

export const NO_FILTER: ProposalFilter = Object.freeze({ types: null, statuses: null, minStrength: 0 });

export function isFiltered(filter: ProposalFilter): boolean {
  return filter.types !== null || filter.statuses !== null || filter.minStrength > 0;
}

type Classified = Pick<RelationshipView, 'type' | 'status' | 'score' | 'signals'>;

export function passesFilter(filter: ProposalFilter, relationship: Pick<RelationshipView, 'type' | 'status' | 'score'>): boolean {
  return (
    (filter.types === null || filter.types.includes(relationship.type)) &&
    (filter.statuses === null || filter.statuses.includes(relationship.status)) &&
    relationship.score >= filter.minStrength
  );
}

/** A unit of the view: `pending:<type>` (a group awaiting review), `linked`, `confirmed`, `rejected` or `conflicts`. */
export type ProposalUnit = `pending:${string}` | 'linked' | 'confirmed' | 'rejected' | 'conflicts';

export const pendingUnit = (type: string): ProposalUnit => `pending:${type}`;

/** The units a relationship is shown in: one, and Conflicts as well for a contradiction not rejected. */
export function unitsOf(relationship: Classified): ProposalUnit[] {
  return unitsFor(relationship.type, relationship.status, linkedInDocuments(relationship));
}

/** The units of a relationship of this type and status; `linked`: pending and resting on a link alone. */
export function unitsFor(type: string, status: RelationshipStatus, linked: boolean): ProposalUnit[] {
  const units: ProposalUnit[] = [];
  if (status === 'pending') units.push(linked ? 'linked' : pendingUnit(type));
  else units.push(status);
  if (type === 'contradicts' && status !== 'rejected') units.push('conflicts');
  return units;
}

/**
 * Which relationships a unit holds, for a store to read: these statuses, resting on a link alone
 * or not (null: either), of one type or any (null). What unitsFor says, the other way round.
 */
export interface UnitMembers {
  statuses: RelationshipStatus[];
  linked: boolean | null;
  type: string | null;
}

export function membersOf(unit: ProposalUnit): UnitMembers {
  if (unit.startsWith('pending:')) return { statuses: ['pending'], linked: false, type: unit.slice('pending:'.length) };
  if (unit === 'linked') return { statuses: ['pending'], linked: true, type: null };
  if (unit === 'conflicts') return { statuses: ['pending', 'confirmed'], linked: null, type: 'contradicts' };
  return { statuses: [unit as RelationshipStatus], linked: null, type: null };
}

/** The view's order within a unit: contradictions first, then supports, then the rest; strongest first within a type. */
export function inViewOrder(a: Pick<RelationshipView, 'type' | 'score' | 'id'>, b: Pick<RelationshipView, 'type' | 'score' | 'id'>): number {
  return byReviewOrder(a.type, b.type) || b.score - a.score || a.id.localeCompare(b.id);
}
