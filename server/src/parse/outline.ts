// The blocks, outline, tables and links of a document being read, built the same way by the
// parsers of HTML, slides, spreadsheets, e-books and OpenDocument text: each block carries the
// path of the headings above it, and a link keeps the block it sits in, so nothing but the
// parser's walk differs between formats.

import type { Location } from '../../../shared/types.ts';
import { hiddenText } from './document.ts';
import { LINK_TARGET_MAX_CHARS, LINK_TEXT_MAX_CHARS, MAX_LINKS_PER_DOCUMENT, type Block, type BlockKind, type DocumentLink, type HeadingEntry, type HiddenText, type HiddenTextKind, type TableEntry } from './types.ts';

export class Outline {
  readonly blocks: Block[] = [];
  readonly headings: HeadingEntry[] = [];
  readonly tables: TableEntry[] = [];
  readonly hidden: HiddenText[] = [];
  readonly links: DocumentLink[] = [];
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
    if (href === '' || href.startsWith('#') || /^javascript:/i.test(href) || this.links.length >= MAX_LINKS_PER_DOCUMENT) return;
    const label = text.replace(/\s+/gu, ' ').trim();
    this.links.push({ target: href.slice(0, LINK_TARGET_MAX_CHARS), text: label.slice(0, LINK_TEXT_MAX_CHARS), kind: 'hyperlink', location });
  }
}
