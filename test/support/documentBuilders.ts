// Builds real DOCX and PDF files for parser tests, small enough to read at a glance: a DOCX from
// WordprocessingML body XML (zipped with jszip, as Word would), a PDF from page content streams
// (objects and cross-reference table written out, as scripts/make-demo-binaries.mjs does).

import JSZip from 'jszip';

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One run; `props` is the inside of its w:rPr, e.g. '<w:vanish/>'. */
export function wRun(text: string, props = ''): string {
  return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}

export function wPara(...runs: string[]): string {
  return `<w:p>${runs.join('')}</w:p>`;
}

export async function makeDocx(body: string, options: { styles?: string; background?: string; extra?: Record<string, string | Uint8Array> } = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    XML +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    XML +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    XML +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
      '</Relationships>',
  );
  const background = options.background ? `<w:background w:color="${options.background}"/>` : '';
  zip.file('word/document.xml', XML + `<w:document xmlns:w="${W_NS}">${background}<w:body>${body}</w:body></w:document>`);
  zip.file('word/styles.xml', XML + `<w:styles xmlns:w="${W_NS}">${options.styles ?? ''}</w:styles>`);
  for (const [name, content] of Object.entries(options.extra ?? {})) zip.file(name, content);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A text-showing operator at a position: `BT /F1 12 Tf x y Td (text) Tj ET`, with optional extra state (e.g. '3 Tr'). */
export function pdfText(text: string, y: number, state = '', size = 12): string {
  return `BT /F1 ${size} Tf ${state} 72 ${y} Td ${pdfString(text)} Tj ET`;
}

/**
 * A PDF with one page per content stream. `repeat` pages share the last stream, so a PDF of
 * thousands of pages stays small. `info` is its document information dictionary (Title,
 * Subject, Keywords…), when given; `annotations`, dictionaries written on the first page (links).
 */
export function makePdf(pages: string[], repeat = 0, info: Record<string, string> = {}, annotations: string[] = []): Uint8Array {
  const streams = pages.map((content) => `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  const pageCount = pages.length + repeat;
  const firstStream = 4;
  const firstPage = firstStream + streams.length;
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  streams.forEach((stream, i) => (objects[firstStream + i] = stream));
  const kids: string[] = [];
  for (let i = 0; i < pageCount; i++) {
    const content = firstStream + Math.min(i, streams.length - 1);
    const annots = i === 0 && annotations.length > 0 ? ` /Annots [${annotations.join(' ')}]` : '';
    objects[firstPage + i] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R${annots} >>`;
    kids.push(`${firstPage + i} 0 R`);
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pageCount} >>`;
  const entries = Object.entries(info);
  const infoId = entries.length > 0 ? objects.length : null;
  if (infoId !== null) objects[infoId] = `<< ${entries.map(([key, value]) => `/${key} ${pdfString(value)}`).join(' ')} >>`;
  const chunks = ['%PDF-1.4\n'];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = offset;
    const text = `${id} 0 obj\n${objects[id]}\nendobj\n`;
    chunks.push(text);
    offset += Buffer.byteLength(text, 'latin1');
  }
  const xref = [
    'xref',
    `0 ${objects.length}`,
    '0000000000 65535 f ',
    ...offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length} /Root 1 0 R${infoId === null ? '' : ` /Info ${infoId} 0 R`} >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  return new Uint8Array(Buffer.from(chunks.join('') + xref, 'latin1'));
}
