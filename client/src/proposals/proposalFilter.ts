// What the Proposals view is narrowed to: some relationship types, some review statuses, a minimum
// strength. Remembered per workspace (workspaceState), so it is read back as untrusted data and
// anything malformed is dropped rather than hiding proposals for no visible reason. What a filter
// is and what passes it is shared with the server (shared/proposalPages.ts), which applies it
// before it cuts the view into pages.

import { isFiltered, NO_FILTER, passesFilter, type ProposalFilter } from '../../../shared/proposalPages.ts';
import type { RelationshipStatus } from '../../../shared/types.ts';
import { typeName } from '../../../shared/wording.ts';
import { REVIEW_ORDER } from './relationshipLook.ts';

export { isFiltered, NO_FILTER, passesFilter, type ProposalFilter };

export const STATUSES: readonly RelationshipStatus[] = ['pending', 'confirmed', 'rejected'];

function listOf<T extends string>(raw: unknown, allowed: readonly T[]): T[] | null {
  if (!Array.isArray(raw)) return null;
  const kept = allowed.filter((value) => raw.includes(value));
  return kept.length > 0 ? kept : null;
}

/** A stored filter read back; anything not a filter this version understands becomes "no filter" for that part. */
export function readProposalFilter(raw: unknown): ProposalFilter {
  if (typeof raw !== 'object' || raw === null) return NO_FILTER;
  const stored = raw as Record<string, unknown>;
  const min = stored.minStrength;
  return {
    types: listOf(stored.types, REVIEW_ORDER),
    statuses: listOf(stored.statuses, STATUSES),
    minStrength: typeof min === 'number' && Number.isFinite(min) && min >= 0 && min <= 1 ? min : 0,
  };
}

/** The filter in words for the view's description, e.g. "contradicts, supports · pending · strength ≥ 0.40"; empty when none. */
export function describeFilter(filter: ProposalFilter): string {
  return [
    filter.types?.map(typeName).join(', '),
    filter.statuses?.join(', '),
    filter.minStrength > 0 ? `strength ≥ ${filter.minStrength.toFixed(2)}` : undefined,
  ]
    .filter((part): part is string => Boolean(part))
    .join(' · ');
}

/** A minimum strength typed by a person: a number from 0 to 1, or the reason it is not one. */
export function parseMinStrength(text: string): { value: number } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: 0 };
  const value = Number(trimmed.replace(',', '.'));
  if (!Number.isFinite(value) || value < 0 || value > 1) return { problem: `"${trimmed}" is not a strength: type a number from 0 to 1, e.g. 0.4` };
  return { value };
}
