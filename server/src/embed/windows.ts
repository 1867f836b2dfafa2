// A model reads a fixed number of tokens (USE-lite: 128) and silently drops the rest, while a
// chunk is sized for reading (150-400 words, often 300-700 tokens). Cutting a chunk into
// sentence-aligned windows that each fit lets every token reach the model, one vector per window
// (docs/EMBEDDINGS.md, "Making every token count", has the measurement).

export interface TextWindow {
  /** What the model reads: the window's sentences without surrounding whitespace. */
  text: string;
  /** Character offsets into the chunk text. Windows tile it: the first starts at 0, each starts
   * where the previous ends, and the last ends at text.length. */
  start: number;
  end: number;
}

let segmenter: Intl.Segmenter | undefined;

/**
 * Greedily packs whole sentences into windows of at most `maxTokens` tokens, in order. A sentence
 * longer than that is a window of its own (the model reads its beginning). Token counts are
 * summed per sentence, so `countTokens` should count the way the model tokenizes (a sentence
 * joined to the next costs what it costs alone). Text without a visible character has no window.
 */
export function packWindows(text: string, maxTokens: number, countTokens: (text: string) => number): TextWindow[] {
  if (!(maxTokens >= 1)) throw new RangeError(`maxTokens must be at least 1, got ${maxTokens}`);
  if (!/\S/.test(text)) return [];
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });

  const bounds: number[] = []; // where each window ends
  let tokens = 0;
  let end = 0;
  for (const { segment, index } of segmenter.segment(text)) {
    const count = countTokens(segment);
    if (end > 0 && tokens > 0 && tokens + count > maxTokens) {
      bounds.push(end);
      tokens = 0;
    }
    tokens += count;
    end = index + segment.length;
  }
  bounds.push(text.length);

  const windows: TextWindow[] = [];
  let start = 0;
  for (const bound of bounds) {
    const previous = windows[windows.length - 1];
    const piece = text.slice(start, bound).trim();
    // Only a tail the counter gave no tokens can be blank; it belongs to the window before it.
    if (piece === '' && previous !== undefined) {
      previous.end = bound;
    } else {
      windows.push({ text: piece, start, end: bound });
    }
    start = bound;
  }
  return windows;
}
