import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { packWindows, type TextWindow } from '../../server/src/embed/windows.ts';
import { seededRandom } from '../support/generateCorpus.ts';

/** A stand-in tokenizer: one token per word. */
const words = (text: string): number => (text.match(/\S+/g) ?? []).length;

/** `n` words ending in a full stop; capitalised, as ICU's sentence rules expect. */
function sentence(n: number, tag: string): string {
  const text = Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ') + '.';
  return text[0]!.toUpperCase() + text.slice(1);
}

/** The invariants every result must keep. */
function assertTiles(text: string, windows: TextWindow[]): void {
  assert.ok(windows.length > 0);
  assert.equal(windows[0]!.start, 0, 'the first window starts the text');
  assert.equal(windows.at(-1)!.end, text.length, 'the last window ends it');
  windows.forEach((window, i) => {
    if (i > 0) assert.equal(window.start, windows[i - 1]!.end, 'each window starts where the previous ends');
    assert.ok(window.end > window.start);
    assert.equal(window.text, text.slice(window.start, window.end).trim(), 'text is the trimmed slice');
    assert.notEqual(window.text, '');
  });
}

describe('packWindows', () => {
  it('keeps a text that fits in one window', () => {
    const text = 'One short sentence. And another one.';
    const windows = packWindows(text, 128, words);
    assert.deepEqual(windows, [{ text, start: 0, end: text.length }]);
  });

  it('packs whole sentences greedily, never over the limit', () => {
    const parts = [sentence(4, 'a'), sentence(5, 'b'), sentence(3, 'c'), sentence(6, 'd'), sentence(2, 'e')];
    const text = parts.join(' ');
    const windows = packWindows(text, 10, words);
    assertTiles(text, windows);
    assert.deepEqual(
      windows.map((w) => w.text),
      [`${parts[0]} ${parts[1]}`, `${parts[2]} ${parts[3]}`, parts[4]],
    );
    for (const w of windows) assert.ok(words(w.text) <= 10);
  });

  it('gives an over-long sentence a window of its own, uncut', () => {
    const parts = [sentence(3, 'a'), sentence(30, 'long'), sentence(3, 'b')];
    const text = parts.join(' ');
    const windows = packWindows(text, 10, words);
    assertTiles(text, windows);
    assert.deepEqual(windows.map((w) => w.text), parts);
  });

  it('gives character offsets into the text, whitespace and line breaks included', () => {
    const text = '  Heading line\n\nFirst sentence here. Second one follows.\n\nA last paragraph.  ';
    const windows = packWindows(text, 4, words);
    assertTiles(text, windows);
    for (const w of windows) assert.equal(text.indexOf(w.text, w.start), text.slice(0, w.end).lastIndexOf(w.text));
  });

  it('has no window for text without a visible character', () => {
    assert.deepEqual(packWindows('', 128, words), []);
    assert.deepEqual(packWindows(' \n\t ', 128, words), []);
  });

  it('rejects a limit below one token', () => {
    assert.throws(() => packWindows('Text.', 0, words), RangeError);
    assert.throws(() => packWindows('Text.', Number.NaN, words), RangeError);
  });

  it('tiles any text, and no window could have taken its successor\'s first sentence', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 200; round++) {
      const parts: string[] = [];
      const count = 1 + Math.floor(random() * 12);
      for (let s = 0; s < count; s++) parts.push(sentence(1 + Math.floor(random() * 25), `r${s}x`));
      const separators = [' ', '  ', '\n', '\n\n', ' \n '];
      const text = parts.map((p) => p + separators[Math.floor(random() * separators.length)]).join('');
      const limit = 1 + Math.floor(random() * 40);
      const windows = packWindows(text, limit, words);
      assertTiles(text, windows);
      windows.forEach((w, i) => {
        const sentences = w.text.split(/(?<=\.)\s+/);
        if (sentences.length > 1) assert.ok(words(w.text) <= limit, 'a window of several sentences fits');
        const next = windows[i + 1];
        if (next) assert.ok(words(w.text) + words(next.text.split(/(?<=\.)\s+/)[0]!) > limit, 'greedy');
      });
      assert.equal(windows.map((w) => w.text).join(' ').split(/\s+/).join(' '), text.trim().split(/\s+/).join(' '));
    }
  });
});
