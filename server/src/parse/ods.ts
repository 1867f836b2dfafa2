// An OpenDocument spreadsheet keeps every sheet in content.xml, with each cell's displayed text
// (so "42,000 EUR" reads as the user formatted it) and rows or cells repeated by count rather
// than written out: a repeated empty row costs nothing, a repeated filled one counts towards the
// cell cap like any other. content.xml is read as a stream of XML events and stops inflating at
// the cap. Sheets, rows and columns a reader cannot see are left out and reported.

import { Parser as XmlStream } from 'htmlparser2';
import { refuseEncrypted } from './odfText.ts';
import { openDocumentProperties } from './officeProperties.ts';
import { Outline } from './outline.ts';
import { SheetRows, workbookDocument, type SheetCells } from './sheetRows.ts';
import { DEFAULT_PARSER_LIMITS, ParseError, type Parser, type ParserLimits } from './types.ts';
import { localName } from './xmlTree.ts';
import { ZipPackage } from './zipPackage.ts';

export const odsParser = createOdsParser();

/** Repetitions of one filled row or cell that are written out; past this, repetition is a flood, not data. */
const MAX_REPEAT = 1_000;

export function createOdsParser(limits: Partial<ParserLimits> = {}): Parser {
  const maxInflatedBytes = limits.maxInflatedBytes ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes;
  return {
    version: 'ods@2',
    extensions: ['.ods'],
    async parse(bytes) {
      const zip = await ZipPackage.open(bytes, 'ODS', maxInflatedBytes);
      await refuseEncrypted(zip);
      const outline = new Outline();
      const rows = new SheetRows(outline);
      const reader = new SpreadsheetStream(rows, outline);
      const found = await zip.stream('content.xml', (text) => reader.write(text));
      if (!found) throw new ParseError('not an ODS file: content.xml is missing (the ZIP archive holds no spreadsheet)');
      if (rows.open) reader.end();
      return workbookDocument(outline, rows, await openDocumentProperties(zip));
    },
  };
}

class SpreadsheetStream {
  private readonly stream: XmlStream;
  private readonly hiddenTableStyles = new Set<string>();
  private styleName: string | null = null;
  private hiddenColumns = new Set<number>();
  private column = 0;
  private rowNumber = 0;
  private rowRepeat = 1;
  private rowHidden = false;
  private cells: SheetCells = [];
  private cellRepeat = 1;
  private cellText: string[] | null = null;
  private paragraphs = 0;
  private annotation = 0;
  private links: { href: string; text: string[] }[] = [];
  private rowLinks: { href: string; text: string[] }[] = [];

  constructor(
    private readonly rows: SheetRows,
    private readonly outline: Outline,
  ) {
    this.stream = new XmlStream(
      { onopentag: (name, attributes) => this.open(localName(name), attributes), ontext: (text) => this.text(text), onclosetag: (name) => this.close(localName(name)) },
      { xmlMode: true, decodeEntities: true },
    );
  }

  write(text: string): boolean {
    this.stream.write(text);
    return this.rows.open;
  }

  end(): void {
    this.stream.end();
  }

  private open(name: string, attributes: Record<string, string>): void {
    switch (name) {
      case 'style':
        this.styleName = attributes['style:name'] ?? null;
        return;
      case 'table-properties':
        if (this.styleName !== null && attributes['table:display'] === 'false') this.hiddenTableStyles.add(this.styleName);
        return;
      case 'table':
        this.hiddenColumns = new Set();
        this.column = 0;
        this.rowNumber = 0;
        this.rows.beginSheet(attributes['table:name'] ?? 'Sheet', this.hiddenTableStyles.has(attributes['table:style-name'] ?? ''));
        return;
      case 'table-column': {
        const repeat = count(attributes['table:number-columns-repeated']);
        const hidden = attributes['table:visibility'] === 'collapse' || attributes['table:visibility'] === 'filter';
        if (hidden) for (let i = 0; i < Math.min(repeat, MAX_REPEAT); i++) this.hiddenColumns.add(this.column + i);
        this.column += repeat;
        return;
      }
      case 'table-row':
        this.rowRepeat = count(attributes['table:number-rows-repeated']);
        this.rowHidden = attributes['table:visibility'] === 'collapse' || attributes['table:visibility'] === 'filter';
        this.cells = [];
        this.column = 0;
        this.rowLinks = [];
        return;
      case 'table-cell':
      case 'covered-table-cell':
        this.cellRepeat = count(attributes['table:number-columns-repeated']);
        this.cellText = [];
        this.paragraphs = 0;
        return;
      case 'annotation':
        this.annotation += 1;
        return;
      case 'p':
        if (this.cellText !== null && this.annotation === 0 && this.paragraphs++ > 0) this.cellText.push(' ');
        return;
      case 's':
        if (this.cellText !== null && this.annotation === 0) this.cellText.push(' ');
        return;
      case 'a':
        if (this.cellText !== null && attributes['xlink:href']) this.links.push({ href: attributes['xlink:href'], text: [] });
        return;
    }
  }

  private text(text: string): void {
    if (this.cellText === null || this.annotation > 0) return;
    this.cellText.push(text);
    for (const link of this.links) link.text.push(text);
  }

  private close(name: string): void {
    switch (name) {
      case 'style':
        this.styleName = null;
        return;
      case 'annotation':
        this.annotation -= 1;
        return;
      case 'a': {
        const link = this.links.pop();
        if (link) this.rowLinks.push(link);
        return;
      }
      case 'table-cell':
      case 'covered-table-cell': {
        const text = (this.cellText ?? []).join('').trim();
        const written = text === '' ? 0 : Math.min(this.cellRepeat, MAX_REPEAT);
        for (let i = 0; i < written; i++) this.cells[this.column + i] = text;
        this.column += this.cellRepeat;
        this.cellText = null;
        return;
      }
      case 'table-row': {
        const filled = this.cells.some((cell) => cell !== undefined);
        const times = filled ? Math.min(this.rowRepeat, MAX_REPEAT) : 0;
        for (let i = 0; i < times && this.rows.open; i++) {
          this.rows.row(this.rowNumber + 1 + i, this.cells, this.rowHidden, (column) => this.hiddenColumns.has(column));
          const location = this.rows.rowLocation(this.rowNumber + 1 + i);
          if (location !== null) for (const link of this.rowLinks) this.outline.link(link.href, link.text.join(''), location);
        }
        this.rowNumber += this.rowRepeat;
        return;
      }
    }
  }
}

function count(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}
