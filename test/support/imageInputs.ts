// Generated images and image-only PDFs for the OCR parser's hostile cases: a PNG whose header
// declares a huge picture (it deflates to almost nothing) and a PDF of many pages that each draw
// the same blank scan, with no text layer.

import { deflateSync } from 'node:zlib';

/** A valid grey-scale PNG of width × height white pixels. */
export function blankPng(width: number, height: number): Buffer {
  const row = Buffer.alloc(width + 1, 0xff);
  row[0] = 0; // filter: none
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grey
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PDF of `pages` letter pages, each drawing one shared 100 × 100 white image, without any text. */
export function imageOnlyPdf(pages: number): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const object = (id: number, body: string): void => {
    offsets[id] = length;
    const text = `${id} 0 obj\n${body}\nendobj\n`;
    parts.push(text);
    length += Buffer.byteLength(text, 'latin1');
  };
  const pageId = (page: number) => 5 + page;
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, page) => `${pageId(page)} 0 R`).join(' ')}] /Count ${pages} >>`);
  const pixels = '\xff'.repeat(100 * 100);
  object(3, `<< /Type /XObject /Subtype /Image /Width 100 /Height 100 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`);
  const draw = 'q 612 0 0 792 0 0 cm /Im0 Do Q';
  object(4, `<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
  for (let page = 0; page < pages; page++) {
    object(pageId(page), '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 3 0 R >> >> /Contents 4 0 R >>');
  }
  const count = pageId(pages);
  const xref = length;
  parts.push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id++) parts.push(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
