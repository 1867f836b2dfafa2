// USE-lite's SentencePiece-style tokenizer, rewritten for speed with token ids identical to the
// package's own (@energetic-ai/embeddings 0.2.0). The package slices the remaining input at every
// position and walks a trie of objects, about 24 ms per abstract; this walks an integer trie in
// place, about 40 times faster. Its quirks are kept on purpose, because the model was run with
// them and vectors must not change: NFKC, only U+0020 becomes "▁", an unknown character scores 0
// (so it beats any real piece), ties go to the later start, unreachable positions count as
// unknown, and runs of unknowns collapse into one id 0.

/** The model's vocabulary as shipped in vocab.json: [piece, log-probability] by id. */
export type Vocabulary = ReadonlyArray<readonly [string, number]>;

/** Ids below this are control symbols (unknown, <s>, </s>, ...): never matched in text. */
const RESERVED_IDS = 6;
const UNKNOWN_ID = 0;
const WORD_START = '\u2581';

export class UseLiteTokenizer {
  // Trie of code points. Node 0 is the root; a node's children live in one Map keyed by
  // (node, code point) so that a walk allocates nothing.
  private readonly children = new Map<number, number>();
  private readonly pieceId: number[] = [0];
  private readonly pieceScore: number[] = [0];
  /** Length in UTF-16 units, as the package steps back over a piece when reading the best path. */
  private readonly pieceLength: Int32Array;

  constructor(vocabulary: Vocabulary) {
    this.pieceLength = new Int32Array(vocabulary.length);
    for (let id = 0; id < vocabulary.length; id++) this.pieceLength[id] = vocabulary[id]![0].length;
    // The package marks nodes as "piece ends" with pieceId >= 0; a later duplicate overwrites.
    this.pieceId[0] = -1;
    for (let id = RESERVED_IDS; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id]!;
      let node = 0;
      for (const symbol of piece) {
        const key = childKey(node, symbol.codePointAt(0)!);
        let next = this.children.get(key);
        if (next === undefined) {
          next = this.pieceId.length;
          this.pieceId.push(-1);
          this.pieceScore.push(0);
          this.children.set(key, next);
        }
        node = next;
      }
      if (node !== 0) {
        this.pieceId[node] = id;
        this.pieceScore[node] = score;
      }
    }
  }

  /** Token ids for `text`, untruncated, exactly as the package's `Tokenizer.encode` returns them. */
  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    if (normalized.length === 0) return [];
    const input = WORD_START + normalized.replaceAll(' ', WORD_START);

    const symbols: number[] = [];
    for (let i = 0; i < input.length; i++) {
      const code = input.codePointAt(i)!;
      symbols.push(code);
      if (code > 0xffff) i++;
    }
    const n = symbols.length;

    // Best path by end position. 0 means "not reached yet" (the package's test, kept as is:
    // a path of unknowns that sums to exactly 0 is overwritten by any later candidate).
    const best = new Float64Array(n + 1);
    const word = new Int32Array(n + 1);
    for (let start = 0; start < n; start++) {
      const base = best[start]!;
      let node = 0;
      let matched = false;
      for (let k = start; k < n; k++) {
        const next = this.children.get(childKey(node, symbols[k]!));
        if (next === undefined) break;
        node = next;
        const id = this.pieceId[node]!;
        if (id < 0) continue;
        matched = true;
        relax(best, word, k + 1, this.pieceScore[node]! + base, id);
      }
      if (!matched) relax(best, word, start + 1, 0 + base, UNKNOWN_ID);
    }

    const reversed: number[] = [];
    for (let at = n; at > 0; at -= this.pieceLength[word[at]!]!) reversed.push(word[at]!);
    const ids: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === UNKNOWN_ID)) ids.push(id);
      previousUnknown = id === UNKNOWN_ID;
    }
    return ids.reverse();
  }

  /** The ids the embedder gives the model for `text` (before the 128-token cut). */
  modelIds(text: string): number[] {
    return this.encode(collapseWhitespace(text));
  }

  /** Tokens the model would see before its 128-token cut. */
  countTokens(text: string): number {
    return this.modelIds(text).length;
  }
}

/**
 * SentencePiece's default normaliser trims and collapses whitespace before a model sees it; the
 * package skips that step, so a line break became an unknown token and the next word lost its
 * word-start piece. The embedder restores it (descriptor version 1).
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function relax(best: Float64Array, word: Int32Array, end: number, score: number, id: number): void {
  if (best[end] === 0 || score >= best[end]!) {
    best[end] = score;
    word[end] = id;
  }
}

/** Code points stop at 0x10FFFF (21 bits); node numbers fit above them in a safe integer. */
function childKey(node: number, codePoint: number): number {
  return node * 0x200000 + codePoint;
}
