// RTF is a stream of control words and groups; most groups are not text (font tables, pictures as
// hex, embedded objects, document info). rtf-stream-parser tokenises the stream and decodes its
// code pages (\ansicpg, per-font \fcharset, \uN escapes, through iconv-lite); this module decides
// what a reader sees: body text and field results become paragraphs and table rows, `\v` hidden
// runs are left out and reported, \info's title, author and keywords become the title and
// metadata, a HYPERLINK field becomes a link (its instruction's target, its result's words), and
// every other destination is dropped. Groups nested beyond a cap fail the file, since
// the tokenizer keeps one state object per open group.

import iconv from 'iconv-lite';
import { Tokenize } from 'rtf-stream-parser';
import { ToPlainText } from 'rtf-stream-parser/dist/src/ToPlainText.js';
import { hiddenText, parsedDocument } from './document.ts';
import { MetadataReader } from './metadata.ts';
import { MAX_LINKS_PER_DOCUMENT, ParseError, type Block, type DocumentLink, type HiddenText, type Parser, type TableEntry } from './types.ts';

/** Word nests a few dozen groups deep at most; a file nesting thousands is built to exhaust the parser. */
export const MAX_RTF_GROUP_DEPTH = 500;

/** Destinations whose text a reader sees on the page. */
const TEXT_DESTINATIONS = new Set(['rtf', 'fldrslt', 'field', 'footnote', 'shptxt', 'shprslt', 'upr', 'header', 'headerl', 'headerr', 'headerf', 'footer', 'footerl', 'footerr', 'footerf']);
/** \info's children read as metadata (the title as the item's title). */
const INFO_FIELDS: Readonly<Record<string, string>> = { author: 'Author', subject: 'Subject', keywords: 'Keywords', company: 'Company', category: 'Category', operator: 'Operator' };

/** Where the current output goes: a field's instruction (`\fldinst`) is read for its link, not shown. */
type Sink = { kind: 'body' } | { kind: 'info'; field: string } | { kind: 'instruction' } | { kind: 'drop' };

/** A field being read: its instruction, then the words of its result a reader sees, where they stand. */
interface OpenField {
  instruction: string;
  label: string;
  inResult: boolean;
  ordinal: number;
}

interface GroupState {
  groupDepth: number;
  destination?: string;
  destIgnorable?: boolean;
  allDestinations?: Record<string, boolean>;
  hidden?: boolean;
}

interface RtfGlobals {
  _state: GroupState;
  _getCurrentFont(): unknown;
  _getOutputAsString(data: Buffer | string, font: unknown): [string, boolean];
}

export const rtfParser: Parser = {
  version: 'rtf@2',
  extensions: ['.rtf'],
  async parse(bytes) {
    if (bytes.length === 0) throw new ParseError('empty file (0 bytes)');
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 16)).toString('latin1');
    if (!/^\s*\{\\rtf/.test(head)) throw new ParseError('not an RTF file: it does not start with {\\rtf');
    const reader = new RtfReader();
    try {
      reader.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    } catch (error) {
      if (error instanceof ParseError) throw error;
      throw new ParseError(`malformed RTF: ${error instanceof Error ? error.message : String(error)}`);
    }
    const metadata = new MetadataReader();
    for (const [field, text] of reader.info) if (field !== 'title') metadata.add(INFO_FIELDS[field] ?? field, text);
    return parsedDocument({
      title: reader.info.get('title')?.trim() || null,
      blocks: reader.blocks,
      structure: { headings: [], tables: reader.tables },
      hidden: reader.hidden,
      metadata: metadata.finish(),
      links: reader.links,
    });
  },
};

/** Collects the visible paragraphs, hidden runs and \info fields of one RTF stream. */
class RtfReader {
  readonly blocks: Block[] = [];
  readonly tables: TableEntry[] = [];
  readonly hidden: HiddenText[] = [];
  readonly info = new Map<string, string>();
  readonly links: DocumentLink[] = [];
  private field: OpenField | null = null;
  private line: string[] = [];
  private cells: string[] = [];
  private hiddenParts: string[] = [];
  private rows = 0;
  private columns = 0;

  read(rtf: Buffer): void {
    const tokens = new Tokenize();
    const text = new ToPlainText({ decode: (data: Buffer, encoding: string) => decode(data, encoding), warn: () => undefined, allowCp0: true });
    text._featureHandlers.push({
      tokenHandlers: {
        0: (globals: unknown) => {
          if ((globals as RtfGlobals)._state.groupDepth > MAX_RTF_GROUP_DEPTH) {
            throw new ParseError(`RTF groups nested more than ${MAX_RTF_GROUP_DEPTH} deep; not read`);
          }
        },
      },
      controlHandlers: {
        v: (globals: unknown, token: { param?: number }) => {
          (globals as RtfGlobals)._state.hidden = token.param !== 0;
        },
        plain: (globals: unknown) => {
          (globals as RtfGlobals)._state.hidden = false;
        },
        cell: (globals: unknown) => this.inBody(globals as RtfGlobals) && this.endCell(),
        nestcell: (globals: unknown) => this.inBody(globals as RtfGlobals) && this.endCell(),
        row: (globals: unknown) => this.inBody(globals as RtfGlobals) && this.endRow(),
        page: (globals: unknown) => this.inBody(globals as RtfGlobals) && this.endParagraph(),
        sect: (globals: unknown) => this.inBody(globals as RtfGlobals) && this.endParagraph(),
      },
      outputDataFilter: (globals: unknown, data: Buffer | string) => {
        const g = globals as RtfGlobals;
        const sink = sinkOf(g._state);
        if (sink.kind === 'drop') return true;
        const [piece] = g._getOutputAsString(data, g._getCurrentFont());
        if (sink.kind === 'info') this.info.set(sink.field, (this.info.get(sink.field) ?? '') + piece);
        else if (g._state.hidden) this.hiddenParts.push(piece);
        else {
          this.result(g._state, piece);
          this.write(piece);
        }
        return true;
      },
    } as never);
    // Before the library's own filter, which drops ignorable destinations and so `{\*\fldinst …}`.
    text._featureHandlers.unshift({
      outputDataFilter: (globals: unknown, data: Buffer | string) => {
        const g = globals as RtfGlobals;
        if (sinkOf(g._state).kind !== 'instruction') return false;
        this.instruct(g._getOutputAsString(data, g._getCurrentFont())[0]);
        return true;
      },
    } as never);
    const fail = (error: unknown) => {
      if (error !== undefined && error !== null) throw error;
    };
    tokens.push = (token: unknown) => {
      text._transform(token as never, '', fail);
      return true;
    };
    tokens._transform(rtf, undefined, fail);
    tokens._flush(() => undefined);
    text._flush(fail);
    this.closeField();
    this.endCell();
    if (this.cells.length > 0) this.endRow();
    this.endParagraph();
    this.endTable();
    this.flushHidden();
  }

  /** Text of a field's instruction: a field whose result has begun is done, so this one is new (a field nested in another's result). */
  private instruct(piece: string): void {
    if (this.field?.inResult) this.closeField();
    this.field ??= { instruction: '', label: '', inResult: false, ordinal: this.blocks.length + 1 };
    if (this.field.instruction.length < MAX_INSTRUCTION_CHARS) this.field.instruction += piece;
  }

  /** Visible body text: the words of the open field's result, or, outside any result, the end of the field. */
  private result(state: GroupState, piece: string): void {
    if (this.field === null) return;
    if (!state.allDestinations?.fldrslt) return this.closeField();
    if (!this.field.inResult) {
      this.field.inResult = true;
      this.field.ordinal = this.blocks.length + 1;
    }
    // The words a link keeps are clipped anyway (LINK_TEXT_MAX_CHARS): a field's megabytes of result are not copied twice.
    if (this.field.label.length < MAX_INSTRUCTION_CHARS) this.field.label += piece;
  }

  /** A HYPERLINK field whose result a reader sees becomes a link, at the paragraph its result starts in. */
  private closeField(): void {
    const field = this.field;
    this.field = null;
    const label = field?.label.replace(/\s+/gu, ' ').trim() ?? '';
    const target = field === null ? null : hyperlinkTarget(field.instruction);
    if (field === null || target === null || label === '' || this.links.length >= MAX_LINKS_PER_DOCUMENT) return;
    this.links.push({ target, text: label, kind: 'hyperlink', location: { kind: 'blocks', start: field.ordinal, end: field.ordinal } });
  }

  private inBody(globals: RtfGlobals): boolean {
    return sinkOf(globals._state).kind === 'body';
  }

  private write(piece: string): void {
    const lines = piece.split(/\r\n|\n|\r/);
    this.line.push(lines[0]!);
    for (const next of lines.slice(1)) {
      if (this.cells.length > 0) this.endCell();
      else this.endParagraph();
      this.line.push(next);
    }
  }

  private endParagraph(): true {
    const text = this.take();
    if (text !== '') {
      this.endTable();
      this.blocks.push({ kind: 'paragraph', text, headingPath: [], location: this.nextLocation() });
    }
    return true;
  }

  private endCell(): true {
    const text = this.take();
    if (text !== '' || this.cells.length > 0) this.cells.push(text);
    return true;
  }

  private endRow(): true {
    this.endCell();
    const cells = this.cells.filter((cell) => cell !== '');
    this.cells = [];
    if (cells.length === 0) return true;
    this.rows += 1;
    this.columns = Math.max(this.columns, cells.length);
    this.blocks.push({ kind: 'table_row', text: cells.join(' | '), headingPath: [], location: this.nextLocation() });
    return true;
  }

  private endTable(): void {
    if (this.rows === 0) return;
    const first = this.blocks.length - this.rows + 1;
    this.tables.push({ rows: this.rows, columns: this.columns, location: { kind: 'blocks', start: first, end: this.blocks.length } });
    this.rows = 0;
    this.columns = 0;
  }

  private take(): string {
    const text = this.line.join('').replace(/[ \t\u00a0]+/g, ' ').replace(/\u00ad/g, '').trim();
    this.line = [];
    this.flushHidden();
    return text;
  }

  private flushHidden(): void {
    const finding = hiddenText('vanish_run', this.hiddenParts.join(''), this.nextLocation());
    if (finding) this.hidden.push(finding);
    this.hiddenParts = [];
  }

  private nextLocation() {
    const ordinal = this.blocks.length + 1;
    return { kind: 'blocks', start: ordinal, end: ordinal } as const;
  }
}

/** A field instruction's text is kept up to this: a HYPERLINK names one target, and the file is untrusted. */
const MAX_INSTRUCTION_CHARS = 4_000;

/**
 * The target of a `HYPERLINK "target" \l "anchor" \o "tip"` instruction: the first argument that
 * is not a switch's, with `\\` in it read as one backslash (Word's escape for paths); null for
 * any other field (PAGEREF, TOC…), a link within the document (only `\l`), or a script.
 */
export function hyperlinkTarget(instruction: string): string | null {
  const words = [...instruction.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/gu)].map((match) => ({ quoted: match[1] !== undefined, text: match[1] ?? match[2]! }));
  if (words[0]?.quoted !== false || words[0].text.toUpperCase() !== 'HYPERLINK') return null;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    if (!word.quoted && /^\\[a-z]$/i.test(word.text)) {
      // \l, \o, \t and \m take the next word as their argument; \h and \n take none.
      if (/^\\[lotm]$/i.test(word.text)) index += 1;
      continue;
    }
    const target = word.text.replace(/\\\\/g, '\\').trim();
    return target === '' || target.startsWith('#') || /^\s*javascript:/i.test(target) ? null : target;
  }
  return null;
}

function sinkOf(state: GroupState): Sink {
  const all = state.allDestinations ?? {};
  if (all.info) {
    const field = state.destination ?? '';
    return field === 'title' || Object.hasOwn(INFO_FIELDS, field) ? { kind: 'info', field } : { kind: 'drop' };
  }
  // `{\*\fldinst …}` is marked ignorable (a reader that knows no fields shows the result alone): read it first.
  if (state.destination === 'fldinst') return { kind: 'instruction' };
  if (state.destIgnorable) return { kind: 'drop' };
  // allDestinations chains through the groups' prototypes: every destination still open is a key.
  for (const destination in all) if (!TEXT_DESTINATIONS.has(destination)) return { kind: 'drop' };
  return { kind: 'body' };
}

/** Code pages RTF names by number (cp1252, cp932, cp1250), through iconv-lite; an unknown one as Latin-1 rather than failing the file. */
function decode(data: Buffer, encoding: string): string {
  const name = encoding === 'cp0' ? 'cp1252' : encoding;
  return iconv.encodingExists(name) ? iconv.decode(data, name) : data.toString('latin1');
}
