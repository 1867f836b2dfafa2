// MongoDB's answer when an insert meets a unique index: how the store notices that another process
// created the same record first (a job, a relationship, an event), and then reads or updates the
// record that won instead of failing.

/** MongoDB's error code for a unique index violation. */
export const DUPLICATE_KEY = 11000;

/** True when the error is a single write refused by a unique index. */
export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/**
 * The positions, in the operations sent, of the writes a bulk write refused as duplicates; null when
 * the error is something else, or when any write failed for another reason (the caller rethrows).
 */
export function duplicateKeyPositions(error: unknown): number[] | null {
  if (typeof error !== 'object' || error === null) return null;
  const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
  if (writeErrors === undefined) return null;
  const list = (Array.isArray(writeErrors) ? writeErrors : [writeErrors]) as { code?: unknown; index?: unknown }[];
  if (list.some((entry) => entry.code !== DUPLICATE_KEY || typeof entry.index !== 'number')) return null;
  return list.map((entry) => entry.index as number);
}
