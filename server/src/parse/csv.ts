// A CSV file is one sheet: its first record names the columns, and each later record becomes a
// passage naming them ("costs, row 12: Supplier Harbourline Engineering Ltd; Cost 42000"),
// located by the lines it spans so the editor opens it in place. The separator is the one the
// first line uses most (comma, semicolon, tab or bar: Excel writes semicolons in much of
// Europe). The file is read up to the cell cap of every spreadsheet (sheetRows.ts).

import { parse as parseCsv, CsvError, type Options } from 'csv-parse/sync';
import path from 'node:path';
import type { Location } from '../../../shared/types.ts';
import { decodeText } from './decode.ts';
import { parsedDocument } from './document.ts';
import { Outline } from './outline.ts';
import { MAX_SHEET_CELLS, SheetRows } from './sheetRows.ts';
import { ParseError, type Parser } from './types.ts';

export const csvParser: Parser = {
  version: 'csv@1',
  extensions: ['.csv', '.tsv'],
  async parse(bytes, fileName) {
    const text = decodeText(bytes);
    const delimiter = path.extname(fileName).toLowerCase() === '.tsv' ? '\t' : separator(text);
    // Each record keeps only the line it ends on: the library's full info per record would cost more than the record.
    const options: Options<CsvRecord, string[]> = { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, on_record: (record, context) => ({ record, lines: context.lines }) };
    // The header's width sets how many records fit under the cell cap; only those are parsed.
    const columns = Math.max(1, records(text, { ...options, to: 1 })[0]?.record.length ?? 1);
    const limit = Math.floor(MAX_SHEET_CELLS / columns);
    const parsed = records(text, { ...options, to: limit + 1 });
    const outline = new Outline();
    const rows = new SheetRows(outline);
    rows.beginSheet(path.basename(fileName, path.extname(fileName)), false, { kind: 'lines', start: 1, end: 1 });
    let previousEnd = 0;
    for (const [index, { record, lines }] of parsed.entries()) {
      const location: Location = { kind: 'lines', start: previousEnd + 1, end: Math.max(previousEnd + 1, lines) };
      previousEnd = lines;
      if (index === limit || !rows.row(index + 1, record, false, () => false, location)) {
        rows.truncated ??= `read up to ${MAX_SHEET_CELLS.toLocaleString('en-GB')} cells: the first ${limit.toLocaleString('en-GB')} records of ${columns} columns; the rest of the file was left out`;
        break;
      }
    }
    rows.endSheet();
    return parsedDocument({
      title: null,
      blocks: outline.blocks,
      structure: { headings: outline.headings, tables: outline.tables },
      hidden: outline.hidden,
      truncated: rows.truncated,
    });
  },
};

type CsvRecord = { record: string[]; lines: number };

function records(text: string, options: Options<CsvRecord, string[]>): CsvRecord[] {
  try {
    // The typings offer no overload for on_record mapping to another type; this is what the function does.
    return (parseCsv as unknown as (input: string, options: Options<CsvRecord, string[]>) => CsvRecord[])(text, options);
  } catch (error) {
    // The library's message quotes the offending characters; the reason names the line instead.
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new ParseError(`malformed CSV${line === undefined ? '' : ` at line ${line}`}: ${error.code.replace(/^CSV_/, '').toLowerCase().replace(/_/g, ' ')}`);
    }
    throw error;
  }
}

/** The separator the first line uses most, outside quotes; a comma when it uses none. */
export function separator(text: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0], ['|', 0]]);
  let quoted = false;
  for (let i = 0; i < text.length && i < 64 * 1024; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const [char, count] of counts) if (count > counts.get(best)!) best = char;
  return best;
}
