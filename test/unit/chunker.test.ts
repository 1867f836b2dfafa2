import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import type { Location } from '../../shared/types.ts';
import type { Block, BlockKind } from '../../server/src/parse/types.ts';
import {
  CHUNKER_VERSION,
  chunkBlocks,
  countWords,
  DEFAULT_MAX_CHARS,
  DEFAULT_MAX_WORDS,
  type Chunk,
} from '../../server/src/chunk/chunker.ts';
import { icuSentenceEnds, SEGMENTER_WINDOW } from '../../server/src/chunk/sentences.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import {
  abbreviationHeavy,
  hugeToken,
  lineOfSentences,
  lineWithoutPunctuation,
} from '../support/hostileText.ts';

// ---------------------------------------------------------------------------------------------
// Helpers

function lines(start: number, end = start): Location {
  return { kind: 'lines', start, end };
}

function pages(start: number, end = start): Location {
  return { kind: 'pages', start, end };
}

function block(kind: BlockKind, text: string, headingPath: string[], location: Location): Block {
  return { kind, text, headingPath, location };
}

/** `n` distinct words ("alpha1 alpha2 ..."), no sentence punctuation. */
function filler(n: number, prefix = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join(' ');
}

/** Prose of `count` sentences of `len` words each, every one ending with a full stop. */
function prose(count: number, len: number, prefix = 's'): string {
  const out: string[] = [];
  for (let s = 0; s < count; s++) {
    const words = Array.from({ length: len }, (_, i) => `${prefix}${s}x${i}`);
    out.push(words.join(' ') + '.');
  }
  return out.join(' ');
}

function wordsOf(text: string): string[] {
  return text.match(/\S+/g) ?? [];
}

function allWords(chunks: Chunk[]): string[] {
  return chunks.flatMap((c) => wordsOf(c.text));
}

// ---------------------------------------------------------------------------------------------
// Rules

describe('chunkBlocks', () => {
  it('has a version and produces nothing for no (or only blank) blocks', () => {
    assert.equal(CHUNKER_VERSION, 'chunker@1');
    assert.deepEqual(chunkBlocks([]), []);
    assert.deepEqual(
      chunkBlocks([
        block('paragraph', '   ', [], lines(1)),
        block('paragraph', '\n\t\n', [], lines(2)),
      ]),
      [],
    );
  });

  it('merges small sections into chunks within the size band', () => {
    // Five sections of 2 + 60 words. A heading opens a new chunk only once the current one has
    // 150 words, so sections 1-3 (186 words) form one chunk and sections 4-5 (124) another.
    const blocks: Block[] = [];
    for (let s = 1; s <= 5; s++) {
      blocks.push(block('heading', `Section ${s}`, [`Section ${s}`], lines(s * 10)));
      blocks.push(block('paragraph', filler(60, `p${s}w`), [`Section ${s}`], lines(s * 10 + 2, s * 10 + 6)));
    }
    const chunks = chunkBlocks(blocks);
    assert.equal(chunks.length, 2);
    assert.deepEqual(chunks.map((c) => c.wordCount), [186, 124]);
    assert.ok(chunks[0]!.text.startsWith('Section 1\n\n'));
    assert.ok(chunks[1]!.text.startsWith('Section 4\n\n'));
    assert.deepEqual(chunks[0]!.headingPath, ['Section 1']);
    assert.deepEqual(chunks[1]!.headingPath, ['Section 4']);
    assert.deepEqual(chunks[0]!.location, lines(10, 36));
    assert.deepEqual(chunks[1]!.location, lines(40, 56));
  });

  it('gives each section its own chunk once sections reach minWords', () => {
    const blocks: Block[] = [];
    for (let s = 1; s <= 3; s++) {
      blocks.push(block('heading', `Part ${s}`, [`Part ${s}`], lines(s * 100)));
      blocks.push(block('paragraph', filler(90, `a${s}w`), [`Part ${s}`], lines(s * 100 + 1)));
      blocks.push(block('list_item', filler(90, `b${s}w`), [`Part ${s}`], lines(s * 100 + 2)));
    }
    const chunks = chunkBlocks(blocks);
    assert.equal(chunks.length, 3);
    chunks.forEach((c, i) => {
      assert.equal(c.ordinal, i);
      assert.equal(c.wordCount, 182);
      assert.ok(c.text.startsWith(`Part ${i + 1}\n\n`));
      assert.deepEqual(c.headingPath, [`Part ${i + 1}`]);
    });
  });

  it('joins block texts with a blank line and includes headings', () => {
    const chunks = chunkBlocks([
      block('heading', 'Root cause', ['Root cause'], lines(1)),
      block('paragraph', '  The mast chain was worn.  ', ['Root cause'], lines(3)),
      block('list_item', 'Replace chains yearly.', ['Root cause'], lines(5)),
    ]);
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]!.text, 'Root cause\n\nThe mast chain was worn.\n\nReplace chains yearly.');
    assert.equal(chunks[0]!.wordCount, 10);
  });

  it('never exceeds maxWords, even for a block made of one over-long sentence', () => {
    const blocks = [
      block('paragraph', filler(120, 'a'), [], lines(1)),
      block('paragraph', 'Short start. ' + filler(900, 'long') + '. Short end.', [], lines(2)),
      block('paragraph', filler(380, 'c'), [], lines(3)),
      block('paragraph', filler(50, 'd'), [], lines(4)),
    ];
    const chunks = chunkBlocks(blocks);
    for (const c of chunks) assert.ok(c.wordCount <= 400, `chunk ${c.ordinal} has ${c.wordCount} words`);
    assert.deepEqual(allWords(chunks), blocks.flatMap((b) => wordsOf(b.text)));
    // The long sentence is the only thing cut mid-sentence: "Short start." still ends a piece
    // or is followed by the long sentence's first word in the same chunk.
    const joined = chunks.map((c) => c.text).join('\n\n');
    assert.ok(joined.includes('Short start. long1'));
  });

  it('splits a long paragraph at sentence ends into pieces of at most maxWords', () => {
    // 60 sentences of 12 words (720 words) with abbreviations that must not end a piece.
    const sentences: string[] = [];
    for (let i = 0; i < 60; i++) {
      const body = Array.from({ length: 10 }, (_, j) => `t${i}x${j}`).join(' ');
      sentences.push(i % 7 === 3 ? `Dr. Osei ${body.split(' ').slice(2).join(' ')} ok?` : `${body} done.`);
    }
    const text = sentences.join(' ');
    const chunks = chunkBlocks([block('paragraph', text, ['Notes'], lines(7, 19))]);
    assert.equal(chunks.length, 2, 'ceil(720 / 400) pieces, as even as sentences allow');
    for (const c of chunks) {
      assert.ok(c.wordCount <= 400);
      assert.ok(c.wordCount >= 300, `pieces are balanced, got ${c.wordCount}`);
      assert.match(c.text, /[.!?]$/, 'each piece ends with sentence punctuation');
      assert.doesNotMatch(c.text, /\bDr\.$/);
      assert.deepEqual(c.headingPath, ['Notes']);
      assert.deepEqual(c.location, lines(7, 19));
    }
    assert.deepEqual(allWords(chunks), wordsOf(text));
  });

  it('splits at sentence ends with a smaller maxWords too', () => {
    const text = prose(30, 9); // 270 words in sentences of 9
    const chunks = chunkBlocks([block('paragraph', text, [], lines(1))], { minWords: 20, maxWords: 50 });
    assert.ok(chunks.length >= 6);
    for (const c of chunks) {
      assert.ok(c.wordCount <= 50);
      assert.match(c.text, /\.$/);
      assert.equal(c.wordCount % 9, 0, 'whole sentences only');
    }
    assert.deepEqual(allWords(chunks), wordsOf(text));
  });

  it('records the heading path of the first non-heading block and the union of line ranges', () => {
    // # Incident report           (line 1)
    // intro paragraph             (lines 3-4)
    // ## Timeline                 (line 6)
    // - item 1..3                 (lines 8-10)
    // ## Root cause               (line 12)
    // ### Equipment               (line 14)
    // paragraph                   (lines 16-18)
    const blocks = [
      block('heading', 'Incident report', ['Incident report'], lines(1)),
      block('paragraph', filler(30, 'intro'), ['Incident report'], lines(3, 4)),
      block('heading', 'Timeline', ['Incident report', 'Timeline'], lines(6)),
      block('list_item', filler(15, 'i1w'), ['Incident report', 'Timeline'], lines(8)),
      block('list_item', filler(15, 'i2w'), ['Incident report', 'Timeline'], lines(9)),
      block('list_item', filler(15, 'i3w'), ['Incident report', 'Timeline'], lines(10)),
      block('heading', 'Root cause', ['Incident report', 'Root cause'], lines(12)),
      block('heading', 'Equipment', ['Incident report', 'Root cause', 'Equipment'], lines(14)),
      block('paragraph', filler(40, 'eq'), ['Incident report', 'Root cause', 'Equipment'], lines(16, 18)),
    ];
    const chunks = chunkBlocks(blocks, { minWords: 30, maxWords: 80 });
    assert.deepEqual(
      chunks.map((c) => ({ path: c.headingPath, loc: c.location, words: c.wordCount })),
      [
        { path: ['Incident report'], loc: lines(1, 4), words: 32 },
        { path: ['Incident report', 'Timeline'], loc: lines(6, 10), words: 46 },
        { path: ['Incident report', 'Root cause', 'Equipment'], loc: lines(12, 18), words: 43 },
      ],
    );
    assert.ok(chunks[2]!.text.startsWith('Root cause\n\nEquipment\n\n'));
  });

  it('takes the heading path from the first body block when a chunk starts mid-section', () => {
    const blocks = [
      block('heading', 'A', ['A'], lines(1)),
      block('paragraph', filler(60, 'a'), ['A'], lines(2)),
      block('paragraph', filler(60, 'b'), ['A'], lines(3)),
      block('heading', 'B', ['B'], lines(4)),
      block('paragraph', filler(20, 'c'), ['B'], lines(5)),
    ];
    const chunks = chunkBlocks(blocks, { minWords: 100, maxWords: 100 });
    // The second paragraph does not fit; the chunk it opens continues with section B.
    assert.equal(chunks.length, 2);
    assert.deepEqual(chunks[1]!.headingPath, ['A']);
    assert.deepEqual(chunks[1]!.location, lines(3, 5));
  });

  it('never ends a chunk on a heading when the heading can travel with its content', () => {
    const blocks = [
      block('paragraph', filler(140, 'a'), ['Intro'], lines(1)),
      block('heading', 'Actions', ['Actions'], lines(3)),
      block('paragraph', filler(300, 'b'), ['Actions'], lines(5)),
    ];
    const chunks = chunkBlocks(blocks);
    assert.equal(chunks.length, 2);
    assert.equal(chunks[0]!.wordCount, 140);
    assert.ok(!chunks[0]!.text.includes('Actions'));
    assert.ok(chunks[1]!.text.startsWith('Actions\n\n'));
    assert.deepEqual(chunks[1]!.headingPath, ['Actions']);
    assert.deepEqual(chunks[1]!.location, lines(3, 5));
  });

  it('attaches stacked headings to the content after them', () => {
    const blocks = [
      block('heading', 'Northgate incident report', ['Northgate incident report'], lines(1)),
      block('heading', 'Summary', ['Northgate incident report', 'Summary'], lines(3)),
      block('paragraph', filler(20, 's'), ['Northgate incident report', 'Summary'], lines(5)),
    ];
    // Even with minWords 0 (every heading may open a chunk) a heading never stands alone.
    const chunks = chunkBlocks(blocks, { minWords: 0, maxWords: 400 });
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0]!.headingPath, ['Northgate incident report', 'Summary']);
  });

  it('closes a chunk at a page change once it has minWords, and merges short pages', () => {
    const blocks = [
      block('paragraph', filler(40, 'p1a'), [], pages(1)),
      block('paragraph', filler(40, 'p1b'), [], pages(1)),
      block('paragraph', filler(100, 'p2a'), [], pages(2)),
      block('paragraph', filler(60, 'p2b'), [], pages(2)),
      block('paragraph', filler(120, 'p3a'), [], pages(3)),
      block('paragraph', filler(80, 'p4a'), [], pages(4)),
    ];
    const chunks = chunkBlocks(blocks);
    // Page 1 (80 words) is short, so it runs on into page 2; at 240 words the change to page 3
    // closes the chunk; page 3 (120) is short and runs on into page 4.
    assert.deepEqual(
      chunks.map((c) => [c.location, c.wordCount]),
      [
        [pages(1, 2), 240],
        [pages(3, 4), 200],
      ],
    );
  });

  it('does not treat a paragraph continuing on its page as a page change', () => {
    const blocks = [
      block('paragraph', filler(200, 'a'), [], pages(1, 2)),
      block('paragraph', filler(100, 'b'), [], pages(2)),
    ];
    const chunks = chunkBlocks(blocks);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0]!.location, pages(1, 2));
  });

  it('merges a small final chunk into the previous one when it fits', () => {
    const tail = [
      block('paragraph', filler(200, 'a'), ['A'], lines(1)),
      block('heading', 'Contact', ['Contact'], lines(3)),
      block('paragraph', 'ops@example.com', ['Contact'], lines(4)),
    ];
    const merged = chunkBlocks(tail);
    assert.equal(merged.length, 1);
    assert.equal(merged[0]!.wordCount, 202);
    assert.deepEqual(merged[0]!.location, lines(1, 4));

    // 61 words is not < 150 / 3, so it stays a chunk of its own.
    const kept = chunkBlocks([
      block('paragraph', filler(200, 'a'), ['A'], lines(1)),
      block('heading', 'Contact', ['Contact'], lines(3)),
      block('paragraph', filler(60, 'b'), ['Contact'], lines(4)),
    ]);
    assert.deepEqual(kept.map((c) => c.wordCount), [200, 61]);

    // And a small tail that would push the previous chunk over maxWords stays apart.
    const full = chunkBlocks([
      block('paragraph', filler(395, 'a'), ['A'], lines(1)),
      block('paragraph', filler(10, 'b'), ['A'], lines(2)),
    ]);
    assert.deepEqual(full.map((c) => c.wordCount), [395, 10]);
  });

  it('is deterministic and does not modify its input', () => {
    const blocks = [
      block('heading', 'Summary', ['Summary'], lines(1)),
      block('paragraph', prose(50, 11), ['Summary'], lines(3, 30)),
      block('table_row', 'Gantry crane | Example Ltd | EUR 42,000', ['Summary'], lines(32)),
      block('code', '\n\n  let x = 1;\n  x++;\n\n', ['Summary'], lines(34, 37)),
    ];
    const snapshot = structuredClone(blocks);
    const a = chunkBlocks(blocks);
    const b = chunkBlocks(structuredClone(blocks));
    assert.deepEqual(a, b);
    assert.deepEqual(blocks, snapshot);
    a[0]!.headingPath.push('mutated');
    assert.deepEqual(blocks, snapshot, 'chunks do not alias the input heading paths');
    assert.ok(a[a.length - 1]!.text.endsWith('  let x = 1;\n  x++;'), 'code keeps its indentation');
  });

  it('rejects nonsensical options', () => {
    const blocks = [block('paragraph', 'hello', [], lines(1))];
    assert.throws(() => chunkBlocks(blocks, { maxWords: 0 }), RangeError);
    assert.throws(() => chunkBlocks(blocks, { minWords: -1 }), RangeError);
    assert.throws(() => chunkBlocks(blocks, { maxWords: Number.NaN }), RangeError);
    // minWords above maxWords is clamped rather than refused.
    assert.equal(chunkBlocks(blocks, { minWords: 500, maxWords: 10 }).length, 1);
  });
});

// ---------------------------------------------------------------------------------------------
// Property-style test over random block lists

const VOCAB = [
  'the', 'crane', 'bay', 'forklift', 'Northgate', 'inspection', 'supplier', 'EUR', '42,000',
  'Dr.', 'Ms.', 'e.g.', 'U.S.', 'No.', '3.5', 'end?Next', '"quoted"', '(see', 'page)', '§4.2',
  'ops@example.com', 'https://example.com/a.b', 'naïve', '—', 'A.', 'v1.2.3',
];
const ENDINGS = ['.', '.', '.', '?', '!', '."', '.)', '…'];

interface Generated {
  blocks: Block[];
  minWords: number;
  maxWords: number;
}

function generate(rand: () => number): Generated {
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  let wordSerial = 0;
  const word = (): string => (rand() < 0.15 ? pick(VOCAB) : `w${wordSerial++}`);
  const sentence = (len: number): string =>
    Array.from({ length: len }, word).join(' ') + pick(ENDINGS);
  const text = (): string => {
    const r = rand();
    if (r < 0.05) return pick(['', ' ', '\n\t ']);
    if (r < 0.1) return Array.from({ length: int(150, 700) }, word).join(' '); // one run-on sentence
    const target = r < 0.55 ? int(1, 30) : r < 0.9 ? int(30, 200) : int(200, 900);
    const parts: string[] = [];
    let n = 0;
    while (n < target) {
      const len = int(1, 30);
      parts.push(sentence(len));
      n += len;
    }
    return parts.map((p, i) => (i === 0 ? p : pick([' ', ' ', ' ', '  ', '\n', '\n\n']) + p)).join('');
  };

  const maxWords = rand() < 0.2 ? 400 : int(5, 400);
  const minWords = rand() < 0.2 ? Math.min(150, maxWords) : int(0, maxWords);
  const locKind = pick(['lines', 'pages', 'blocks'] as const);
  let cursor = 1;
  const path: string[] = [];
  const blocks: Block[] = [];
  const count = int(0, 40);
  for (let i = 0; i < count; i++) {
    const kind = pick<BlockKind>(['heading', 'heading', 'paragraph', 'paragraph', 'paragraph', 'list_item', 'table_row', 'code']);
    let t: string;
    if (kind === 'heading') {
      const level = int(1, 3);
      t = Array.from({ length: int(1, 8) }, word).join(' ');
      path.length = Math.min(path.length, level - 1);
      path.push(t);
    } else {
      t = text();
    }
    let location: Location;
    if (locKind === 'lines') {
      const span = int(0, 6);
      location = { kind: 'lines', start: cursor, end: cursor + span };
      cursor += span + int(1, 3);
    } else if (locKind === 'pages') {
      cursor += rand() < 0.3 ? 1 : 0;
      const span = rand() < 0.15 ? 1 : 0;
      location = { kind: 'pages', start: cursor, end: cursor + span };
      cursor += span;
    } else {
      location = { kind: 'blocks', start: cursor, end: cursor };
      cursor += 1;
    }
    blocks.push({ kind, text: t, headingPath: [...path], location });
  }
  return { blocks, minWords, maxWords };
}

describe('chunkBlocks invariants over random documents', () => {
  it('holds for 400 seeded random block lists', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const { blocks, minWords, maxWords } = generate(seededRandom(seed));
      const ctx = `seed ${seed} (min ${minWords}, max ${maxWords})`;
      const chunks = chunkBlocks(blocks, { minWords, maxWords });

      // Which block each input word comes from.
      const inputWords: string[] = [];
      const owner: number[] = [];
      blocks.forEach((b, i) => {
        for (const w of wordsOf(b.text)) {
          inputWords.push(w);
          owner.push(i);
        }
      });

      // Every word appears exactly once, in order.
      assert.deepEqual(allWords(chunks), inputWords, ctx);
      if (inputWords.length === 0) {
        assert.equal(chunks.length, 0, ctx);
        continue;
      }

      let pos = 0;
      chunks.forEach((c, i) => {
        assert.equal(c.ordinal, i, `${ctx}: ordinals are contiguous`);
        assert.equal(c.wordCount, countWords(c.text), ctx);
        assert.ok(c.wordCount > 0, ctx);
        assert.ok(c.wordCount <= maxWords, `${ctx}: chunk ${i} has ${c.wordCount} words`);

        const mine = [...new Set(owner.slice(pos, pos + c.wordCount))].map((j) => blocks[j]!);
        pos += c.wordCount;

        // Location is the union of the locations of the blocks it draws from.
        assert.equal(c.location.kind, mine[0]!.location.kind, ctx);
        assert.equal(c.location.start, Math.min(...mine.map((b) => b.location.start)), ctx);
        assert.equal(c.location.end, Math.max(...mine.map((b) => b.location.end)), ctx);

        // Heading path is that of the first non-heading block (or of the first block).
        const source = mine.find((b) => b.kind !== 'heading') ?? mine[0]!;
        assert.deepEqual(c.headingPath, source.headingPath, ctx);

        const next = chunks[i + 1];
        if (next !== undefined) {
          // Sizes are within the band where possible: a chunk under minWords closed only because
          // the next one would not fit with it.
          if (c.wordCount < minWords) {
            assert.ok(c.wordCount + next.wordCount > maxWords, `${ctx}: chunk ${i} is small (${c.wordCount}) for no reason`);
          }
          // A chunk ends on a heading only if the heading could not travel with what follows.
          let trailing = 0;
          for (let k = mine.length - 1; k >= 0 && mine[k]!.kind === 'heading'; k--) {
            trailing += countWords(mine[k]!.text);
          }
          if (trailing > 0) {
            assert.ok(trailing + next.wordCount > maxWords, `${ctx}: chunk ${i} ends on a heading`);
          }
        } else if (chunks.length > 1 && c.wordCount < minWords / 3) {
          assert.ok(chunks[i - 1]!.wordCount + c.wordCount > maxWords, `${ctx}: small tail not merged`);
        }
      });

      // Deterministic.
      assert.deepEqual(chunkBlocks(structuredClone(blocks), { minWords, maxWords }), chunks, ctx);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile text: one huge line, no punctuation, abbreviations everywhere, a 10 MB "word"

const MB = 1_000_000;

const HOSTILE: Record<string, (chars: number) => string> = {
  'one line without punctuation': lineWithoutPunctuation,
  'one line of sentences': lineOfSentences,
  'one line ending in the only full stop': (chars) => `${lineWithoutPunctuation(chars - 1)}.`,
  'abbreviation-heavy text': abbreviationHeavy,
};

function oneBlock(text: string): Block[] {
  return [block('paragraph', text, [], lines(1))];
}

// CPU time, not wall time: on a loaded machine a long run waits for the CPU more often than a short
// one, which made the 2 MB run look 4x slower per MB at load 35. The fastest of five runs.
function bestOfFive(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** The text without its whitespace: what must survive chunking, in order, even a word cut by characters. */
function ink(text: string): string {
  return text.replace(/\s+/g, '');
}

function assertWithinBounds(chunks: Chunk[], maxWords: number, maxChars: number, ctx: string): void {
  for (const c of chunks) {
    assert.ok(c.wordCount <= maxWords, `${ctx}: chunk ${c.ordinal} has ${c.wordCount} words`);
    assert.ok(c.text.length <= maxChars, `${ctx}: chunk ${c.ordinal} has ${c.text.length} characters`);
  }
}

describe('chunkBlocks on hostile text', () => {
  // Quadratic work would cost 8x per MB at 8x the size; 3x leaves room for a loaded machine.
  it('takes time linear in the size of the text: time per MB at 2 MB within 3x of that at 0.25 MB', () => {
    for (const [name, make] of Object.entries(HOSTILE)) {
      const small = oneBlock(make(0.25 * MB));
      const large = oneBlock(make(2 * MB));
      chunkBlocks(small); // warm up
      const perMbSmall = bestOfFive(() => chunkBlocks(small)) / 0.25;
      const perMbLarge = bestOfFive(() => chunkBlocks(large)) / 2;
      assert.ok(
        perMbLarge <= 3 * perMbSmall,
        `${name}: ${perMbLarge.toFixed(0)} ms/MB at 2 MB vs ${perMbSmall.toFixed(0)} ms/MB at 0.25 MB`,
      );
    }
  });

  it('loses no word and keeps every chunk within the size bounds', () => {
    for (const [name, make] of Object.entries(HOSTILE)) {
      const text = make(0.5 * MB);
      const chunks = chunkBlocks(oneBlock(text));
      assert.deepEqual(allWords(chunks), wordsOf(text), name);
      assertWithinBounds(chunks, DEFAULT_MAX_WORDS, DEFAULT_MAX_CHARS, name);
      assert.ok(chunks.every((c) => c.wordCount >= DEFAULT_MAX_WORDS / 2), `${name}: pieces are even`);
    }
  });

  it('cuts a 10 MB word by characters, and a wall of blank space, without losing a character', () => {
    const word = hugeToken(10 * MB);
    const chunks = chunkBlocks(oneBlock(word));
    assert.equal(chunks.length, Math.ceil(word.length / DEFAULT_MAX_CHARS));
    assert.equal(chunks.map((c) => c.text).join(''), word);
    assertWithinBounds(chunks, DEFAULT_MAX_WORDS, DEFAULT_MAX_CHARS, '10 MB word');

    const spaced = `start ${' \t'.repeat(MB)} middle ${'\n'.repeat(MB)} end`;
    const few = chunkBlocks(oneBlock(spaced), { maxChars: 1000 });
    assert.deepEqual(allWords(few), ['start', 'middle', 'end']);
    assertWithinBounds(few, DEFAULT_MAX_WORDS, 1000, 'blank space');
  });

  it('keeps words whole when it can, and surrogate pairs whole always, under a small maxChars', () => {
    const text = [...Array(200).keys()].map((i) => (i % 17 === 0 ? '😀'.repeat(40) : `w${i}`)).join(' ');
    const chunks = chunkBlocks(oneBlock(text), { minWords: 0, maxWords: 30, maxChars: 25 });
    assertWithinBounds(chunks, 30, 25, 'small maxChars');
    assert.equal(ink(chunks.map((c) => c.text).join('')), ink(text));
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const c of chunks) assert.ok(!loneSurrogate.test(c.text), `chunk ${c.ordinal} splits a surrogate pair`);
    // Only the emoji runs (80 code units, no space) are cut inside; every other word survives.
    const cutWords = new Set(wordsOf(text).filter((w) => w.length > 25));
    assert.deepEqual(
      allWords(chunks).filter((w) => !w.startsWith('😀')),
      wordsOf(text).filter((w) => !cutWords.has(w)),
    );
  });

  it('packs a document of many tiny blocks under maxChars as under maxWords', () => {
    const blocks = Array.from({ length: 3000 }, (_, i) => block('paragraph', `item${i}`, [], lines(i + 1)));
    const chunks = chunkBlocks(blocks, { maxChars: 200 });
    assertWithinBounds(chunks, DEFAULT_MAX_WORDS, 200, 'tiny blocks');
    assert.deepEqual(allWords(chunks), blocks.map((b) => b.text));
    assert.ok(chunks.slice(0, -1).every((c) => c.text.length > 200 - 12), 'chunks are filled up to maxChars');
    assert.throws(() => chunkBlocks(blocks, { maxChars: 1 }), RangeError);
  });

  it('finds the same sentences in bounded windows as in the whole text', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rand = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      let serial = 0;
      const sentence = (): string =>
        Array.from({ length: 1 + Math.floor(rand() * 40) }, () => (rand() < 0.2 ? pick(VOCAB) : `w${serial++}`)).join(' ') +
        pick(ENDINGS);
      const parts: string[] = [];
      for (let n = 0; n < 20_000; ) {
        const s = sentence();
        parts.push(s, pick([' ', ' ', '  ', '\n', '\n\n', '\r\n', ' \u2029']));
        n += s.length + 1;
      }
      const text = parts.join('');
      const whole = icuSentenceEnds(text, Infinity);
      for (const window of [256, 1024, SEGMENTER_WINDOW]) {
        assert.deepEqual(icuSentenceEnds(text, window), whole, `seed ${seed}, window ${window}`);
      }
    }
  });

  it('counts words as runs of JavaScript whitespace, as /\\S+/g does', () => {
    const spaces = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).filter((ch) => /\s/.test(ch));
    const text = spaces.map((s, i) => `a${i}${s}${s}😀${s}`).join('') + '\u200b zero-width\u180e';
    assert.equal(countWords(text), text.match(/\S+/g)!.length);
  });
});
