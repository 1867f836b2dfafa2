// Generators of huge and deeply nested inputs for the parse-isolation tests and
// `npm run bench:hostile`: real files that real parsers read (valid PDFs written out object by
// object, a real zip archive), sized by the caller so a test stays fast and the benchmark can go
// large. Written directly (node:zlib for the deflate and the CRC) so a 100,000-page PDF or a
// 300 MB-inflating DOCX takes a second to make.

import { crc32, deflateRawSync } from 'node:zlib';

/** A valid PDF of `pages` pages, each with one line of text (Helvetica, uncompressed). */
export function manyPagePdf(pages: number): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (text: string): void => {
    parts.push(text);
    length += Buffer.byteLength(text, 'latin1');
  };
  const object = (id: number, body: string): void => {
    offsets[id] = length;
    add(`${id} 0 obj\n${body}\nendobj\n`);
  };
  const pageId = (page: number) => 4 + page * 2;
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: pages }, (_, page) => `${pageId(page)} 0 R`).join(' ');
  object(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let page = 0; page < pages; page++) {
    const content = `BT /F1 12 Tf 72 720 Td (Page ${page + 1} of the inspection log: crane bay ${page % 40}.) Tj ET`;
    object(
      pageId(page),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId(page) + 1} 0 R >>`,
    );
    object(pageId(page) + 1, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  const count = pageId(pages);
  const xrefAt = length;
  add(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id++) add(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  add(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A zip archive of deflated entries, from name → contents. */
export function zipArchive(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, contents] of Object.entries(entries)) {
    const data = typeof contents === 'string' ? Buffer.from(contents) : contents;
    const packed = deflateRawSync(data, { level: 9 });
    const fileName = Buffer.from(name);
    const checksum = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed to extract
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const PACKAGE_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/**
 * A DOCX whose document.xml inflates to about `inflatedMb` MB of ordinary paragraphs: a zip bomb
 * that is a real Word document, hostile by its size alone.
 */
export function docxBomb(inflatedMb: number): Buffer {
  const paragraph = '<w:p><w:r><w:t>The crane in bay four was inspected and passed.</w:t></w:r></w:p>';
  const body = Buffer.from(paragraph.repeat(Math.ceil((inflatedMb * 1024 * 1024) / paragraph.length)));
  const document = Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'),
    body,
    Buffer.from('</w:body></w:document>'),
  ]);
  return zipArchive({ '[Content_Types].xml': CONTENT_TYPES, '_rels/.rels': PACKAGE_RELS, 'word/document.xml': document });
}

/** Markdown whose list nests `depth` levels deep, repeated until it is about `bytes` long. */
export function deeplyNestedList(depth: number, bytes: number): string {
  const lines: string[] = [];
  for (let level = 0; level < depth; level++) lines.push(`${'  '.repeat(level)}- level ${level} item`);
  const one = lines.join('\n') + '\n\n';
  return one.repeat(Math.max(1, Math.ceil(bytes / one.length)));
}

/** Markdown holding a JSON code block nested `depth` levels deep. */
export function deeplyNestedJsonMarkdown(depth: number): string {
  return `# Nested data\n\n\`\`\`json\n${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}\n\`\`\`\n`;
}

/** Ordinary Markdown paragraphs, about `bytes` long. */
export function longMarkdown(bytes: number): string {
  const paragraph =
    'The crane in bay four was inspected on Monday by the night shift. The operator noted a small leak near the gantry and filed a report.\n\n';
  return `# Inspection log\n\n${paragraph.repeat(Math.ceil(bytes / paragraph.length))}`;
}
