// The one place that knows which parser reads which file type, so ingest (what to skip) and
// parse (what to run) agree.

import path from 'node:path';
import { csvParser } from './csv.ts';
import { createDocxParser, docxParser } from './docx.ts';
import { createEpubParser, epubParser } from './epub.ts';
import { htmlParser } from './html.ts';
import { emailParserWith } from './email.ts';
import { createImageParser, imageParser } from './image.ts';
import { jsonParser } from './json.ts';
import { markdownParser } from './markdown.ts';
import { createOdpParser, odpParser } from './odp.ts';
import { createOdsParser, odsParser } from './ods.ts';
import { createOdtParser, odtParser } from './odt.ts';
import { createPdfParser, pdfParser } from './pdf.ts';
import { createPptxParser, pptxParser } from './pptx.ts';
import { rtfParser } from './rtf.ts';
import { textParser } from './text.ts';
import { createXlsxParser, xlsxParser } from './xlsx.ts';
import { ParseError, type ParsedDocument, type Parser, type ParserLimits } from './types.ts';

/** Mail reads its attachments with the parsers listed here. */
export const emailParser = emailParserWith({ parserFor: (fileName) => parserFor(fileName), parseFile: (...input) => parseFile(...input) });

export const PARSERS: readonly Parser[] = [textParser, markdownParser, jsonParser, pdfParser, docxParser, htmlParser, xlsxParser, csvParser, odsParser, pptxParser, odpParser, odtParser, epubParser, rtfParser, emailParser, imageParser];

const byExtension = new Map<string, Parser>(
  PARSERS.flatMap((parser) => parser.extensions.map((extension) => [extension, parser] as const)),
);

/** Lower-case extensions with their dot, e.g. ".md". */
export const SUPPORTED_EXTENSIONS: readonly string[] = [...byExtension.keys()];

/** The parser for a file name or path, by its extension (case-insensitive); null if unsupported. */
export function parserFor(fileName: string): Parser | null {
  return byExtension.get(path.extname(fileName).toLowerCase()) ?? null;
}

/** Parses with the format's parser, under `limits` where given (else the parsers' defaults). */
export async function parseFile(bytes: Uint8Array, fileName: string, limits: Partial<ParserLimits> = {}): Promise<ParsedDocument> {
  const parser = parserFor(fileName);
  if (parser === null) {
    throw new ParseError(`unsupported file type ${path.extname(fileName).toLowerCase() || '(none)'}`);
  }
  return withinLimits(parser, limits).parse(bytes, path.basename(fileName));
}

function withinLimits(parser: Parser, limits: Partial<ParserLimits>): Parser {
  if (parser === docxParser && limits.maxInflatedBytes !== undefined) return createDocxParser(limits);
  if (parser === xlsxParser && limits.maxInflatedBytes !== undefined) return createXlsxParser(limits);
  if (parser === odsParser && limits.maxInflatedBytes !== undefined) return createOdsParser(limits);
  if (parser === pptxParser && limits.maxInflatedBytes !== undefined) return createPptxParser(limits);
  if (parser === odpParser && limits.maxInflatedBytes !== undefined) return createOdpParser(limits);
  if (parser === odtParser && limits.maxInflatedBytes !== undefined) return createOdtParser(limits);
  if (parser === epubParser && limits.maxInflatedBytes !== undefined) return createEpubParser(limits);
  if (parser === pdfParser && Object.keys(limits).length > 0) return createPdfParser(limits);
  if (parser === imageParser && Object.keys(limits).length > 0) return createImageParser(limits);
  return parser;
}
