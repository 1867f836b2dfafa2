// How often a busy server sends `relata/status`. A status counts over the whole store (items by
// state, chunks, vectors, the queue by stage): 25-30 ms at 100,000 files early in a cold index,
// more as vectors and finished jobs pile up, and all of it on the thread that answers the editor.
// Spacing the reports by what the last one cost keeps them to a small share of that thread however
// large the folder grows; a small folder still gets one every STATUS_INTERVAL_MS.

/** How often, at most, a busy server sends `relata/status`. */
export const STATUS_INTERVAL_MS = 400;

/** The most of the main thread's time status reports may take while counts move: one part in this many. */
const STATUS_SHARE = 20;

/** The wait before the next report, given what the last one took to count. */
export function statusDelayMs(lastReportMs: number): number {
  return Math.max(STATUS_INTERVAL_MS, Math.ceil(lastReportMs * STATUS_SHARE));
}
