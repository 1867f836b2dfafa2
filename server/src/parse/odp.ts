// An OpenDocument presentation keeps its slides (draw:page) in content.xml, each with frames
// of text (the title frame marked presentation:class="title"), tables, and its speaker notes in
// presentation:notes. Each slide becomes a section (slides.ts); a slide whose page style has
// presentation:visibility="hidden" is left out and reported.

import { parsedDocument } from './document.ts';
import { hiddenStyles, odfText, refuseEncrypted } from './odfText.ts';
import { openDocumentProperties } from './officeProperties.ts';
import { Outline } from './outline.ts';
import { MAX_SLIDES } from './pptx.ts';
import { writeSlide, type SlideBox, type SlideContent } from './slides.ts';
import { DEFAULT_PARSER_LIMITS, ParseError, type Parser, type ParserLimits } from './types.ts';
import { attr, childElements, descendants, localName, outermost, parseXml, type XmlElement } from './xmlTree.ts';
import { ZipPackage } from './zipPackage.ts';

export const odpParser = createOdpParser();

/** Impress's default slide height; positions are compared in centimetres. */
const SLIDE_HEIGHT_CM = 15.75;

export function createOdpParser(limits: Partial<ParserLimits> = {}): Parser {
  const maxInflatedBytes = limits.maxInflatedBytes ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes;
  return {
    version: 'odp@1',
    extensions: ['.odp'],
    async parse(bytes) {
      const zip = await ZipPackage.open(bytes, 'ODP', maxInflatedBytes);
      await refuseEncrypted(zip);
      const xml = await zip.text('content.xml');
      if (xml === null) throw new ParseError('not an ODP file: content.xml is missing (the ZIP archive holds no presentation)');
      const content = parseXml(xml, 'content.xml');
      const stylesXml = await zip.text('styles.xml');
      const hiddenText = hiddenStyles(content, stylesXml === null ? null : parseXml(stylesXml, 'styles.xml'));
      const hiddenPages = new Set(
        descendants(content, 'style')
          .filter((style) => descendants(style, 'drawing-page-properties').some((properties) => attr(properties, 'visibility') === 'hidden'))
          .map((style) => attr(style, 'name') ?? ''),
      );
      const outline = new Outline();
      const pages = descendants(content, 'page');
      let truncated: string | null = null;
      for (const [index, page] of pages.entries()) {
        if (index >= MAX_SLIDES) {
          truncated = `read the first ${MAX_SLIDES.toLocaleString('en-GB')} of ${pages.length.toLocaleString('en-GB')} slides`;
          break;
        }
        const slide = readPage(page, hiddenText);
        const hidden = hiddenPages.has(attr(page, 'style-name') ?? '');
        writeSlide(outline, index + 1, slide.content, hidden, SLIDE_HEIGHT_CM);
        if (!hidden) outline.conceal('hidden_element', slide.hiddenText, { kind: 'pages', start: index + 1, end: index + 1 });
      }
      const own = await openDocumentProperties(zip);
      return parsedDocument({
        title: own.title ?? outline.headings.find((heading) => !/^Slide \d+$/.test(heading.text))?.text ?? null,
        blocks: outline.blocks,
        structure: { headings: outline.headings, tables: outline.tables, pages: pages.length },
        hidden: outline.hidden,
        truncated,
        metadata: own.metadata,
        links: outline.links,
      });
    },
  };
}

function readPage(page: XmlElement, hiddenStyle: ReadonlySet<string>): { content: SlideContent; hiddenText: string } {
  const content: SlideContent = { title: null, boxes: [], notes: [], links: [] };
  const hidden: string[] = [];
  const visit = (element: XmlElement): void => {
    const name = localName(element.name);
    if (name === 'notes') {
      for (const frame of descendants(element, 'text-box')) content.notes.push(paragraphs(frame, hiddenStyle, content, hidden).join('\n'));
      return;
    }
    if (name === 'g') return void childElements(element).forEach(visit);
    if (name !== 'frame' && name !== 'custom-shape' && name !== 'rect' && name !== 'ellipse') return;
    const place = { top: length(attr(element, 'y')), left: length(attr(element, 'x')) };
    const tables = descendants(element, 'table');
    if (tables.length > 0) {
      for (const table of tables) {
        const rows = descendants(table, 'table-row').map((row) =>
          childElements(row, 'table-cell')
            .map((cell) => paragraphs(cell, hiddenStyle, content, hidden).join(' '))
            .join(' | ')
            .replace(/( \| )+$/, ''),
        );
        content.boxes.push({ ...place, paragraphs: rows.filter((row) => row.replace(/[ |]/g, '') !== ''), table: true });
      }
      return;
    }
    const text = paragraphs(element, hiddenStyle, content, hidden);
    const role = attr(element, 'class');
    if (role === 'title' && content.title === null) {
      content.title = text.join(' ').trim() || null;
      return;
    }
    if (role === 'page-number' || role === 'footer' || role === 'date-time') return;
    const box: SlideBox = { ...place, paragraphs: text, table: false };
    content.boxes.push(box);
  };
  childElements(page).forEach(visit);
  return { content, hiddenText: hidden.join(' ') };
}

/** Paragraphs and headings of a frame or cell, lists included, in order. */
function paragraphs(element: XmlElement, hiddenStyle: ReadonlySet<string>, content: SlideContent, hidden: string[]): string[] {
  return outermost(element, PARAGRAPHS).map((paragraph) => {
    const read = odfText(paragraph, hiddenStyle);
    content.links.push(...read.links);
    if (read.hidden !== '') hidden.push(read.hidden);
    return read.text;
  });
}

const PARAGRAPHS: ReadonlySet<string> = new Set(['p', 'h']);

/** An ODF length ("2.5cm", "1in") in centimetres, for ordering; null when absent. */
function length(value: string | undefined): number | null {
  const match = value === undefined ? null : /^(-?[\d.]+)(cm|mm|in|pt|pc|px)?$/.exec(value);
  if (match === null) return null;
  const unit = { cm: 1, mm: 0.1, in: 2.54, pt: 2.54 / 72, pc: 2.54 / 6, px: 2.54 / 96 }[(match[2] ?? 'cm') as 'cm'];
  return Number(match[1]) * unit;
}
