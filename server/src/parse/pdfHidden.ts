// A PDF can draw text that no reader sees: render mode 3 or 7 (`3 Tr`, neither filled nor
// stroked) or a font under one point. pdf.js's text content has neither the render mode nor a
// marker for it, so the page's operator list is read alongside: the glyphs drawn invisibly are
// matched, character by character, to the text items, and taken out of them.
//
// Best effort, and documented as such: when the two streams do not line up (ligatures, fonts
// without Unicode), each invisible string is found in the text instead. A page whose text is
// nearly all invisible is an OCR layer over a scanned image, which the reader does see: it is
// kept. White or covered text is not detected.

import type { Location } from '../../../shared/types.ts';
import { hiddenText } from './document.ts';
import type { HiddenText } from './types.ts';

/** Text under one unit (1/72 in) tall cannot be read. */
const MIN_READABLE_SIZE = 1;
/** When this share of a page's characters is invisible, it is a scan's recognised text, not a hidden passage. */
const OCR_LAYER_SHARE = 0.9;

export interface PageText {
  str: string;
  transform: number[];
  hasEOL: boolean;
}

export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

export interface PdfOps {
  setTextRenderingMode: number;
  save: number;
  restore: number;
  showText: number;
  showSpacedText: number;
  nextLineShowText: number;
  nextLineSetSpacingShowText: number;
}

const isSpace = (char: string): boolean => /\s/u.test(char);

/** Non-space characters drawn on the page, in drawing order, each marked visible or not; and the invisible strings. */
function drawnCharacters(operators: OperatorList, ops: PdfOps): { invisible: boolean[]; chars: string[]; strings: string[] } {
  const invisible: boolean[] = [];
  const chars: string[] = [];
  const strings: string[] = [];
  const saved: number[] = [];
  let mode = 0;
  let current: string[] = [];
  const endString = (): void => {
    const text = current.join('').trim();
    if (text !== '') strings.push(text);
    current = [];
  };
  const shows = new Set([ops.showText, ops.showSpacedText, ops.nextLineShowText, ops.nextLineSetSpacingShowText]);
  operators.fnArray.forEach((fn, index) => {
    const args = operators.argsArray[index] as unknown[] | null;
    if (fn === ops.setTextRenderingMode) mode = Number(args?.[0] ?? 0);
    else if (fn === ops.save) saved.push(mode);
    else if (fn === ops.restore) mode = saved.pop() ?? 0;
    if (!shows.has(fn)) return;
    const hidden = (mode & 3) === 3;
    if (!hidden) endString();
    const glyphs = (args?.[args.length - 1] ?? []) as unknown[];
    for (const glyph of Array.isArray(glyphs) ? glyphs : []) {
      const unicode = (glyph as { unicode?: unknown } | null)?.unicode;
      if (typeof unicode !== 'string') {
        if (hidden && typeof glyph === 'number' && glyph < -200) current.push(' '); // A wide TJ gap is a word break.
        continue;
      }
      if (hidden) current.push(unicode);
      for (const char of unicode.normalize('NFKC')) {
        if (isSpace(char)) continue;
        chars.push(char);
        invisible.push(hidden);
      }
    }
    if (hidden) current.push(' ');
  });
  endString();
  return { invisible, chars, strings };
}

function itemSize(item: PageText): number {
  return Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0);
}

/**
 * Splits a page's text items into what a reader sees and what they do not. `operators` is only
 * asked for when the page has text, since reading it costs about as much as the text itself.
 */
export async function separateHiddenText<T extends PageText>(
  items: readonly (T | { type: string })[],
  operators: () => Promise<OperatorList>,
  ops: PdfOps,
  location: Location,
): Promise<{ visible: (T | { type: string })[]; hidden: HiddenText[] }> {
  const texts = items.filter((item): item is T => 'str' in item && item.str.trim() !== '');
  if (texts.length === 0) return { visible: [...items], hidden: [] };
  const hidden: HiddenText[] = [];
  const keep = new Map<T, string>();

  const tiny = texts.filter((item) => itemSize(item) < MIN_READABLE_SIZE);
  if (tiny.length > 0) {
    const finding = hiddenText('tiny_text', tiny.map((item) => item.str).join(' '), location);
    if (finding) hidden.push(finding);
    for (const item of tiny) keep.set(item, '');
  }

  const drawn = drawnCharacters(await operators(), ops);
  const invisibleCount = drawn.invisible.filter(Boolean).length;
  if (invisibleCount > 0 && invisibleCount < OCR_LAYER_SHARE * drawn.chars.length) {
    const marks = invisibleMarks(texts, drawn);
    texts.forEach((item, index) => {
      const mask = marks[index]!;
      if (!mask.some(Boolean) || keep.has(item)) return;
      let position = 0;
      const kept = [...item.str].map((char) => (isSpace(char) ? char : mask[position++] ? '' : char)).join('');
      keep.set(item, kept.replace(/\s{2,}/gu, ' '));
    });
    for (const text of drawn.strings) {
      const finding = hiddenText('invisible_render_mode', text, location);
      if (finding) hidden.push(finding);
    }
  }
  if (keep.size === 0) return { visible: [...items], hidden };
  // An item left with no text is dropped whole, so a hidden line does not read as a blank line.
  const visible = items.flatMap((item) => {
    const kept = keep.get(item as T);
    if (kept === undefined) return [item];
    return kept.trim() === '' ? [] : [{ ...(item as T), str: kept }];
  });
  return { visible, hidden };
}

/** For each text item, which of its non-space characters were drawn invisibly. */
function invisibleMarks(texts: readonly PageText[], drawn: { invisible: boolean[]; chars: string[] }): boolean[][] {
  const itemChars = texts.map((item) => [...item.str].filter((char) => !isSpace(char)));
  const total = itemChars.reduce((sum, chars) => sum + chars.length, 0);
  const flat: boolean[] = new Array<boolean>(total).fill(false);
  if (total === drawn.chars.length) {
    drawn.invisible.forEach((value, index) => (flat[index] = value));
  } else {
    // The streams do not line up: find each invisible stretch in the page's text, in order.
    const text = itemChars.flat().join('');
    let from = 0;
    for (let i = 0; i < drawn.chars.length; ) {
      if (!drawn.invisible[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j < drawn.chars.length && drawn.invisible[j]) j++;
      const stretch = drawn.chars.slice(i, j).join('');
      const at = text.indexOf(stretch, from);
      if (at >= 0) {
        flat.fill(true, at, at + stretch.length);
        from = at + stretch.length;
      }
      i = j;
    }
  }
  const marks: boolean[][] = [];
  let offset = 0;
  for (const chars of itemChars) {
    marks.push(flat.slice(offset, offset + chars.length));
    offset += chars.length;
  }
  return marks;
}
