// PDFs hold positioned glyphs, not paragraphs: this rebuilds lines and paragraphs from pdf.js text
// items page by page, so passages can say which page they came from. It also turns pdf.js's
// failure modes (password, broken structure, truncation) into reasons a user can act on. Pages
// without a text layer (scans) are rendered and read by OCR (pdfOcr.ts), within a page cap and a
// time budget; a PDF of which not one word could be read fails saying why, never counts as indexed.
// Text drawn invisibly is left out and reported (pdfHidden.ts); a PDF longer than the page cap is
// read up to the cap and flagged, so one huge file costs bounded time.

import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ItemFlag, Location } from '../../../shared/types.ts';
import { parsedDocument } from './document.ts';
import { MetadataReader, type DocumentMetadata } from './metadata.ts';
import { ocrMetadata } from './image.ts';
import { describeStructuralDamage } from './pdfDamage.ts';
import { readScannedPages, type PdfOcrLimits } from './pdfOcr.ts';
import { separateHiddenText, type OperatorList } from './pdfHidden.ts';
import {
  DEFAULT_PARSER_LIMITS,
  LINK_TARGET_MAX_CHARS,
  LINK_TEXT_MAX_CHARS,
  MAX_LINKS_PER_DOCUMENT,
  ParseError,
  ParseTimeoutError,
  type Block,
  type DocumentLink,
  type HiddenText,
  type Parser,
  type ParserLimits,
} from './types.ts';

/** Below this many non-space characters per page on average, the PDF is taken for a scan. */
export const LITTLE_TEXT_CHARS_PER_PAGE = 20;
export const PDF_TIMEOUT_MS = 60_000;
/** Time beyond the OCR budget for the page OCR was reading when the budget ran out to finish. */
const OCR_BUDGET_MARGIN_MS = 10_000;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type TextContentItem = Awaited<ReturnType<Awaited<ReturnType<PDFDocumentProxy['getPage']>>['getTextContent']>>['items'][number];

export const pdfParser = createPdfParser();

export function createPdfParser(options: { timeoutMs?: number } & Partial<Omit<ParserLimits, 'maxInflatedBytes'>> = {}): Parser {
  const limits: PdfOcrLimits & Pick<ParserLimits, 'maxPages'> = { ...DEFAULT_PARSER_LIMITS, ...options };
  const timeoutMs = options.timeoutMs ?? PDF_TIMEOUT_MS;
  const maxPages = limits.maxPages;
  return {
    version: 'pdf@4',
    extensions: ['.pdf'],
    async parse(bytes) {
      if (bytes.length === 0) throw new ParseError('empty file (0 bytes)');
      const pdfjs = await loadPdfJs();
      const task = pdfjs.getDocument({
        // A copy: pdf.js takes ownership of the buffer it is given, and the caller still needs its bytes.
        data: new Uint8Array(bytes),
        verbosity: pdfjs.VerbosityLevel.ERRORS, // pdf.js's warnings go to the console, which belongs to the CLI.
        isEvalSupported: false,
        disableFontFace: true,
        useSystemFonts: false,
        stopAtErrors: false,
        // Images are never drawn here; this keeps the operator list (read for hidden text) from decoding them.
        maxImageSize: 1,
        ...assetPaths(),
      });
      let timer: NodeJS.Timeout | undefined;
      let giveUp: () => void = () => undefined;
      const timedOut = new Promise<never>((_, reject) => {
        giveUp = () => reject(new ParseTimeoutError(`PDF took longer than ${timeoutMs / 1000} s to read; gave up`));
        timer = setTimeout(giveUp, timeoutMs);
      });
      // OCR keeps its own budget (pdfOcr.ts): once it starts, the text pass's limit no longer applies.
      let settled = false;
      const ocrStarts = () => {
        // A read abandoned at the time limit must not go on to OCR in the background.
        if (settled) throw new ParseTimeoutError('PDF read abandoned');
        clearTimeout(timer);
        timer = setTimeout(giveUp, limits.ocrTimeMs + OCR_BUDGET_MARGIN_MS);
      };
      const reading = readDocument(pdfjs, task, bytes, maxPages, limits, ocrStarts);
      reading.catch(() => undefined); // If the timeout wins, the abandoned read must not surface as unhandled.
      try {
        return await Promise.race([reading, timedOut]);
      } catch (error) {
        throw asParseError(error, bytes);
      } finally {
        settled = true;
        clearTimeout(timer);
        await task.destroy().catch(() => undefined);
      }
    },
  };
}

async function readDocument(pdfjs: PdfJs, task: PDFDocumentLoadingTask, bytes: Uint8Array, maxPages: number, limits: PdfOcrLimits, ocrStarts: () => void) {
  const doc = await task.promise;
  const pagesRead = Math.min(doc.numPages, maxPages);
  const pageBlocks: Block[][] = [];
  const withoutText: number[] = [];
  const hidden: HiddenText[] = [];
  const links: DocumentLink[] = [];
  let visibleChars = 0;
  let firstPageError: unknown;
  let failedPages = 0;
  // Page by page, releasing each page's resources, so a long PDF does not hold every page in memory.
  for (let pageNumber = 1; pageNumber <= pagesRead; pageNumber++) {
    try {
      const page = await doc.getPage(pageNumber);
      const location = { kind: 'pages', start: pageNumber, end: pageNumber } as const;
      const content = await page
        .getTextContent()
        .then((text) => separateHiddenText(text.items, () => page.getOperatorList() as Promise<OperatorList>, pdfjs.OPS, location))
        .finally(() => page.cleanup());
      if (links.length < MAX_LINKS_PER_DOCUMENT) links.push(...linkAnnotations(await page.getAnnotations().catch(() => []), location));
      hidden.push(...content.hidden);
      const blocks: Block[] = (pageBlocks[pageNumber - 1] = []);
      let pageChars = 0;
      for (const paragraph of paragraphs(content.visible as TextContentItem[])) {
        pageChars += paragraph.replace(/\s+/gu, '').length;
        blocks.push({
          kind: 'paragraph',
          text: paragraph,
          headingPath: [],
          location: { kind: 'pages', start: pageNumber, end: pageNumber },
        });
      }
      visibleChars += pageChars;
      if (pageChars < LITTLE_TEXT_CHARS_PER_PAGE) withoutText.push(pageNumber);
    } catch (error) {
      // One corrupt page should not cost the reader the others.
      failedPages++;
      firstPageError ??= error;
    }
  }
  if (pagesRead > 0 && failedPages === pagesRead) throw asParseError(firstPageError, bytes);

  if (limits.ocr && withoutText.length > 0) ocrStarts();
  const ocr = await readScannedPages(pdfjs, bytes, withoutText, limits, assetPaths());
  for (const [pageNumber, blocks] of ocr.pages) {
    pageBlocks[pageNumber - 1] = blocks;
    visibleChars += blocks.reduce((sum, block) => sum + block.text.replace(/\s+/gu, '').length, 0);
  }
  if (visibleChars === 0 && withoutText.length > 0) throw new ParseError(`no text: ${ocr.noTextReason}`);
  const blocks = pageBlocks.flatMap((page) => page ?? []);

  const metadata = await doc.getMetadata().catch(() => null);
  const info = (metadata?.info ?? {}) as { Title?: unknown; EncryptFilterName?: unknown } & Record<string, unknown>;
  const flags: ItemFlag[] = [];
  if (info.EncryptFilterName) flags.push('encrypted_no_password');
  if (visibleChars < LITTLE_TEXT_CHARS_PER_PAGE * Math.max(pagesRead, 1)) flags.push('little_text');
  if (ocr.pages.size > 0) flags.push('read_by_ocr');
  const documentMetadata = documentInfoMetadata(info);
  const pageCap =
    pagesRead < doc.numPages
      ? `only the first ${pagesRead.toLocaleString('en-GB')} of ${doc.numPages.toLocaleString('en-GB')} pages were indexed`
      : null;
  const truncated = [pageCap, ocr.leftOut].filter((note): note is string => note !== null).join('; ') || null;
  const xmpTitle = metadata?.metadata?.get('dc:title');
  return parsedDocument({
    title: cleanTitle(info.Title) ?? cleanTitle(xmpTitle),
    blocks,
    structure: { headings: [], tables: [], pages: doc.numPages },
    flags,
    hidden,
    links,
    metadata: ocr.results.length > 0 ? { entries: [...documentMetadata.entries, ...ocrMetadata(ocr.results).entries], note: documentMetadata.note } : documentMetadata,
    truncated,
  });
}

/**
 * A page's link annotations as the document's links: the target as the PDF writes it (a URI
 * action's address, or a file another document names: pdf.js gives both as `unsafeUrl`); the
 * words under a link are not read, so its text is its target. A link to a place in the same PDF
 * has no such target and is left out.
 */
function linkAnnotations(annotations: readonly { subtype?: unknown; unsafeUrl?: unknown; url?: unknown }[], location: Location): DocumentLink[] {
  const links: DocumentLink[] = [];
  for (const annotation of annotations) {
    const raw = typeof annotation.unsafeUrl === 'string' ? annotation.unsafeUrl : typeof annotation.url === 'string' ? annotation.url : null;
    // pdf.js writes a link into another PDF's page as `file.pdf#[0,{"name":"Fit"}]`: the file is the target.
    const target = raw?.replace(/#\[.*$/su, '') ?? null;
    if (annotation.subtype !== 'Link' || target === null || target.trim() === '') continue;
    const clipped = target.slice(0, LINK_TARGET_MAX_CHARS);
    links.push({ target: clipped, text: clipped.slice(0, LINK_TEXT_MAX_CHARS), kind: 'annotation', location });
  }
  return links;
}

interface Line {
  text: string;
  /** Baseline height on the page (PDF units grow upwards). */
  y: number;
  size: number;
}

/**
 * Joins text items into lines (pdf.js marks line ends with hasEOL), then lines into paragraphs:
 * a new paragraph starts after a blank line, when the gap to the previous line is clearly
 * larger than the page's usual line spacing, or when the text jumps back up (a new column).
 */
export function paragraphs(items: readonly TextContentItem[]): string[] {
  const lines: Line[] = [];
  let parts: string[] = [];
  let y: number | null = null;
  let size = 0;
  const endLine = (): void => {
    lines.push({ text: parts.join('').replace(/\s+/g, ' ').trim(), y: y ?? 0, size });
    parts = [];
    y = null;
    size = 0;
  };
  for (const item of items) {
    if (!('str' in item)) continue;
    if (item.str !== '') {
      const transform = item.transform as number[];
      y ??= transform[5] ?? 0;
      size = Math.max(size, item.height || Math.abs(transform[3] ?? 0));
      parts.push(item.str);
    }
    if (item.hasEOL) endLine();
  }
  if (parts.length > 0) endLine();

  const spacing = usualLineSpacing(lines);
  const result: string[] = [];
  let current: string[] = [];
  let previous: Line | null = null;
  const flush = (): void => {
    // Rejoin words hyphenated across a line break ("ex-\nisting"), so they can be found.
    if (current.length > 0) result.push(current.join('\n').replace(/(\p{Ll})-\n(\p{Ll})/gu, '$1$2'));
    current = [];
  };
  for (const line of lines) {
    if (line.text === '') {
      flush();
      previous = null;
      continue;
    }
    if (previous !== null && current.length > 0 && startsParagraph(previous, line, spacing)) {
      flush();
    }
    current.push(line.text);
    previous = line;
  }
  flush();
  return result;
}

function startsParagraph(previous: Line, line: Line, spacing: number | null): boolean {
  const gap = previous.y - line.y;
  const size = Math.max(previous.size, line.size, 1);
  if (gap < -size) return true; // Jumped upwards: next column or a new region.
  if (gap <= size * 0.3) return false; // Same baseline (table cells, split runs).
  const usual = spacing ?? size * 1.2;
  return gap > Math.max(usual * 1.5, size * 1.6);
}

/** The median downward distance between consecutive lines: the page's leading. */
function usualLineSpacing(lines: readonly Line[]): number | null {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = lines[i - 1]!.y - lines[i]!.y;
    const size = Math.max(lines[i]!.size, 1);
    if (gap > size * 0.3 && gap < size * 4) gaps.push(gap);
  }
  if (gaps.length === 0) return null;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)]!;
}

/** The document information dictionary's entries read as metadata; the title is the item's title instead. */
const INFO_KEYS = ['Subject', 'Keywords', 'Author'] as const;

export function documentInfoMetadata(info: Record<string, unknown>): DocumentMetadata {
  const reader = new MetadataReader();
  for (const key of INFO_KEYS) if (typeof info[key] === 'string') reader.add(key, info[key]);
  return reader.finish();
}

/** Metadata titles are often a file name ("Microsoft Word - agenda.doc", "10811.exe"): keep only real titles. */
function cleanTitle(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const title = raw
    .replace(/^Microsoft (Word|PowerPoint|Excel) - /i, '')
    .replace(/\.(docx?|xlsx?|pptx?|pdf|txt|rtf|odt|exe|indd|qxd|ps|eps|tiff?|jpe?g|png|html?)$/i, '')
    .trim();
  if (title === '') return null;
  if (!/\s/.test(title) && (/_/.test(title) || /^[\d\W]+$/.test(title))) return null;
  return title;
}

function asParseError(error: unknown, bytes: Uint8Array): Error {
  if (error instanceof ParseError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  const message = String((error as { message?: unknown } | null)?.message ?? error).replace(/\.$/, '');
  switch (name) {
    case 'PasswordException':
      return new ParseError('encrypted PDF: needs a password to open; Relata does not guess passwords');
    case 'InvalidPDFException':
      if (!hasPdfHeader(bytes)) return new ParseError('not a PDF file: the %PDF header is missing');
      return new ParseError(describeStructuralDamage(bytes, message) ?? `malformed PDF: ${message}`);
    case 'UnknownErrorException':
    case 'FormatError':
    case 'XRefParseException':
    case 'MissingDataException':
    case 'ResponseException':
      return new ParseError(describeStructuralDamage(bytes, message) ?? `malformed PDF: ${message}`);
    default:
      return error instanceof Error ? error : new Error(message);
  }
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes('%PDF-');
}

let pdfJs: Promise<PdfJs> | undefined;

/**
 * Loaded on first use: pdf.js is large and most runs touch no PDF. In Node, pdf.js runs its
 * "worker" on the main thread; handing it the worker module directly (rather than a path for it
 * to import) keeps that working when the code is bundled.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfJs ??= (async () => {
    try {
      const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } catch (error) {
      pdfJs = undefined; // Not the file's fault: no ParseError, and a later call may try again.
      // pdf.js needs DOMMatrix at load, which Node only gets from the optional @napi-rs/canvas package.
      throw new Error(`PDF support is unavailable: pdf.js failed to load (${String(error)}); is @napi-rs/canvas installed?`);
    }
  })();
  return pdfJs;
}

let assets: { cMapUrl?: string; cMapPacked?: boolean; standardFontDataUrl?: string } | undefined;

/** Character maps (CJK fonts) and standard font data, without which some PDFs yield no or garbled text. */
function assetPaths(): NonNullable<typeof assets> {
  if (assets === undefined) {
    try {
      const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
      assets = {
        // pdf.js insists on a trailing '/', on every platform.
        cMapUrl: path.join(root, 'cmaps') + '/',
        cMapPacked: true,
        standardFontDataUrl: path.join(root, 'standard_fonts') + '/',
      };
    } catch {
      assets = {};
    }
  }
  return assets;
}
