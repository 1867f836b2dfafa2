// A PowerPoint deck is a ZIP of XML parts: the presentation lists its slides in order, each
// slide holds shapes with text (its title in the title placeholder), tables and hyperlinks, and
// its notes page holds the speaker notes. Each slide becomes a section (slides.ts). Slides are
// small, so each is read as a tree, within the archive's inflate budget.

import { parsedDocument } from './document.ts';
import { officeProperties } from './officeProperties.ts';
import { Outline } from './outline.ts';
import { writeSlide, type SlideBox, type SlideContent } from './slides.ts';
import { DEFAULT_PARSER_LIMITS, type Parser, type ParserLimits } from './types.ts';
import { relationships } from './packageRelationships.ts';
import { attr, childElements, collapse, descendants, firstChild, localName, parseXml, relationshipId, type XmlElement } from './xmlTree.ts';
import { ZipPackage } from './zipPackage.ts';

export const pptxParser = createPptxParser();

/** Slides read per deck; a deck of more is read up to here and flagged truncated. */
export const MAX_SLIDES = 2_000;
/** Titles PowerPoint fills in by itself: the deck's first slide title says more. */
const GENERIC_TITLE = /^(PowerPoint Presentation|Presentation\s*\d*|Slide \d+)$/i;
/** PowerPoint's default slide height in EMU (7.5 in), for decks that do not say. */
const DEFAULT_SLIDE_HEIGHT = 6_858_000;

export function createPptxParser(limits: Partial<ParserLimits> = {}): Parser {
  const maxInflatedBytes = limits.maxInflatedBytes ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes;
  return {
    version: 'pptx@1',
    extensions: ['.pptx', '.pptm'],
    async parse(bytes) {
      const zip = await ZipPackage.open(bytes, 'PPTX', maxInflatedBytes);
      const root = await relationships(zip, '');
      const presentationPath = [...root.values()].find((target) => /presentation\d*\.xml$/i.test(target.path))?.path ?? 'ppt/presentation.xml';
      const presentation = parseXml(await zip.required(presentationPath, `${presentationPath} is missing (the ZIP archive holds no slides)`), presentationPath);
      const targets = await relationships(zip, presentationPath);
      const size = descendants(presentation, 'sldSz')[0];
      const height = Number(size === undefined ? undefined : attr(size, 'cy')) || DEFAULT_SLIDE_HEIGHT;
      const slideIds = descendants(presentation, 'sldId');
      const outline = new Outline();
      let truncated: string | null = null;
      for (const [index, slideId] of slideIds.entries()) {
        if (index >= MAX_SLIDES) {
          truncated = `read the first ${MAX_SLIDES.toLocaleString('en-GB')} of ${slideIds.length.toLocaleString('en-GB')} slides`;
          break;
        }
        const part = targets.get(relationshipId(slideId) ?? '')?.path;
        if (part === undefined) continue;
        const xml = await zip.text(part);
        if (xml === null) continue;
        const slide = parseXml(xml, part);
        const slideRoot = descendants(slide, 'sld')[0];
        const hidden = slideRoot !== undefined && /^(0|false)$/.test(attr(slideRoot, 'show') ?? '');
        const rels = await relationships(zip, part);
        const content = readShapes(slide, rels);
        const notesPart = [...rels.values()].find((target) => /notesSlide\d*\.xml$/i.test(target.path))?.path;
        const notesXml = notesPart === undefined ? null : await zip.text(notesPart);
        if (notesXml !== null) content.notes = notesText(parseXml(notesXml, notesPart!));
        writeSlide(outline, index + 1, content, hidden, height);
      }
      const own = await officeProperties(zip);
      const firstTitle = outline.headings.find((heading) => !/^Slide \d+$/.test(heading.text))?.text ?? null;
      return parsedDocument({
        title: own.title === null || GENERIC_TITLE.test(own.title) ? (firstTitle ?? own.title) : own.title,
        blocks: outline.blocks,
        structure: { headings: outline.headings, tables: outline.tables, pages: slideIds.length },
        hidden: outline.hidden,
        truncated,
        metadata: own.metadata,
        links: outline.links,
      });
    },
  };
}

type Relationships = Awaited<ReturnType<typeof relationships>>;

function readShapes(slide: ReturnType<typeof parseXml>, rels: Relationships): SlideContent {
  const content: SlideContent = { title: null, boxes: [], notes: [], links: [] };
  const tree = descendants(slide, 'spTree')[0];
  if (tree === undefined) return content;
  const visit = (shape: XmlElement, inherited: { top: number | null; left: number | null }): void => {
    const name = localName(shape.name);
    const offset = position(shape) ?? inherited;
    if (name === 'grpSp') {
      for (const child of childElements(shape)) visit(child, offset);
      return;
    }
    if (name === 'graphicFrame') {
      for (const table of descendants(shape, 'tbl')) {
        const rows = childElements(table, 'tr').map((row) =>
          childElements(row, 'tc')
            .map((cell) => collapse(paragraphs(cell, rels, content).join(' ')))
            .join(' | ')
            .replace(/( \| )+$/, ''),
        );
        content.boxes.push({ ...offset, paragraphs: rows.filter((row) => row.replace(/[ |]/g, '') !== ''), table: true });
      }
      return;
    }
    if (name !== 'sp') return;
    const body = firstChild(shape, 'txBody');
    if (body === undefined) return;
    const text = paragraphs(body, rels, content);
    const placeholder = descendants(shape, 'ph')[0];
    const type = placeholder === undefined ? null : (attr(placeholder, 'type') ?? 'body');
    if ((type === 'title' || type === 'ctrTitle') && content.title === null) {
      content.title = collapse(text.join(' ')) || null;
      return;
    }
    // Slide numbers, dates and footers repeat the master's fields: not the slide's content.
    if (type === 'sldNum' || type === 'dt' || type === 'ftr') return;
    content.boxes.push({ ...offset, paragraphs: text, table: false });
  };
  for (const shape of childElements(tree)) visit(shape, { top: null, left: null });
  return content;
}

function position(shape: XmlElement): { top: number; left: number } | null {
  const properties = firstChild(shape, 'spPr') ?? firstChild(shape, 'grpSpPr') ?? firstChild(shape, 'xfrm');
  const off = properties === undefined ? undefined : descendants(properties, 'off')[0];
  if (off === undefined) return null;
  return { top: Number(attr(off, 'y') ?? 0), left: Number(attr(off, 'x') ?? 0) };
}

/** A text body's paragraphs: runs joined, line breaks kept, hyperlinks recorded. */
function paragraphs(body: XmlElement, rels: Relationships, content: SlideContent): string[] {
  return descendants(body, 'p').map((paragraph) => {
    const parts: string[] = [];
    for (const run of childElements(paragraph)) {
      const name = localName(run.name);
      if (name === 'br') parts.push('\n');
      if (name !== 'r' && name !== 'fld') continue;
      const text = descendants(run, 't').map((t) => t.children.map((child) => ('data' in child ? String(child.data) : '')).join('')).join('');
      parts.push(text);
      const click = descendants(run, 'hlinkClick')[0];
      const target = click === undefined ? undefined : rels.get(relationshipId(click) ?? '');
      if (target?.external) content.links.push({ target: target.path, text });
    }
    return parts.join('').replace(/[ \t\u00a0]+/g, ' ').trim();
  });
}

/** The notes page's body placeholder: what the speaker wrote (not the slide image or the page number). */
function notesText(notes: ReturnType<typeof parseXml>): string[] {
  const texts: string[] = [];
  for (const shape of descendants(notes, 'sp')) {
    const placeholder = descendants(shape, 'ph')[0];
    if (placeholder === undefined || (attr(placeholder, 'type') ?? 'body') !== 'body') continue;
    const body = firstChild(shape, 'txBody');
    if (body !== undefined) texts.push(...paragraphs(body, new Map(), { title: null, boxes: [], notes: [], links: [] }).filter((line) => line !== ''));
  }
  return texts;
}
