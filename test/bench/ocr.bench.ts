// npm run bench:ocr — what reading scans, e-mail and RTF costs (issue 30). OCR: each test image of
// ../shared/eval/documents-more and its scanned PDF read through the parsers, with the character
// error rate against a transcription made by looking at the image (labels/ocr-reference.tsv), and
// pages per second on one Tesseract worker (a stage thread runs one; two lanes run two), the
// worker's start-up timed apart. Then a dense two-page scan (../shared/eval/documents) for
// a page with hundreds of words. E-mail and RTF: every .eml, .mbox and .rtf of the set, files/s and
// the peak resident memory of the process while they parse (before OCR loads). Prints figures; asserts nothing.

import fs from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { emailParser } from '../../server/src/parse/registry.ts';
import { imageParser } from '../../server/src/parse/image.ts';
import { closeOcr, recognise } from '../../server/src/parse/ocr.ts';
import { pdfParser } from '../../server/src/parse/pdf.ts';
import { rtfParser } from '../../server/src/parse/rtf.ts';
import type { Parser } from '../../server/src/parse/types.ts';
import { DOCUMENTS_DIR, DOCUMENTS_MORE_DIR } from '../unit/parse-eval.ts';

if (!fs.existsSync(DOCUMENTS_MORE_DIR)) {
  console.log(`skipped: evaluation data not found at ${DOCUMENTS_MORE_DIR}`);
  process.exit(0);
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB; load average ${loadavg()[0]!.toFixed(1)}`);

/** Levenshtein distance between two strings, by characters. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

// E-mail and RTF first, so their peak memory is not Tesseract's and pdf.js's.
console.log('');
await throughput('e-mail', emailParser, ['eml', 'mbox']);
await throughput('RTF', rtfParser, ['rtf']);

// Tesseract's start-up, apart from the pages.
let started = performance.now();
await recognise(fs.readFileSync(path.join(DOCUMENTS_MORE_DIR, 'png/testOCR_spacing.png')));
console.log(`\nOCR worker start-up and a first small image: ${Math.round(performance.now() - started)} ms`);

const reference = fs
  .readFileSync(new URL('./labels/ocr-reference.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  .map((line) => line.split('\t') as [string, string]);

console.log('\nfile                        ms   CER     read');
let errors = 0;
let characters = 0;
let ocrMs = 0;
for (const [file, expected] of reference) {
  const parser = file.endsWith('.pdf') ? pdfParser : imageParser;
  started = performance.now();
  const doc = await parser.parse(new Uint8Array(fs.readFileSync(path.join(DOCUMENTS_MORE_DIR, file))), path.basename(file));
  const ms = performance.now() - started;
  ocrMs += ms;
  const read = flat(doc.text);
  const distance = editDistance(read, expected);
  errors += distance;
  characters += expected.length;
  console.log(`${file.padEnd(26)} ${String(Math.round(ms)).padStart(5)} ${(distance / expected.length).toFixed(3).padStart(6)}  ${JSON.stringify(read)}`);
}
console.log(`character error rate over ${reference.length} images: ${(errors / characters).toFixed(3)} (${errors} edits in ${characters} characters); ${(reference.length / (ocrMs / 1000)).toFixed(2)} pages/s`);

const dense = path.join(DOCUMENTS_DIR, 'pdf/scanned-image-only-2pp.pdf');
if (fs.existsSync(dense)) {
  started = performance.now();
  const doc = await pdfParser.parse(new Uint8Array(fs.readFileSync(dense)), 'scanned-image-only-2pp.pdf');
  const seconds = (performance.now() - started) / 1000;
  const words = doc.text.split(/\s+/).filter(Boolean).length;
  const confidence = doc.metadata?.entries.find((entry) => entry.label === 'OCR confidence')?.text;
  console.log(`dense scan, 2 pages at 200 dpi: ${seconds.toFixed(1)} s (${(seconds / 2).toFixed(1)} s a page, ${(2 / seconds).toFixed(2)} pages/s), ${words} words, confidence ${confidence}`);
}
await closeOcr();

/** Parses every file of the folders with the parser, sampling the resident memory as it goes. */
async function throughput(label: string, parser: Parser, folders: string[]): Promise<void> {
  const files = folders.flatMap((folder) => fs.readdirSync(path.join(DOCUMENTS_MORE_DIR, folder)).map((name) => path.join(DOCUMENTS_MORE_DIR, folder, name)));
  let bytes = 0;
  let failed = 0;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const begin = performance.now();
  for (const file of files) {
    const data = new Uint8Array(fs.readFileSync(file));
    bytes += data.length;
    await parser.parse(data, path.basename(file)).catch(() => failed++);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - begin) / 1000;
  clearInterval(sampler);
  console.log(
    `${label.padEnd(12)} ${files.length} files, ${(bytes / 1024).toFixed(0)} KB: ${(files.length / seconds).toFixed(1)} files/s, ${(bytes / 1024 / 1024 / seconds).toFixed(2)} MB/s; ${failed} failed with a reason; peak RSS ${Math.round(peak / 2 ** 20)} MB`,
  );
}
