// Images (.png, .jpg, .tif, …) hold text only as pixels: they are read by OCR (ocr.ts), or not at
// all. An image whose header declares more pixels than the cap is refused before it is decoded; an
// image OCR finds no word in fails saying so rather than counting as indexed; what is read is
// labelled "read by OCR" with its confidence, on the item (read_by_ocr) and on every passage.

import { parsedDocument } from './document.ts';
import { imageSize } from './imageSize.ts';
import { MetadataReader } from './metadata.ts';
import { ocrLabel } from '../../../shared/ocrLabel.ts';
import { closeOcr, OCR_WORD_CONFIDENCE_FLOOR, recognise, type OcrResult } from './ocr.ts';
import { DEFAULT_PARSER_LIMITS, ParseError, ParseTimeoutError, type Block, type Parser, type ParserLimits } from './types.ts';

export const OCR_OFF_REASON = 'OCR is turned off (relata index --no-ocr, or the relata.index.ocr setting)';

export const imageParser = createImageParser();

export function createImageParser(limits: Partial<ParserLimits> = {}): Parser {
  const { ocr, maxOcrPixels, ocrTimeMs } = { ...DEFAULT_PARSER_LIMITS, ...limits };
  return {
    version: 'image@1',
    extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff'],
    async parse(bytes) {
      if (bytes.length === 0) throw new ParseError('empty file (0 bytes)');
      const size = imageSize(bytes);
      if (size === null) throw new ParseError('not a readable image: not PNG, JPEG, TIFF, BMP or GIF, or its header is damaged');
      if (!ocr) throw new ParseError(`an image: its words can only be read by OCR, and ${OCR_OFF_REASON}`);
      checkPixels(size.width, size.height, maxOcrPixels, 'image');
      const result = await withinTime(recognise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)), ocrTimeMs);
      if (result.wordsKept === 0) throw new ParseError(`no text: OCR found no words in the image${leftOutNote(result)}`);
      const label = ocrLabel(result.confidence);
      const blocks: Block[] = result.paragraphs.map((paragraph, i) => ({
        kind: 'paragraph',
        text: paragraph.text,
        headingPath: [label],
        location: { kind: 'blocks', start: i + 1, end: i + 1 },
      }));
      return parsedDocument({ title: null, blocks, structure: { headings: [], tables: [] }, flags: ['read_by_ocr'], metadata: ocrMetadata([result]) });
    },
  };
}

/** Refuses an image or page that would decode to more than `maxPixels`, naming its size. */
export function checkPixels(width: number, height: number, maxPixels: number, what: string): void {
  if (width * height <= maxPixels) return;
  const megapixels = (n: number) => (n / 1_000_000).toLocaleString('en-GB', { maximumFractionDigits: 1 });
  throw new ParseError(
    `${what} of ${width.toLocaleString('en-GB')} × ${height.toLocaleString('en-GB')} pixels (${megapixels(width * height)} megapixels) is over the ${megapixels(maxPixels)}-megapixel limit for OCR; not read`,
  );
}

/** OCR that outlives its budget is stopped (its worker too, so the next file does not queue behind it). */
export async function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ParseTimeoutError(`OCR took longer than ${ms / 1000} s; stopped`)), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, late]);
  } catch (error) {
    if (error instanceof ParseTimeoutError) await closeOcr();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The confidence of what OCR read, and how many words it left out, shown with the item's metadata. */
export function ocrMetadata(results: readonly OcrResult[]) {
  const reader = new MetadataReader();
  const kept = results.reduce((sum, result) => sum + result.wordsKept, 0);
  const leftOut = results.reduce((sum, result) => sum + result.wordsLeftOut, 0);
  const confidence = kept === 0 ? 0 : Math.round(results.reduce((sum, result) => sum + result.confidence * result.wordsKept, 0) / kept);
  reader.add('OCR confidence', `${confidence}%`);
  reader.add('OCR words left out', `${leftOut} under ${OCR_WORD_CONFIDENCE_FLOOR}% confidence`);
  return reader.finish();
}

export function leftOutNote(result: Pick<OcrResult, 'wordsLeftOut'>): string {
  return result.wordsLeftOut > 0 ? ` (${result.wordsLeftOut} word${result.wordsLeftOut === 1 ? '' : 's'} under ${OCR_WORD_CONFIDENCE_FLOOR}% confidence left out)` : '';
}
