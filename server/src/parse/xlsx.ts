// An Excel workbook is a ZIP of XML parts: the workbook lists the sheets (and which are hidden),
// shared strings hold the text, and each sheet holds its rows, with a formula's value as Excel
// last computed it (its cached value; formulas are never evaluated here). Sheets can be huge, so
// they and the shared strings are read as a stream of XML events, never as a tree, and a sheet
// stops inflating once the cell cap is reached (sheetRows.ts). Rows become passages naming their
// column headers; hidden sheets, rows and columns are left out and reported; hyperlinks are kept.

import { Parser as XmlStream } from 'htmlparser2';
import path from 'node:path';
import { officeProperties } from './officeProperties.ts';
import { Outline } from './outline.ts';
import { columnIndex, SheetRows, workbookDocument, type SheetCells } from './sheetRows.ts';
import { DEFAULT_PARSER_LIMITS, type Parser, type ParserLimits } from './types.ts';
import { attr, childElements, descendants, localName, parseXml, relationshipId } from './xmlTree.ts';
import { ZipPackage } from './zipPackage.ts';
import { relationships, type Target } from './packageRelationships.ts';

export const xlsxParser = createXlsxParser();

export function createXlsxParser(limits: Partial<ParserLimits> = {}): Parser {
  const maxInflatedBytes = limits.maxInflatedBytes ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes;
  return {
    version: 'xlsx@2',
    extensions: ['.xlsx', '.xlsm'],
    async parse(bytes) {
      const zip = await ZipPackage.open(bytes, 'XLSX', maxInflatedBytes);
      const workbookPath = (await mainPart(zip)) ?? 'xl/workbook.xml';
      const workbook = parseXml(await zip.required(workbookPath, `${workbookPath} is missing (the ZIP archive holds no workbook)`), workbookPath);
      const targets = await relationships(zip, workbookPath);
      const date1904 = descendants(workbook, 'workbookPr').some((element) => /^(1|true)$/.test(attr(element, 'date1904') ?? ''));
      const strings = await sharedStrings(zip, targets);
      const styles = await dateStyles(zip, targets);
      const outline = new Outline();
      const rows = new SheetRows(outline);
      for (const sheet of descendants(workbook, 'sheet')) {
        if (!rows.open) break;
        const part = targets.get(relationshipId(sheet) ?? '');
        if (part === undefined || !zip.has(part.path)) continue;
        const state = attr(sheet, 'state') ?? 'visible';
        rows.beginSheet(attr(sheet, 'name') ?? path.posix.basename(part.path, '.xml'), state !== 'visible');
        const links = await relationships(zip, part.path);
        await readSheet(zip, part.path, { strings, styles, date1904, rows, outline, links });
      }
      return workbookDocument(outline, rows, await officeProperties(zip));
    },
  };
}

/** The package's main part, named by its root relationships. */
async function mainPart(zip: ZipPackage): Promise<string | null> {
  const rels = await relationships(zip, '');
  for (const target of rels.values()) if (/workbook\d*\.xml$/i.test(target.path)) return target.path;
  return null;
}

/** The shared string table, read as a stream; phonetic guides (`rPh`) are not part of the text. */
async function sharedStrings(zip: ZipPackage, targets: Map<string, Target>): Promise<string[]> {
  const part = [...targets.values()].find((target) => /sharedStrings\.xml$/i.test(target.path))?.path ?? 'xl/sharedStrings.xml';
  const strings: string[] = [];
  let current: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  const stream = new XmlStream(
    {
      onopentag(name) {
        const local = localName(name);
        if (local === 'si') current = [];
        else if (local === 'rPh') phonetic += 1;
        else if (local === 't') inText = true;
      },
      ontext(text) {
        if (inText && phonetic === 0 && current !== null) current.push(text);
      },
      onclosetag(name) {
        const local = localName(name);
        if (local === 'si') {
          strings.push((current ?? []).join(''));
          current = null;
        } else if (local === 'rPh') phonetic -= 1;
        else if (local === 't') inText = false;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  await zip.stream(part, (text) => {
    stream.write(text);
    return true;
  });
  stream.end();
  return strings;
}

/** Built-in number formats that show a date or time. */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** For each cell style (by index), whether it shows its number as a date. */
async function dateStyles(zip: ZipPackage, targets: Map<string, Target>): Promise<boolean[]> {
  const part = [...targets.values()].find((target) => /styles\.xml$/i.test(target.path))?.path ?? 'xl/styles.xml';
  const xml = await zip.text(part);
  if (xml === null) return [];
  const tree = parseXml(xml, part);
  const custom = new Map<number, string>();
  for (const format of descendants(tree, 'numFmt')) custom.set(Number(attr(format, 'numFmtId')), attr(format, 'formatCode') ?? '');
  const cellXfs = descendants(tree, 'cellXfs')[0];
  if (cellXfs === undefined) return [];
  return childElements(cellXfs, 'xf').map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    const code = custom.get(id);
    // A custom format is a date when it has day, month or year codes outside quotes and brackets.
    return code === undefined ? DATE_FORMAT_IDS.has(id) : /[dmy]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ''));
  });
}

interface SheetContext {
  strings: string[];
  styles: boolean[];
  date1904: boolean;
  rows: SheetRows;
  outline: Outline;
  links: Map<string, Target>;
}

/** One worksheet, as a stream of XML events, until its end or the cell cap. */
async function readSheet(zip: ZipPackage, part: string, context: SheetContext): Promise<void> {
  const { rows } = context;
  const hiddenColumns: [number, number][] = [];
  const isHiddenColumn = (column: number): boolean => hiddenColumns.some(([min, max]) => column >= min && column <= max);
  let rowNumber = 0;
  let rowHidden = false;
  let cells: SheetCells = [];
  let cell: { column: number; type: string; style: number } | null = null;
  let value: string[] = [];
  let inValue = false;
  let going = true;
  const links: { ref: string; id?: string; location?: string; display?: string }[] = [];
  const stream = new XmlStream(
    {
      onopentag(name, attributes) {
        switch (localName(name)) {
          case 'col':
            if (/^(1|true)$/.test(attributes.hidden ?? '')) hiddenColumns.push([Number(attributes.min) - 1, Number(attributes.max) - 1]);
            return;
          case 'row':
            rowNumber = Number(attributes.r ?? rowNumber + 1);
            rowHidden = /^(1|true)$/.test(attributes.hidden ?? '');
            cells = [];
            return;
          case 'c': {
            const letters = /^[A-Z]+/i.exec(attributes.r ?? '')?.[0];
            cell = { column: letters === undefined ? cells.length : columnIndex(letters), type: attributes.t ?? 'n', style: Number(attributes.s ?? 0) };
            value = [];
            return;
          }
          case 'v':
          case 't':
            inValue = cell !== null;
            return;
          case 'hyperlink':
            links.push({ ref: attributes.ref ?? '', id: byLocalName(attributes, 'id'), location: attributes.location, display: attributes.display });
            return;
        }
      },
      ontext(text) {
        if (inValue) value.push(text);
      },
      onclosetag(name) {
        switch (localName(name)) {
          case 'v':
          case 't':
            inValue = false;
            return;
          case 'c':
            if (cell !== null && cell.column >= 0 && cell.column < MAX_COLUMNS) cells[cell.column] = cellText(cell.type, cell.style, value.join(''), context);
            cell = null;
            return;
          case 'row':
            if (going && !rows.row(rowNumber, cells, rowHidden, isHiddenColumn)) going = false;
            return;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  await zip.stream(part, (text) => {
    stream.write(text);
    return going;
  });
  if (going) stream.end();
  for (const link of links) {
    const target = link.id === undefined ? undefined : context.links.get(link.id);
    const href = target?.external ? target.path : link.location ? `#${link.location}` : undefined;
    const rowOf = Number(/\d+/.exec(link.ref)?.[0] ?? 0);
    const location = rows.rowLocation(rowOf);
    if (href !== undefined && location !== null && !href.startsWith('#')) context.outline.link(href, link.display ?? '', location);
  }
}

function byLocalName(attributes: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(attributes)) if (localName(key) === name) return value;
  return undefined;
}

/** Excel's last column is XFD; a cell reference beyond it is damage, not data. */
const MAX_COLUMNS = 16_384;

function cellText(type: string, style: number, raw: string, context: SheetContext): string {
  switch (type) {
    case 's':
      return context.strings[Number(raw)] ?? '';
    case 'b':
      return raw === '1' ? 'TRUE' : 'FALSE';
    case 'str':
    case 'inlineStr':
    case 'e':
    case 'd':
      return raw;
    default: {
      if (raw.trim() === '') return '';
      const number = Number(raw);
      if (!Number.isFinite(number)) return raw;
      if (context.styles[style]) return serialDate(number, context.date1904) ?? raw;
      return Math.abs(number) >= 1e15 || Number.isInteger(number) ? raw : String(Number(number.toPrecision(15)));
    }
  }
}

/** An Excel date serial as an ISO date (with the time when it has one); null when out of range. */
function serialDate(serial: number, date1904: boolean): string | null {
  if (serial < 0 || serial > 2_958_465) return null;
  // Excel counts from 1899-12-30 (its fictitious 1900-02-29 folded in) or, in 1904 mode, from 1904-01-01.
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const date = new Date(epoch + Math.round(serial * 86_400_000));
  const iso = date.toISOString();
  return serial % 1 === 0 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}
