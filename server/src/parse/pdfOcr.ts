// A scanned PDF's pages are pictures of text: each page without a text layer is rendered to pixels
// (pdf.js drawing on @napi-rs/canvas, the canvas pdf.js itself uses in Node) at up to 200 dpi,
// never more than the pixel cap, and read by OCR (ocr.ts). Rendering the page rather than pulling
// out its embedded image also reads pages whose scan is split into strips or drawn rotated. The
// work is bounded: at most maxOcrPages pages per file and ocrTimeMs in all; pages left unread are
// reported, so a 10,000-page scan costs the same as a 50-page one.

import type { Block } from './types.ts';
import { checkPixels, leftOutNote, OCR_OFF_REASON, withinTime } from './image.ts';
import { ocrLabel } from '../../../shared/ocrLabel.ts';
import { recognise, type OcrResult } from './ocr.ts';
import { ParseError, type ParserLimits } from './types.ts';

export type PdfOcrLimits = Pick<ParserLimits, 'ocr' | 'maxOcrPages' | 'maxOcrPixels' | 'ocrTimeMs'>;

/** Scans are made at 200–300 dpi; on a dense scanned page 300 dpi found 1% more words for 60% more time (docs/EXTRACTION.md). */
const RENDER_DPI = 200;
/** Below this scale a page is too large to render legibly within the pixel cap: a poster, not a page. */
const MIN_RENDER_SCALE = 100 / 72;

export interface ScannedPages {
  /** Page number → the paragraphs OCR read on it, labelled as read by OCR. */
  pages: Map<number, Block[]>;
  results: OcrResult[];
  /** Pages without a text layer that were not read (cap, time), for `truncated`; null when none. */
  leftOut: string | null;
  /** Why no word at all was read, for a file with no text layer. */
  noTextReason: string;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

export async function readScannedPages(
  pdfjs: PdfJs,
  bytes: Uint8Array,
  pageNumbers: readonly number[],
  limits: PdfOcrLimits,
  assets: object,
): Promise<ScannedPages> {
  const scanned: ScannedPages = { pages: new Map(), results: [], leftOut: null, noTextReason: '' };
  const pagesPhrase = `${pageNumbers.length.toLocaleString('en-GB')} page${pageNumbers.length === 1 ? '' : 's'} without a text layer`;
  if (pageNumbers.length === 0) return scanned;
  if (!limits.ocr) {
    scanned.noTextReason = `the PDF's pages are images (a scan?) and ${OCR_OFF_REASON}`;
    scanned.leftOut = `${pagesPhrase} not read: ${OCR_OFF_REASON}`;
    return scanned;
  }
  const deadline = Date.now() + limits.ocrTimeMs;
  const { createCanvas } = await import('@napi-rs/canvas');
  // A second copy of the document, with images decoded: the text pass told pdf.js not to decode them.
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: pdfjs.VerbosityLevel.ERRORS, ...assets });
  let read = 0;
  let stoppedBy: string | null = null;
  let wordsLeftOut = 0;
  let refused: string | null = null;
  try {
    const doc = await task.promise;
    for (const pageNumber of pageNumbers) {
      if (read >= limits.maxOcrPages) {
        stoppedBy = `the cap of ${limits.maxOcrPages.toLocaleString('en-GB')} pages read by OCR per file (RELATA_OCR_MAX_PAGES)`;
        break;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        stoppedBy = `the ${limits.ocrTimeMs / 1000} s OCR time budget`;
        break;
      }
      const page = await doc.getPage(pageNumber);
      try {
        const base = page.getViewport({ scale: 1 });
        const scale = Math.min(RENDER_DPI / 72, Math.sqrt(limits.maxOcrPixels / Math.max(base.width * base.height, 1)));
        if (scale < MIN_RENDER_SCALE) {
          try {
            checkPixels(Math.ceil(base.width * MIN_RENDER_SCALE), Math.ceil(base.height * MIN_RENDER_SCALE), limits.maxOcrPixels, `page ${pageNumber}`);
          } catch (error) {
            refused ??= (error as Error).message;
          }
          continue;
        }
        const viewport = page.getViewport({ scale });
        const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
        const context = canvas.getContext('2d');
        context.fillStyle = 'white';
        context.fillRect(0, 0, canvas.width, canvas.height);
        await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
        const result = await withinTime(recognise(canvas.toBuffer('image/png')), left);
        read++;
        wordsLeftOut += result.wordsLeftOut;
        if (result.wordsKept === 0) continue;
        scanned.results.push(result);
        const label = ocrLabel(result.confidence, pageNumber);
        scanned.pages.set(
          pageNumber,
          result.paragraphs.map((paragraph) => ({ kind: 'paragraph', text: paragraph.text, headingPath: [label], location: { kind: 'pages', start: pageNumber, end: pageNumber } })),
        );
      } catch (error) {
        if (error instanceof ParseError && /OCR took longer/.test(error.message)) {
          stoppedBy = `the ${limits.ocrTimeMs / 1000} s OCR time budget`;
          break;
        }
        throw error;
      } finally {
        page.cleanup();
      }
    }
  } finally {
    await task.destroy().catch(() => undefined);
  }
  const unread = pageNumbers.length - read;
  if (stoppedBy !== null && unread > 0) scanned.leftOut = `${unread.toLocaleString('en-GB')} of ${pagesPhrase} not read by OCR: stopped at ${stoppedBy}`;
  else if (refused !== null) scanned.leftOut = refused;
  scanned.noTextReason =
    refused !== null && read === 0
      ? refused
      : `the PDF's pages are images (a scan?) and OCR found no words on the ${read.toLocaleString('en-GB')} page${read === 1 ? '' : 's'} it read${leftOutNote({ wordsLeftOut })}${scanned.leftOut ? `; ${scanned.leftOut}` : ''}`;
  return scanned;
}
