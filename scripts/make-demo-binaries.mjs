#!/usr/bin/env node
// Generates the derived files of the demo folder (docs/demo), deterministically: re-running the
// script produces byte-identical output.
//
//   docs/demo/site-safety-inspection-2025-08.pdf   2-page PDF with a real text layer, written by hand
//   docs/demo/supplier-review-example-ltd.docx      DOCX with headings, a bulleted list and a table (jszip)
//   docs/demo/shared-drive/incidents-backup/incident-2025-03-14-forklift-collision.md   byte-identical copy of an incident report
//
// Usage: node scripts/make-demo-binaries.mjs [--check]
//   --check  also extracts the text back with pdfjs-dist and mammoth and prints it.
//
// No dependencies beyond the project's own: jszip comes with mammoth.

import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(root, 'docs', 'demo');
const require = createRequire(import.meta.url);

function loadJSZip() {
  try {
    return require('jszip');
  } catch {
    // Not hoisted: resolve it from mammoth, which depends on it.
    return createRequire(require.resolve('mammoth'))('jszip');
  }
}

function write(path, bytes) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  console.log(`wrote ${relative(root, path)} (${bytes.length} bytes, sha256 ${sha}...)`);
}

// ---------------------------------------------------------------------------------------------
// PDF

const inspection = {
  title: 'Site safety inspection: Northgate Distribution Centre, August 2025',
  author: 'Dr. Amara Osei',
  subject: 'Quarterly site safety inspection, Larkspur Logistics',
  date: 'D:20250812160000Z',
  pages: [
    [
      ['title', 'Site safety inspection report'],
      ['subtitle', 'Northgate Distribution Centre, Larkspur Logistics'],
      ['gap'],
      ['text', 'Inspection date: 12 August 2025'],
      ['text', 'Inspector: Dr. Amara Osei, Head of Health, Safety and Environment'],
      ['text', 'Accompanied by: Mr. Jonas Weber, Site Safety Officer; Ms. Carla Mendes, Shift Supervisor'],
      ['text', 'Reference: SSI-NDC-2025-Q3'],
      ['heading', '1. Scope'],
      ['para', 'This quarterly inspection covered Bays 3, 4 and 5, the loading docks and the yard. In Bay 4 it also checked the close-out of the actions from incident INC-2025-014 (reach truck collision, 14 March 2025) and INC-2025-031 (sprinkler branch line leak, 22 July 2025), and the documentation for gantry crane GC-2 after its refurbishment by Example Ltd.'],
      ['heading', '2. Findings in Bay 4'],
      ['para', '2.1 Racking. All uprights in aisles 4A to 4H were inspected. Two GREEN-rated dents were recorded at 4B-03 and 4G-17; no AMBER or RED damage. Upright 4C-12, replaced after INC-2025-014, is sound.'],
      ['para', '2.2 Aisle ends. Convex mirrors are fitted at all sixteen aisle ends and the no-parking hatching is in place. One returns pallet was found parked at the end of aisle 4E and was moved during the inspection.'],
      ['para', '2.3 Gantry crane GC-2. The crane was refurbished by Example Ltd between 7 April and 16 May 2025. Load test certificate EL-LT-25-0198 and the examination report are on file. The pendant control and the limit switches worked correctly when tested. The next thorough examination is booked for 18 November 2025.'],
      ['para', '2.4 Sprinklers, zone Z4. All hangers on branch lines 4F-1 to 4F-6 are now fitted with retaining clips, following the hanger survey under action 1 of INC-2025-031. The hanger next to the replaced coupling was checked by hand and is secure. The sprinkler inspection brought forward under action 4 of INC-2025-031 is booked for 27 August 2025.'],
    ],
    [
      ['heading', '3. Findings in other areas'],
      ['para', '3.1 Bay 3. Gantry crane GC-1 is in service with a valid examination until 11 February 2026. Its pendant cable shows wear at the strain relief; Maintenance to replace it before the 2026 refurbishment.'],
      ['para', '3.2 Loading docks. Dock levellers at doors 3 and 4 still stick in cold weather; their replacement has been deferred to Q4 2025. Until then, the manual release procedure must be displayed at both doors.'],
      ['para', '3.3 Yard. Pedestrian crossing markings at the gatehouse are faded and should be repainted before the peak season.'],
      ['heading', '4. Actions'],
      ['text', 'A1  Display the manual release procedure at doors 3 and 4. Owner: Ms. Carla Mendes. Due: 19 August 2025.'],
      ['text', 'A2  Replace the GC-1 pendant cable. Owner: Mr. Tomasz Wieczorek. Due: 30 September 2025.'],
      ['text', 'A3  Repaint the yard crossing at the gatehouse. Owner: Mr. Tomasz Wieczorek. Due: 15 September 2025.'],
      ['text', 'A4  Remind all shifts that returns pallets go to the marked returns area. Owner: Ms. Carla Mendes. Due: 15 August 2025.'],
      ['text', 'A5  Confirm that Example Ltd has sent the written account of the hanger removal. Owner: Ms. Priya Raman.'],
      ['heading', '5. Conclusion'],
      ['para', 'Overall, Bay 4 is in a noticeably better state than at the May inspection. The actions from both incidents are in place where they concern physical equipment. The remaining risk lies in contractor works: the permit close-out walk-round now includes overhead services, and its use will be audited at the next inspection in November 2025.'],
      ['gap'],
      ['text', 'Signed: Dr. Amara Osei, Head of Health, Safety and Environment, 12 August 2025'],
      ['text', 'Contact: amara.osei@larkspur-logistics.example'],
    ],
  ],
};

const PAGE_W = 595;
const PAGE_H = 842;
const MARGIN = 56;
const STYLES = {
  title: { font: 'F2', size: 18, leading: 24, wrap: 60 },
  subtitle: { font: 'F1', size: 12, leading: 16, wrap: 80 },
  heading: { font: 'F2', size: 12, leading: 16, wrap: 80, before: 10 },
  para: { font: 'F1', size: 10, leading: 13.5, wrap: 92, after: 5 },
  text: { font: 'F1', size: 10, leading: 13.5, wrap: 92 },
  footer: { font: 'F1', size: 8, leading: 10, wrap: 120 },
};

function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function pdfString(text) {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`PDF text must be printable ASCII: ${text}`);
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function pageContent(items, pageNo, pageCount) {
  const ops = [];
  let y = PAGE_H - MARGIN;
  for (const [style, text] of items) {
    if (style === 'gap') {
      y -= 10;
      continue;
    }
    const s = STYLES[style];
    y -= s.before ?? 0;
    for (const line of wrap(text, s.wrap)) {
      y -= s.leading;
      ops.push(`BT /${s.font} ${s.size} Tf ${MARGIN} ${y.toFixed(1)} Td ${pdfString(line)} Tj ET`);
    }
    y -= s.after ?? 0;
  }
  if (y < MARGIN + 20) throw new Error(`page ${pageNo} overflows (y=${y})`);
  const f = STYLES.footer;
  const footer = `Larkspur Logistics - Site safety inspection SSI-NDC-2025-Q3 - Page ${pageNo} of ${pageCount}`;
  ops.push(`BT /${f.font} ${f.size} Tf ${MARGIN} ${MARGIN - 20} Td ${pdfString(footer)} Tj ET`);
  return ops.join('\n') + '\n';
}

function makePdf(doc) {
  // Objects: 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, 5 info, then per page a page
  // object and its content stream.
  const pageCount = doc.pages.length;
  const objects = [];
  const pageIds = doc.pages.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageCount} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] =
    `<< /Title ${pdfString(doc.title)} /Author ${pdfString(doc.author)} /Subject ${pdfString(doc.subject)}` +
    ` /Creator (scripts/make-demo-binaries.mjs) /Producer (Relata demo generator)` +
    ` /CreationDate (${doc.date}) /ModDate (${doc.date}) >>`;
  doc.pages.forEach((items, i) => {
    const content = pageContent(items, i + 1, pageCount);
    objects[pageIds[i]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}]` +
      ` /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] =
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`;
  });

  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0].length;
  const offsets = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = offset;
    const buf = Buffer.from(`${id} 0 obj\n${objects[id]}\nendobj\n`, 'latin1');
    chunks.push(buf);
    offset += buf.length;
  }
  const body = Buffer.concat(chunks);
  const id = createHash('md5').update(body).digest('hex');
  const xref = [
    'xref',
    `0 ${objects.length}`,
    '0000000000 65535 f ',
    ...offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R /ID [<${id}> <${id}>] >>`,
    'startxref',
    String(body.length),
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.concat([body, Buffer.from(xref, 'latin1')]);
}

// ---------------------------------------------------------------------------------------------
// DOCX

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function esc(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function run(text, { bold = false } = {}) {
  return `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
}

function para(text, { style, bullet = false, bold = false } = {}) {
  const props = [];
  if (style) props.push(`<w:pStyle w:val="${style}"/>`);
  if (bullet) props.push('<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>');
  return `<w:p>${props.length ? `<w:pPr>${props.join('')}</w:pPr>` : ''}${run(text, { bold })}</w:p>`;
}

function table(rows, widths) {
  const grid = widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('');
  const trs = rows
    .map((cells, r) => {
      const tcs = cells
        .map(
          (cell, c) =>
            `<w:tc><w:tcPr><w:tcW w:w="${widths[c]}" w:type="dxa"/></w:tcPr>${para(cell, { bold: r === 0 })}</w:tc>`,
        )
        .join('');
      return `<w:tr>${r === 0 ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${tcs}</w:tr>`;
    })
    .join('');
  return (
    '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>' +
    '<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/>' +
    `</w:tblPr><w:tblGrid>${grid}</w:tblGrid>${trs}</w:tbl>`
  );
}

function supplierReviewBody() {
  const h1 = (t) => para(t, { style: 'Heading1' });
  const h2 = (t) => para(t, { style: 'Heading2' });
  const p = (t) => para(t);
  const li = (t) => para(t, { style: 'ListParagraph', bullet: true });
  return [
    h1('Supplier review: Example Ltd'),
    p('Prepared by Ms. Priya Raman, Procurement Lead, Larkspur Logistics, on 5 September 2025. Review period: September 2024 to August 2025. Contact: priya.raman@larkspur-logistics.example.'),
    h2('Scope'),
    p('Example Ltd maintains and examines the two gantry cranes at the Northgate Distribution Centre (GC-1 in Bay 3 and GC-2 in Bay 4) and carried out the refurbishment of GC-2 under purchase order PO-2025-0412. Its account manager is Mr. Graham Hollis, Project Engineer (graham.hollis@example.com). This review draws on the maintenance completion report of 23 May 2025, incident report INC-2025-031 and the site safety inspection of 12 August 2025.'),
    h2('Strengths'),
    li('The GC-2 refurbishment was completed on 16 May 2025, on the planned date, and the overload test passed first time (certificate EL-LT-25-0198).'),
    li('All six breakdown calls in the period were answered within four hours.'),
    li('Engineers on site held current crane inspection qualifications and completed the Northgate site induction.'),
    h2('Concerns'),
    li('During the GC-2 works a sprinkler pipe hanger above aisle 4F was removed without a change to the permit-to-work and was refitted out of position. This contributed to the sprinkler leak of 22 July 2025 (INC-2025-031).'),
    li('The written account of the hanger removal, requested for 29 August 2025, has not been received.'),
    li('The cost of the GC-2 refurbishment is not yet agreed between departments: the purchase order and the maintenance report give EUR 42,000, while the Q2 capital budget review records EUR 51,500. Procurement is reconciling the invoices with Ms. Lena Fischer, Finance.'),
    h2('Scorecard'),
    table(
      [
        ['Criterion', 'Weight', 'Score (1-5)', 'Comment'],
        ['Quality of work', '30%', '4', 'Crane work to specification; load test passed first time'],
        ['Safety and compliance', '30%', '2', 'Hanger removed outside the permit (INC-2025-031)'],
        ['Delivery', '20%', '5', 'GC-2 completed on 16 May 2025 as planned'],
        ['Commercial', '20%', '3', 'Invoice reconciliation for GC-2 open'],
        ['Weighted score', '100%', '3.4', 'Conditional approval'],
      ],
      [2600, 1100, 1400, 3926],
    ),
    h2('Decision'),
    p('Example Ltd remains an approved supplier on a conditional basis until 31 March 2026. Conditions: every job involving overhead services needs its own permit-to-work, and the written account of the hanger removal must be received by 30 September 2025. The GC-1 refurbishment planned for 2026 will not be awarded until both conditions are met.'),
  ].join('');
}

function makeDocx(JSZip) {
  const date = new Date('2025-09-05T09:00:00Z');
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const files = {
    '[Content_Types].xml':
      xml +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
      '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>' +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
      '</Types>',
    '_rels/.rels':
      xml +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
      '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>' +
      '</Relationships>',
    'docProps/core.xml':
      xml +
      '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
      '<dc:title>Supplier review: Example Ltd</dc:title>' +
      '<dc:creator>Priya Raman</dc:creator>' +
      '<cp:lastModifiedBy>Priya Raman</cp:lastModifiedBy>' +
      '<dcterms:created xsi:type="dcterms:W3CDTF">2025-09-05T09:00:00Z</dcterms:created>' +
      '<dcterms:modified xsi:type="dcterms:W3CDTF">2025-09-05T09:00:00Z</dcterms:modified>' +
      '</cp:coreProperties>',
    'docProps/app.xml':
      xml +
      '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">' +
      '<Application>Relata demo generator</Application><Company>Larkspur Logistics</Company></Properties>',
    'word/_rels/document.xml.rels':
      xml +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>' +
      '</Relationships>',
    'word/document.xml':
      xml +
      `<w:document xmlns:w="${W_NS}"><w:body>${supplierReviewBody()}` +
      '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>' +
      '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>' +
      '</w:sectPr></w:body></w:document>',
    'word/styles.xml':
      xml +
      `<w:styles xmlns:w="${W_NS}">` +
      '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault>' +
      '<w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>' +
      '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>' +
      '<w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>' +
      '<w:pPr><w:keepNext/><w:spacing w:before="200" w:after="80"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:qFormat/>' +
      '<w:pPr><w:ind w:left="720"/><w:contextualSpacing/></w:pPr></w:style>' +
      '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/>' +
      '<w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>' +
      '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:tblPr><w:tblBorders>' +
      '<w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/>' +
      '<w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/>' +
      '<w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/>' +
      '</w:tblBorders></w:tblPr></w:style>' +
      '</w:styles>',
    'word/numbering.xml':
      xml +
      `<w:numbering xmlns:w="${W_NS}">` +
      '<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>' +
      '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\u2022"/><w:lvlJc w:val="left"/>' +
      '<w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol" w:hint="default"/></w:rPr></w:lvl>' +
      '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>',
  };
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) {
    zip.file(name, content, { date, createFolders: false, unixPermissions: null, dosPermissions: null });
  }
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    compressionOptions: { level: 9 },
    platform: 'DOS',
  });
}

// ---------------------------------------------------------------------------------------------
// Check (optional): extract the text back with the libraries the parsers use.

async function check(pdfPath, docxPath) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(pdfPath)) }).promise;
  console.log(`\n--- ${relative(root, pdfPath)}: ${pdf.numPages} pages`);
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    const text = content.items.map((it) => ('str' in it ? it.str + (it.hasEOL ? '\n' : ' ') : '')).join('');
    console.log(`[page ${n}: ${content.items.length} items]\n${text.trim()}\n`);
  }
  await pdf.destroy();

  const mammoth = require('mammoth');
  const result = await mammoth.convertToHtml({ path: docxPath });
  console.log(`--- ${relative(root, docxPath)}`);
  console.log(result.value.replace(/(<\/(?:h\d|p|li|tr|ul|table)>)/g, '$1\n'));
  if (result.messages.length) console.log('mammoth messages:', result.messages);
}

const pdfPath = join(demo, 'site-safety-inspection-2025-08.pdf');
const docxPath = join(demo, 'supplier-review-example-ltd.docx');

write(pdfPath, makePdf(inspection));
write(docxPath, await makeDocx(loadJSZip()));

const original = join(demo, 'incidents', 'incident-2025-03-14-forklift-collision.md');
const copy = join(demo, 'shared-drive', 'incidents-backup', 'incident-2025-03-14-forklift-collision.md');
mkdirSync(dirname(copy), { recursive: true });
copyFileSync(original, copy);
console.log(`copied ${relative(root, original)} -> ${relative(root, copy)}`);

if (process.argv.includes('--check')) await check(pdfPath, docxPath);
