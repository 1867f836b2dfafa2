// How much extraction keeps for one item, by design rather than by luck: a 50 MB text would
// otherwise yield about a million key phrases and hundreds of thousands of claims and entity
// mentions, which the stage thread must hold, send to the main thread as one structured clone and
// the store must write in one transaction. The caps sit well above what ordinary documents give
// (docs/PERFORMANCE.md, "Memory for one large file": the largest of a sample of CUAD contracts,
// PDFs, DOCX files and Markdown knowledge bases had 3,735 key phrases, 68 claims and 2,248 entity
// mentions), so those are untouched; an item over a cap keeps a bounded, representative set and
// is flagged `extraction_capped`.

/** Per-item limits on what extraction stores. */
export interface ExtractionCaps {
  /** Key phrases: the most frequent are kept (countPhrases' order: count, then key). */
  phrases: number;
  /** Claims: kept evenly spread over the document, in document order. */
  claims: number;
  /** Entity mentions: kept evenly spread over the document, in document order. */
  entities: number;
}

/** About 10× the largest counts measured on real documents (see the top comment). */
export const EXTRACTION_CAPS: ExtractionCaps = { phrases: 40_000, claims: 5_000, entities: 25_000 };

/**
 * A bounded, evenly spread sample of a stream, in stream order, deterministic. It holds at most
 * 2 × cap items: the k-th item is kept when k is a multiple of the stride, and whenever the
 * buffer fills every other kept item is dropped and the stride doubles. `take()` then picks
 * exactly `cap` items evenly from what is held; a stream of at most `cap` items comes back whole.
 */
export class EvenSample<T> {
  private held: T[] = [];
  private stride = 1;
  /** How many items were offered. */
  seen = 0;

  constructor(private readonly cap: number) {}

  offer(item: T): void {
    if (this.seen++ % this.stride !== 0) return;
    this.held.push(item);
    if (this.held.length >= 2 * this.cap && this.cap > 0) {
      this.held = this.held.filter((_, n) => n % 2 === 0);
      this.stride *= 2;
    }
  }

  take(): T[] {
    if (this.seen <= this.cap) return this.held;
    const held = this.held;
    return Array.from({ length: Math.min(this.cap, held.length) }, (_, n) => held[Math.floor((n * held.length) / this.cap)]!);
  }
}

/** What a capped extraction says about itself, for the item's flag; null when nothing was capped. */
export function capNotice(kept: ExtractionCaps, found: ExtractionCaps, approximate: Partial<Record<keyof ExtractionCaps, boolean>> = {}): string | null {
  const parts: string[] = [];
  const say = (what: string, key: keyof ExtractionCaps) => {
    const about = approximate[key] ? 'about ' : '';
    if (found[key] > kept[key]) parts.push(`${kept[key].toLocaleString('en')} of ${about}${found[key].toLocaleString('en')} ${what}`);
  };
  say('key phrases', 'phrases');
  say('claims', 'claims');
  say('entity mentions', 'entities');
  return parts.length ? `extraction kept ${parts.join(', ')} (per-item caps)` : null;
}
