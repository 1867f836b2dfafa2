// A spreadsheet row means something only with its column headers: "42000" says nothing, "Sheet
// Costs, row 12: Supplier Harbourline Engineering Ltd; Cost 42000" is a claim with its subject.
// This turns the rows an XLSX, ODS or CSV reader finds into such passages, one section per sheet,
// and keeps hidden sheets, rows and columns out of them (reported as hidden text instead). A row
// is located by its sheet and its number as the spreadsheet shows it ("Costs, rows 2-40"), unless
// the reader gives a location of its own (a CSV's lines, which the editor can open). Every
// file is read up to MAX_SHEET_CELLS cells, as a PDF is read up to its page cap: a sheet of a
// million cells is bounded like any other file, and the item says where reading stopped.

import { SHEET_NAME_MAX_CHARS, type Location } from '../../../shared/types.ts';
import type { ParsedDocument } from '../records/document.ts';
import { parsedDocument } from './document.ts';
import type { OwnProperties } from './officeProperties.ts';
import type { Outline } from './outline.ts';

/** Cells with a value read per file; the rest of the file is left out and the item flagged `truncated`. */
export const MAX_SHEET_CELLS = 200_000;
/** Hidden text kept per sheet for the report: enough to see what it is and to find instructions in it. */
const MAX_HIDDEN_CHARS = 4_000;
/** Rows looked at for the header row: a header comes after at most a few title lines. */
const HEADER_SEARCH_ROWS = 5;

/** One row's cells by 0-based column index; a missing or blank entry is an empty cell. */
export type SheetCells = (string | undefined)[];

export class SheetRows {
  /** Why the file was not read to its end, or null. */
  truncated: string | null = null;
  private cells = 0;
  private sheet = '';
  /** The sheet's name as its rows' locations carry it: one line, clipped. */
  private sheetName = '';
  private concealed = false;
  private header: SheetCells | null = null;
  private looked = 0;
  private hiddenParts: string[] = [];
  private hiddenChars = 0;
  private hiddenKind: 'hidden_sheet' | 'hidden_cells' = 'hidden_cells';
  /** Where hidden text of the sheet is reported: the reader's location for it, else the hidden rows' range. */
  private sheetLocation: Location | null = null;
  private hiddenRows: { start: number; end: number } | null = null;
  /** Whether the sheet's heading is out: it is given with the first row, so an empty sheet adds nothing. */
  private headed = false;
  private firstRow: Location | null = null;
  private lastRow: Location | null = null;
  private rowCount = 0;
  private columnCount = 0;
  private readonly rowLocations = new Map<number, Location>();

  constructor(
    private readonly outline: Outline,
    private readonly maxCells = MAX_SHEET_CELLS,
  ) {}

  /** Starts a sheet; a hidden sheet's rows are reported as hidden, not read into passages. */
  beginSheet(name: string, hidden: boolean, location: Location | null = null): void {
    this.endSheet();
    this.sheet = name;
    this.sheetName = sheetName(name);
    this.concealed = hidden;
    this.hiddenKind = hidden ? 'hidden_sheet' : 'hidden_cells';
    this.header = null;
    this.looked = 0;
    this.rowLocations.clear();
    this.outline.resetSections();
    this.sheetLocation = location;
    this.headed = false;
  }

  /** Whether the reader may go on: false once the cell cap is reached (the reason is in `truncated`). */
  get open(): boolean {
    return this.truncated === null;
  }

  /**
   * One row, by its 1-based number as the spreadsheet shows it. `hiddenColumns` says which
   * columns a reader cannot see; a hidden row's cells are all reported. Returns `open`.
   */
  row(number: number, cells: SheetCells, hiddenRow: boolean, hiddenColumns: (column: number) => boolean, location: Location = this.rowsLocation(number)): boolean {
    if (!this.open) return false;
    const filled = cells.filter((cell) => cell !== undefined && cell.trim() !== '').length;
    if (filled === 0) return true;
    if (this.cells + filled > this.maxCells) {
      this.truncated = `read up to ${this.maxCells.toLocaleString('en-GB')} cells: sheet ${this.sheet} stopped before row ${number.toLocaleString('en-GB')}, and any later sheets were left out`;
      return false;
    }
    this.cells += filled;
    if (this.concealed || hiddenRow) {
      this.hide(number, `row ${number}: ${cells.filter((cell) => cell !== undefined && cell.trim() !== '').join('; ')}`);
      return true;
    }
    const shown: SheetCells = [];
    const hiddenCells: string[] = [];
    cells.forEach((cell, column) => {
      if (cell === undefined || cell.trim() === '') return;
      if (hiddenColumns(column)) hiddenCells.push(`${columnName(column)}${number} ${cell}`);
      else shown[column] = clean(cell);
    });
    if (hiddenCells.length > 0) this.hide(number, hiddenCells.join('; '));
    if (shown.filter((cell) => cell !== undefined).length === 0) return true;
    this.columnCount = Math.max(this.columnCount, cells.length);
    if (this.header === null && this.looked < HEADER_SEARCH_ROWS) {
      this.looked += 1;
      const count = shown.filter((cell) => cell !== undefined).length;
      // A lone cell above the table is its title; the first row of two or more cells names the
      // columns. A sheet of one column has no header row that can be told from its data.
      if (count >= 2) {
        this.header = shown;
        this.emit(number, `Sheet ${this.sheet}, row ${number}, column headers: ${shown.filter((cell) => cell !== undefined).join('; ')}`, location);
        return true;
      }
      this.emit(number, `Sheet ${this.sheet}, row ${number}: ${shown.filter((cell) => cell !== undefined).join('; ')}`, location);
      return true;
    }
    const named = shown.flatMap((cell, column) => (cell === undefined ? [] : [this.header === null ? cell : `${this.headerOf(column)} ${cell}`]));
    this.emit(number, `Sheet ${this.sheet}, row ${number}: ${named.join('; ')}`, location);
    return true;
  }

  /** Where a row's passage is, for links that name a cell; null when the row was not read. */
  rowLocation(number: number): Location | null {
    return this.rowLocations.get(number) ?? null;
  }

  endSheet(): void {
    const hiddenAt = this.sheetLocation ?? (this.hiddenRows && { ...this.rowsLocation(this.hiddenRows.start), end: this.hiddenRows.end });
    if (this.hiddenParts.length > 0 && hiddenAt !== null) {
      const prefix = this.hiddenKind === 'hidden_sheet' ? `Sheet ${this.sheet}: ` : '';
      this.outline.conceal(this.hiddenKind, prefix + this.hiddenParts.join('; '), hiddenAt);
    }
    if (this.firstRow !== null && this.lastRow !== null) {
      this.outline.table(this.rowCount, this.columnCount, { ...this.firstRow, end: this.lastRow.end });
    }
    this.hiddenRows = null;
    this.hiddenParts = [];
    this.hiddenChars = 0;
    this.firstRow = null;
    this.lastRow = null;
    this.rowCount = 0;
    this.columnCount = 0;
    this.sheetLocation = null;
  }

  private headerOf(column: number): string {
    const name = this.header?.[column];
    return name === undefined ? `column ${columnName(column)}:` : name;
  }

  private emit(number: number, text: string, location: Location): void {
    if (!this.headed) {
      this.headed = true;
      this.outline.heading(1, this.sheet, location);
      if (location.kind === 'blocks') location = this.outline.nextOrdinal();
    }
    if (!this.outline.add('table_row', text, location)) return;
    this.rowLocations.set(number, location);
    this.firstRow ??= location;
    this.lastRow = location;
    this.rowCount += 1;
  }

  private rowsLocation(number: number): Location {
    return { kind: 'rows', sheet: this.sheetName, start: number, end: number };
  }

  private hide(number: number, text: string): void {
    this.hiddenRows = { start: Math.min(this.hiddenRows?.start ?? number, number), end: Math.max(this.hiddenRows?.end ?? number, number) };
    if (this.hiddenChars >= MAX_HIDDEN_CHARS) return;
    this.hiddenParts.push(text);
    this.hiddenChars += text.length;
  }
}

/** 0 → A, 25 → Z, 26 → AA: the column letters a spreadsheet shows. */
export function columnName(column: number): string {
  let name = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A1-style column letters to a 0-based index. */
export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** A sheet's name on one line and clipped, since a location carries it wherever it is shown; "Sheet" when it has none. */
function sheetName(name: string): string {
  const line = clean(name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' '));
  const clipped = line.slice(0, SHEET_NAME_MAX_CHARS).replace(/[\uD800-\uDBFF]$/u, '').trimEnd();
  return clipped === '' ? 'Sheet' : clipped;
}

function clean(cell: string): string {
  return cell.replace(/\s+/gu, ' ').trim();
}

/** A workbook's document (XLSX, ODS) once its reader has gone through the sheets: the last sheet closed, where reading stopped, and the file's own title and metadata. */
export function workbookDocument(outline: Outline, rows: SheetRows, own: OwnProperties): ParsedDocument {
  rows.endSheet();
  return parsedDocument({
    title: own.title,
    blocks: outline.blocks,
    structure: { headings: outline.headings, tables: outline.tables },
    hidden: outline.hidden,
    truncated: rows.truncated,
    metadata: own.metadata,
    links: outline.links,
  });
}
