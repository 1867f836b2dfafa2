// Proposals that re-indexing withdrew, added or changed, said in one short note ("3 proposals
// changed after notes.md was edited: 2 withdrawn, 1 new"), so a pending count that moves from 17
// to 14 never moves without a word. The session keeps what was pending and which version each
// file was at (proposalTracker.ts); after each indexing pass the two are compared. A proposal that
// left the pending list because a person decided it is not a change made by re-indexing, and is
// not counted.

export interface ProposalSnapshot {
  /** Pending proposals by id: their type and strength (to two places, as shown). */
  pending: Map<string, { type: string; score: string }>;
  /** Every live file's version, by path. */
  versions: Map<string, number>;
}

export interface ProposalChanges {
  withdrawn: number;
  added: number;
  changed: number;
  /** Files added, edited or removed between the snapshots. */
  edited: string[];
}

/** What re-indexing did to the proposals; `decided` holds the ids a person confirmed or rejected meanwhile. */
export function proposalChanges(before: ProposalSnapshot, after: ProposalSnapshot, decided: ReadonlySet<string>): ProposalChanges {
  let withdrawn = 0;
  let changed = 0;
  for (const [id, was] of before.pending) {
    const now = after.pending.get(id);
    if (!now) {
      if (!decided.has(id)) withdrawn += 1;
    } else if (now.type !== was.type || now.score !== was.score) {
      changed += 1;
    }
  }
  const added = [...after.pending.keys()].filter((id) => !before.pending.has(id)).length;
  const paths = new Set([...before.versions.keys(), ...after.versions.keys()]);
  const edited = [...paths].filter((path) => before.versions.get(path) !== after.versions.get(path)).sort();
  return { withdrawn, added, changed, edited };
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The note, or null when re-indexing changed no proposal. */
export function describeProposalChanges(changes: ProposalChanges): string | null {
  const total = changes.withdrawn + changes.added + changes.changed;
  if (total === 0) return null;
  const parts = [
    changes.withdrawn ? `${changes.withdrawn} withdrawn` : '',
    changes.added ? `${changes.added} new` : '',
    changes.changed ? `${changes.changed} with a new type or strength` : '',
  ].filter(Boolean);
  const files = changes.edited;
  const after =
    files.length === 0 ? 'after re-indexing' : files.length === 1 ? `after ${files[0]} was edited` : files.length <= 3 ? `after ${files.join(', ')} were edited` : `after ${files.length} files were edited`;
  return `${count(total, 'proposal')} changed ${after}: ${parts.join(', ')}.`;
}
