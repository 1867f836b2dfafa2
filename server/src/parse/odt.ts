// An OpenDocument text keeps its body in content.xml: headings with their outline level,
// paragraphs, lists, tables and sections. They become blocks located by their ordinal, as DOCX
// paragraphs are (there are no stable lines or pages). Text whose style or section hides it is
// left out and reported; tables of contents are left out (they repeat the headings).

import { documentTitle } from './docx.ts';
import { parsedDocument } from './document.ts';
import { hiddenStyles, odfText, refuseEncrypted } from './odfText.ts';
import { openDocumentProperties } from './officeProperties.ts';
import { Outline } from './outline.ts';
import { DEFAULT_PARSER_LIMITS, ParseError, type BlockKind, type Parser, type ParserLimits } from './types.ts';
import { attr, childElements, descendants, localName, parseXml, textOf, type XmlElement } from './xmlTree.ts';
import { ZipPackage } from './zipPackage.ts';

export const odtParser = createOdtParser();

/** Generated from the document's own text: reading them would repeat it. */
const GENERATED = new Set(['table-of-content', 'alphabetical-index', 'illustration-index', 'table-index', 'object-index', 'user-index', 'bibliography', 'tracked-changes']);
/** Declarations and forms: no prose. */
const NO_TEXT = new Set(['sequence-decls', 'variable-decls', 'user-field-decls', 'forms', 'soft-page-break']);

export function createOdtParser(limits: Partial<ParserLimits> = {}): Parser {
  const maxInflatedBytes = limits.maxInflatedBytes ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes;
  return {
    version: 'odt@1',
    extensions: ['.odt'],
    async parse(bytes) {
      const zip = await ZipPackage.open(bytes, 'ODT', maxInflatedBytes);
      await refuseEncrypted(zip);
      const xml = await zip.text('content.xml');
      if (xml === null) throw new ParseError('not an ODT file: content.xml is missing (the ZIP archive holds no document)');
      const content = parseXml(xml, 'content.xml');
      const stylesXml = await zip.text('styles.xml');
      const reader = new TextBody(new Outline(), hiddenStyles(content, stylesXml === null ? null : parseXml(stylesXml, 'styles.xml')));
      try {
        for (const body of descendants(content, 'text')) if (body.parent !== null && localName((body.parent as XmlElement).name ?? '') === 'body') reader.visitAll(body);
      } catch (error) {
        if (error instanceof RangeError) throw new ParseError('ODT nested too deeply to read');
        throw error;
      }
      const { outline } = reader;
      const own = await openDocumentProperties(zip);
      return parsedDocument({
        title: own.title ?? documentTitle(outline.headings, outline.blocks),
        blocks: outline.blocks,
        structure: { headings: outline.headings, tables: outline.tables },
        hidden: outline.hidden,
        metadata: own.metadata,
        links: outline.links,
      });
    },
  };
}

class TextBody {
  constructor(
    readonly outline: Outline,
    private readonly hiddenStyle: ReadonlySet<string>,
  ) {}

  visitAll(parent: XmlElement): void {
    for (const child of childElements(parent)) this.visit(child);
  }

  private visit(element: XmlElement): void {
    const name = localName(element.name);
    if (GENERATED.has(name) || NO_TEXT.has(name)) return;
    switch (name) {
      case 'h': {
        const location = this.outline.nextOrdinal();
        const read = this.read(element, location);
        return this.outline.heading(Math.max(1, Number(attr(element, 'outline-level') ?? 1) || 1), read, location);
      }
      case 'p':
        return void this.paragraph(element, 'paragraph');
      case 'list':
        return this.list(element);
      case 'table':
        return this.table(element);
      case 'section':
        if (attr(element, 'display') === 'none' || attr(element, 'condition') !== undefined) {
          return this.outline.conceal('hidden_element', textOf(element), this.outline.nextOrdinal());
        }
        return this.visitAll(element);
      default:
        return this.visitAll(element);
    }
  }

  private paragraph(element: XmlElement, kind: BlockKind): void {
    const location = this.outline.nextOrdinal();
    const notes: string[] = [];
    this.outline.add(kind, this.read(element, location, notes), location);
    for (const note of notes) this.outline.add('paragraph', note, this.outline.nextOrdinal());
  }

  /** An element's visible text; its hidden text and links are recorded, its notes handed back in `notes` when given. */
  private read(element: XmlElement, location: ReturnType<Outline['nextOrdinal']>, notes?: string[]): string {
    const read = odfText(element, this.hiddenStyle);
    if (read.hidden !== '') this.outline.conceal('hidden_element', read.hidden, location);
    for (const link of read.links) this.outline.link(link.target, link.text, location);
    if (notes) notes.push(...read.notes);
    else if (read.notes.length > 0) return `${read.text} ${read.notes.join(' ')}`;
    return read.text;
  }

  private list(list: XmlElement): void {
    for (const item of childElements(list)) {
      for (const child of childElements(item)) {
        const name = localName(child.name);
        if (name === 'p' || name === 'h') this.paragraph(child, 'list_item');
        else this.visit(child);
      }
    }
  }

  private table(table: XmlElement): void {
    let columns = 0;
    let first: number | null = null;
    let last: number | null = null;
    const rows = descendants(table, 'table-row');
    for (const row of rows) {
      const location = this.outline.nextOrdinal();
      const cells = childElements(row, 'table-cell').map((cell) => this.read(cell, location).replace(/\n/g, ' '));
      columns = Math.max(columns, cells.length);
      if (!this.outline.add('table_row', cells.join(' | ').replace(/( \| )+$/, ''), location)) continue;
      first ??= location.start;
      last = location.end;
    }
    if (first !== null && last !== null) this.outline.table(rows.length, columns, { kind: 'blocks', start: first, end: last });
  }
}
