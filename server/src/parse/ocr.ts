// Reads the words in a page image with Tesseract compiled to WebAssembly (tesseract.js) and the
// English model the @tesseract.js-data/eng package ships, so nothing is downloaded at run time.
// One Tesseract worker per stage thread, started on first use and kept: starting one costs a
// second or more, reading a page about a second on one core. Words Tesseract is unsure of (below
// OCR_WORD_CONFIDENCE_FLOOR) are left out of the text, so a misread figure never becomes a claim
// or a search hit; the count left out and the confidence of what was kept travel with the text.

import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { ParseError } from './types.ts';

/** Words Tesseract gives less than this confidence (0–100) are left out of the passages. */
export const OCR_WORD_CONFIDENCE_FLOOR = 60;

export interface OcrParagraph {
  text: string;
  /** Mean confidence (0–100) of the words kept. */
  confidence: number;
}

export interface OcrResult {
  paragraphs: OcrParagraph[];
  /** Mean confidence of every word kept, weighted by length; 0 when none was. */
  confidence: number;
  wordsKept: number;
  /** Words below the confidence floor, left out. */
  wordsLeftOut: number;
}

let worker: Promise<TesseractWorker> | undefined;
/**
 * Tesseract runs in a worker of its own, which keeps a process alive: one idle this long is
 * stopped, so a process that parsed a scan in its own thread (a test, an evaluation) still ends.
 * A stage thread reading one scan after another keeps its worker, started once.
 */
const OCR_IDLE_MS = 10_000;
let idleTimer: NodeJS.Timeout | undefined;
let ocrStarting: () => void = () => undefined;

/**
 * Called whenever OCR of an image starts: a stage thread tells its owner, which grows the parse's
 * time limit by the OCR budget (seconds a page), so the parse limit stays tight for every other file.
 */
export function onOcrStart(listener: () => void): void {
  ocrStarting = listener;
}

/** The words of one image (PNG, JPEG, TIFF, BMP, GIF bytes), by paragraph. */
export async function recognise(image: Buffer): Promise<OcrResult> {
  ocrStarting();
  clearTimeout(idleTimer);
  const tesseract = await ocrWorker();
  let data: Awaited<ReturnType<TesseractWorker['recognize']>>['data'];
  try {
    ({ data } = await tesseract.recognize(image, {}, { text: false, blocks: true }));
  } catch (error) {
    // Tesseract's own decoder (Leptonica) refused the pixels: the file is damaged, not the machine.
    if (/read image|cannot be read/i.test(String((error as Error | undefined)?.message ?? error))) throw new ParseError('damaged image: its pixels could not be decoded for OCR');
    throw error;
  } finally {
    idleTimer = setTimeout(() => void closeOcr(), OCR_IDLE_MS).unref();
  }
  const paragraphs: OcrParagraph[] = [];
  let weighted = 0;
  let characters = 0;
  let wordsKept = 0;
  let wordsLeftOut = 0;
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      const lines: string[] = [];
      let paragraphWeighted = 0;
      let paragraphCharacters = 0;
      for (const line of paragraph.lines) {
        const kept = line.words.filter((word) => word.text.trim() !== '' && word.confidence >= OCR_WORD_CONFIDENCE_FLOOR);
        wordsLeftOut += line.words.filter((word) => word.text.trim() !== '').length - kept.length;
        for (const word of kept) {
          paragraphWeighted += word.confidence * word.text.length;
          paragraphCharacters += word.text.length;
        }
        if (kept.length > 0) lines.push(kept.map((word) => word.text).join(' '));
        wordsKept += kept.length;
      }
      if (lines.length === 0) continue;
      weighted += paragraphWeighted;
      characters += paragraphCharacters;
      // Rejoin words hyphenated across a line break, as the PDF parser does.
      const text = lines.join('\n').replace(/(\p{Ll})-\n(\p{Ll})/gu, '$1$2');
      paragraphs.push({ text, confidence: Math.round(paragraphWeighted / Math.max(paragraphCharacters, 1)) });
    }
  }
  return { paragraphs, confidence: characters > 0 ? Math.round(weighted / characters) : 0, wordsKept, wordsLeftOut };
}

/** Stops this thread's Tesseract worker (tests; a stage thread's worker ends with the thread). */
export async function closeOcr(): Promise<void> {
  clearTimeout(idleTimer);
  const running = worker;
  worker = undefined;
  if (running) await (await running).terminate().catch(() => undefined);
}

function ocrWorker(): Promise<TesseractWorker> {
  worker ??= (async () => {
    const require = createRequire(import.meta.url);
    const { createWorker, OEM } = await import('tesseract.js');
    const model = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
    return createWorker('eng', OEM.LSTM_ONLY, {
      langPath: model,
      gzip: true,
      // The model is read from the package folder; Tesseract caches its unpacked copy here, never in the folder indexed.
      cachePath: path.join(os.tmpdir(), 'relata-ocr-cache'),
      // Resolved here rather than by tesseract.js, whose own lookup breaks once the code is bundled.
      workerPath: require.resolve('tesseract.js/src/worker-script/node/index.js'),
      logger: () => undefined,
      errorHandler: () => undefined,
    });
  })().catch((error: unknown) => {
    worker = undefined; // Not the file's fault: a later file may try again.
    throw new Error(`OCR is unavailable: Tesseract failed to start (${error instanceof Error ? error.message : String(error)})`);
  });
  return worker;
}
