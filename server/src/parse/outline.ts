// The blocks, outline, tables and links of a document being read, built the same way by the
// parsers of HTML, slides, spreadsheets, e-books and OpenDocument text: each block carries the
// path of the headings above it, and a link keeps the block it sits in, so nothing but the
// parser's walk differs between formats.

import type { Location } from '../../../shared/types.ts';
import { hiddenText } from './document.ts';
import type { Block, BlockKind, HeadingEntry, HiddenText, HiddenTextKind, Hyperlink, TableEntry } from './types.ts';

/** Links kept per document: a page of navigation can hold thousands, and they are evidence only in small numbers. */
export const MAX_HYPERLINKS = 2_000;
const MAX_LINK_TEXT_CHARS = 200;
const MAX_LINK_TARGET_CHARS = 2_048;

export class Outline {
  readonly blocks: Block[] = [];
  readonly headings: HeadingEntry[] = [];
  readonly tables: TableEntry[] = [];
  readonly hidden: HiddenText[] = [];
  readonly hyperlinks: Hyperlink[] = [];
  private stack: { level: number; text: string }[] = [];

  /** A heading at `level` (1 outermost): it closes the sections at its level or deeper. */
  heading(level: number, text: string, location: Location): void {
    const flat = text.replace(/\s+/gu, ' ').trim();
    if (flat === '') return;
    while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.level >= level) this.stack.pop();
    this.stack.push({ level, text: flat });
    this.headings.push({ level, text: flat, location });
    this.add('heading', flat, location);
  }

  /** Closes every open section (a new slide, sheet or chapter starts from the top). */
  resetSections(): void {
    this.stack = [];
  }

  add(kind: BlockKind, text: string, location: Location): boolean {
    if (text.trim() === '') return false;
    this.blocks.push({ kind, text, headingPath: this.stack.map((heading) => heading.text), location });
    return true;
  }

  /** The location the next block will have, when blocks are located by their ordinal. */
  nextOrdinal(): Location {
    const ordinal = this.blocks.length + 1;
    return { kind: 'blocks', start: ordinal, end: ordinal };
  }

  table(rows: number, columns: number, location: Location): void {
    if (rows > 0) this.tables.push({ rows, columns, location });
  }

  conceal(kind: HiddenTextKind, text: string, location: Location): void {
    const finding = hiddenText(kind, text, location);
    if (finding) this.hidden.push(finding);
  }

  link(target: string, text: string, location: Location): void {
    const href = target.trim();
    if (href === '' || href.startsWith('#') || /^javascript:/i.test(href) || this.hyperlinks.length >= MAX_HYPERLINKS) return;
    const label = text.replace(/\s+/gu, ' ').trim();
    this.hyperlinks.push({ target: href.slice(0, MAX_LINK_TARGET_CHARS), text: label.slice(0, MAX_LINK_TEXT_CHARS), location });
  }
}
