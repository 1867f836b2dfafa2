// The pipeline's threads (parsing, chunking, embedding, extraction, discovery) run at a lower scheduling
// priority than the threads that answer a person (the main thread, the search threads, the
// query's model thread): on a two-core machine a search made while two items are discovered
// otherwise waits its turn for a core behind them. Linux keeps a nice value per thread, so
// os.setPriority(0, …) called in a thread lowers that thread alone (and threads it starts later);
// on other systems it would lower the whole process, so it is left alone there.

import { getPriority, setPriority } from 'node:os';

/** The nice value of a pipeline thread: below a person's requests, above nothing else. */
export const BACKGROUND_NICE = 10;

/** Lowers the calling thread's priority to BACKGROUND_NICE (never raises it); whether it did. */
export function lowerThisThreadsPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    if (getPriority(0) >= BACKGROUND_NICE) return false;
    setPriority(0, BACKGROUND_NICE);
    return true;
  } catch {
    return false; // A sandbox that forbids it: the thread runs as before.
  }
}
