// ZIP containers built in tests: minimal Office, OpenDocument and EPUB files with the parts a
// test needs, and hostile ones (a zip bomb, a sheet of a million rows).

import JSZip from 'jszip';
import { escapeXml } from './documentBuilders.ts';

export async function makeZip(parts: Record<string, string | Uint8Array>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(parts)) zip.file(name, content);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** A container of the given parts plus one part of `megabytes` MB of zeros: a few hundred KB that inflate a thousand times over. */
export async function zipBomb(parts: Record<string, string>, bombPart: string, megabytes = 64): Promise<Uint8Array> {
  return makeZip({ ...parts, [bombPart]: new Uint8Array(megabytes * 1024 * 1024) });
}

const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface SheetSpec {
  name: string;
  /** Rows of cells; a number is written as a number cell, a string as an inline string. */
  rows?: (string | number)[][];
  /** The sheet's XML rows written directly, for sheets too large to describe as arrays. */
  rowsXml?: string;
  state?: 'hidden' | 'veryHidden';
  hiddenRows?: number[];
  hiddenColumns?: number[];
}

function cellRef(column: number, row: number): string {
  return `${String.fromCharCode(65 + column)}${row}`;
}

/** An XLSX workbook with these sheets, inline strings only (no shared string table). */
export async function makeXlsx(sheets: SheetSpec[], title = ''): Promise<Uint8Array> {
  const parts: Record<string, string> = {
    '[Content_Types].xml': '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0"?><workbook xmlns="${SHEET_NS}" xmlns:r="${REL_NS}"><sheets>${sheets
      .map((sheet, i) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"${sheet.state ? ` state="${sheet.state}"` : ''}/>`)
      .join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('')}</Relationships>`,
  };
  if (title !== '') {
    parts['docProps/core.xml'] = `<?xml version="1.0"?><cp:coreProperties xmlns:cp="x" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${escapeXml(title)}</dc:title></cp:coreProperties>`;
  }
  sheets.forEach((sheet, i) => {
    const cols = (sheet.hiddenColumns ?? []).map((c) => `<col min="${c + 1}" max="${c + 1}" hidden="1"/>`).join('');
    const rows =
      sheet.rowsXml ??
      (sheet.rows ?? [])
        .map((cells, r) => {
          const hidden = sheet.hiddenRows?.includes(r + 1) ? ' hidden="1"' : '';
          const xml = cells
            .map((cell, c) => (typeof cell === 'number' ? `<c r="${cellRef(c, r + 1)}"><v>${cell}</v></c>` : `<c r="${cellRef(c, r + 1)}" t="inlineStr"><is><t>${escapeXml(cell)}</t></is></c>`))
            .join('');
          return `<row r="${r + 1}"${hidden}>${xml}</row>`;
        })
        .join('');
    parts[`xl/worksheets/sheet${i + 1}.xml`] = `<?xml version="1.0"?><worksheet xmlns="${SHEET_NS}">${cols ? `<cols>${cols}</cols>` : ''}<sheetData>${rows}</sheetData></worksheet>`;
  });
  return makeZip(parts);
}

/** The parts that make a file an EPUB, for tests that add a hostile part of their own. */
export const EPUB_SKELETON: Record<string, string> = {
  mimetype: 'application/epub+zip',
  'META-INF/container.xml': '<?xml version="1.0"?><container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
  'OEBPS/content.opf':
    '<?xml version="1.0"?><package><metadata><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">Bomb</dc:title></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>',
};
