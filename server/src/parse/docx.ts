// Word documents have no stable lines or pages, so mammoth's semantic HTML (headings, paragraphs,
// lists, tables) is walked into blocks located by their ordinal. Footnotes, endnotes and comments
// are kept as paragraphs: people put facts there too. Runs a reader cannot see (hidden, white on
// white, 1 pt) are left out and reported as hidden. A file that is not a readable DOCX fails with
// a reason naming what is wrong with it, and an archive that would inflate beyond the budget
// fails before it can exhaust memory.

import JSZip from 'jszip';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Location } from '../../../shared/types.ts';
import { hiddenText, parsedDocument } from './document.ts';
import { HIDDEN_MARKER, markHiddenRuns, readRunStyles, type HiddenRun, type RunStyles } from './docxHidden.ts';
import { MetadataReader, type DocumentMetadata } from './metadata.ts';
import {
  DEFAULT_PARSER_LIMITS,
  ParseError,
  type Block,
  type BlockKind,
  type DocumentLink,
  type HeadingEntry,
  type HiddenText,
  type Parser,
  type ParserLimits,
  type TableEntry,
} from './types.ts';
import { checkDeclaredSizes, declaredEntries, InflateBudget } from './zipBudget.ts';

type HtmlDocument = ReturnType<typeof parseDocument>;
type HtmlNode = HtmlDocument['children'][number];
type HtmlElement = Parameters<typeof DomUtils.getAttributeValue>[0];

export const docxParser = createDocxParser();

/** Where Word and LibreOffice keep the core properties (the package's core-properties relationship names it). */
const CORE_PART = 'docProps/core.xml';

export function createDocxParser(limits: Partial<ParserLimits> = {}): Parser {
  const maxInflatedBytes = limits.maxInflatedBytes ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes;
  return {
    version: 'docx@5',
    extensions: ['.docx'],
    async parse(bytes) {
      checkContainer(bytes);
      const entries = declaredEntries(bytes);
      if (entries !== null) checkDeclaredSizes(entries, maxInflatedBytes);
      // Loaded on the first Word file, not with the parsers: most processes never read one.
      const { default: mammoth } = await import('mammoth');
      let html: string;
      let parts: DocxParts;
      let metadata: DocumentMetadata;
      try {
        const budget = new InflateBudget(maxInflatedBytes, new Map((entries ?? []).map((entry) => [entry.name, entry.uncompressed])));
        parts = new DocxParts(await JSZip.loadAsync(bytes), budget);
        const result = await mammoth.convertToHtml(
          // mammoth reads the archive through this object (its `file` input), so every part is inflated within the budget.
          { file: parts } as unknown as { buffer: Buffer },
          {
            // Comments are dropped by default; mapping their references makes mammoth emit their text.
            // Word's Title style is the document's own name, set above its first heading: mammoth
            // would make it a plain paragraph.
            styleMap: ['comment-reference => sup', "p[style-name='Title'] => h1:fresh"],
            externalFileAccess: false,
            // Only the alt text is read; inlining every image as base64 would cost memory for nothing.
            convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
          },
        );
        html = result.value; // result.messages are warnings about unmapped styles and the like, not failures.
        metadata = await parts.coreProperties();
      } catch (error) {
        throw describeFailure(error, bytes);
      }
      const walker = new BlockWalker(parts.hiddenRuns);
      walker.visitAll(parseDocument(html).children);
      return parsedDocument({
        title: documentTitle(walker.headings, walker.blocks),
        blocks: walker.blocks,
        structure: { headings: walker.headings, tables: walker.tables },
        hidden: walker.hidden(),
        metadata,
        links: walker.links,
      });
    },
  };
}

/** The core properties read as metadata, by their element's local name; the title is the document's own heading, not this. */
const CORE_PROPERTIES: Readonly<Record<string, string>> = { subject: 'subject', keywords: 'keywords', category: 'category', creator: 'author' };

/** Core properties are a few hundred bytes; a larger part is not read. */
const MAX_CORE_PROPERTIES_BYTES = 64 * 1024;

/** `docProps/core.xml` (subject, keywords, category, author) as metadata; none when the part is absent. */
export function readCoreProperties(xml: string | null): DocumentMetadata {
  const reader = new MetadataReader();
  if (xml === null) return reader.finish();
  if (xml.length > MAX_CORE_PROPERTIES_BYTES) {
    reader.unread(`core properties over ${MAX_CORE_PROPERTIES_BYTES / 1024} KiB not read`);
    return reader.finish();
  }
  const localName = (name: string): string => name.split(':').pop()!;
  const root = parseDocument(xml, { xmlMode: true });
  for (const element of DomUtils.findAll((node) => Object.hasOwn(CORE_PROPERTIES, localName(node.name)), root.children)) {
    reader.add(CORE_PROPERTIES[localName(element.name)]!, DomUtils.textContent(element));
  }
  return reader.finish();
}

/**
 * The document's own title: its first top-level heading (Heading 1, or the Title style), else the
 * heading it opens with, whatever its level (many documents start at Heading 2); else null, and
 * the file's name stands in.
 */
export function documentTitle(headings: readonly HeadingEntry[], blocks: readonly Block[]): string | null {
  const topLevel = headings.find((heading) => heading.level === 1 && heading.text.trim() !== '');
  if (topLevel) return topLevel.text.trim();
  const opening = blocks[0];
  return opening?.kind === 'heading' && opening.text.trim() !== '' ? opening.text.trim() : null;
}

/**
 * The archive as mammoth asks for it (exists, read). Parts are inflated once, within the budget;
 * in every part with text, the text of hidden runs is swapped for markers before mammoth sees it.
 */
class DocxParts {
  readonly hiddenRuns: HiddenRun[] = [];
  private styles: Promise<RunStyles> | undefined;

  constructor(
    private readonly zip: JSZip,
    private readonly budget: InflateBudget,
  ) {}

  exists(name: string): boolean {
    return this.zip.file(name) !== null;
  }

  async read(name: string, encoding?: string): Promise<Uint8Array | string> {
    const bytes = await this.inflate(name);
    if (encoding === undefined) return bytes;
    if (encoding === 'base64') return bytes.toString('base64');
    const xml = new TextDecoder(encoding).decode(bytes);
    if (!xml.includes('<w:t')) return xml;
    const marked = markHiddenRuns(xml, await this.runStyles(), this.hiddenRuns.length);
    this.hiddenRuns.push(...marked.runs);
    return marked.xml;
  }

  async coreProperties(): Promise<DocumentMetadata> {
    return readCoreProperties(this.exists(CORE_PART) ? (await this.inflate(CORE_PART)).toString('utf8') : null);
  }

  private inflate(name: string): Promise<Buffer> {
    const file = this.zip.file(name);
    if (file === null) throw new ParseError(`malformed DOCX: part ${name} is missing`);
    return this.budget.read(file);
  }

  private runStyles(): Promise<RunStyles> {
    this.styles ??= this.exists('word/styles.xml')
      ? this.inflate('word/styles.xml').then((bytes) => readRunStyles(bytes.toString('utf8')))
      : Promise.resolve(readRunStyles(null));
    return this.styles;
  }
}

class BlockWalker {
  readonly blocks: Block[] = [];
  readonly headings: HeadingEntry[] = [];
  readonly tables: TableEntry[] = [];
  /** The document's hyperlinks, each at the paragraph it stands in. */
  readonly links: DocumentLink[] = [];
  /** Hyperlinks of the element being read, placed when its block is added. */
  private pendingLinks: { target: string; text: string }[] = [];
  private stack: { level: number; text: string }[] = [];
  /** Where each hidden run was: the block it sat in, or the next one when it was all its paragraph held. */
  private readonly placed: (Location | undefined)[] = [];
  private unplaced: number[] = [];

  constructor(private readonly hiddenRuns: readonly HiddenRun[]) {}

  hidden(): HiddenText[] {
    const last = Math.max(this.blocks.length, 1);
    return this.hiddenRuns.flatMap((run, index) => {
      const finding = hiddenText(run.kind, run.text, this.placed[index] ?? { kind: 'blocks', start: last, end: last });
      return finding ? [finding] : [];
    });
  }

  /** Text without the hidden runs' markers, each line collapsed, blank lines dropped. */
  private visible(text: string): string {
    const stripped = text.replace(HIDDEN_MARKER, (_, index: string) => {
      this.unplaced.push(Number(index));
      return '';
    });
    return stripped
      .split('\n')
      .map(collapse)
      .filter((line) => line !== '')
      .join('\n');
  }

  visitAll(nodes: readonly HtmlNode[]): void {
    for (const node of nodes) this.visit(node);
  }

  private visit(node: HtmlNode): void {
    if (node.type === 'text') {
      this.add('paragraph', this.visible(node.data));
      return;
    }
    if (!DomUtils.isTag(node)) return;
    const tag = node.name;
    const level = /^h([1-6])$/.exec(tag)?.[1];
    if (level !== undefined) {
      this.hyperlinks(node);
      return this.heading(Number(level), this.visible(readableText(node)));
    }
    switch (tag) {
      case 'p':
        this.hyperlinks(node);
        return void this.add('paragraph', this.visible(readableText(node)));
      case 'ul':
      case 'ol':
        for (const child of node.children) {
          if (DomUtils.isTag(child) && child.name === 'li') this.listItem(child);
          else this.visit(child);
        }
        return;
      case 'li':
        return this.listItem(node);
      case 'table':
        return this.table(node);
      case 'dt':
        return; // "Comment [MW1]": a label, not content.
      default:
        return this.visitAll(node.children);
    }
  }

  private heading(level: number, text: string): void {
    if (text === '') return;
    while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.level >= level) this.stack.pop();
    this.stack.push({ level, text });
    const location = this.add('heading', text);
    if (location !== null) this.headings.push({ level, text, location });
  }

  /** An item's own text is one block; a nested list inside it yields blocks of its own. */
  private listItem(item: HtmlElement): void {
    const own = item.children.filter((child) => !(DomUtils.isTag(child) && (child.name === 'ul' || child.name === 'ol')));
    // Footnotes and endnotes arrive as an ordered list; they are notes, not list items.
    const id = DomUtils.getAttributeValue(item, 'id') ?? '';
    const kind: BlockKind = /^(footnote|endnote)-/.test(id) ? 'paragraph' : 'list_item';
    for (const child of own) this.hyperlinks(child);
    this.add(kind, this.visible(own.map(readableText).filter((text) => text !== '').join('\n')));
    for (const child of item.children) {
      if (DomUtils.isTag(child) && (child.name === 'ul' || child.name === 'ol')) this.visit(child);
    }
  }

  private table(table: HtmlElement): void {
    const rows = DomUtils.findAll((el) => el.name === 'tr' && closestTable(el) === table, table.children);
    let columns = 0;
    let first: number | null = null;
    let last: number | null = null;
    for (const row of rows) {
      const cells = row.children.filter((c): c is HtmlElement => DomUtils.isTag(c) && (c.name === 'td' || c.name === 'th'));
      columns = Math.max(columns, cells.length);
      for (const cell of cells) this.hyperlinks(cell);
      const texts = cells.map((cell) => this.visible(readableText(cell)).replace(/\n/g, ' '));
      if (texts.every((text) => text === '')) continue;
      const location = this.add('table_row', texts.join(' | '));
      if (location !== null) {
        first ??= location.start;
        last = location.end;
      }
    }
    if (first !== null && last !== null) {
      this.tables.push({ rows: rows.length, columns, location: { kind: 'blocks', start: first, end: last } });
    }
  }

  /** Word hyperlinks (mammoth's `<a href>`) in the element; a bookmark or note within the document (`#…`) is not a link to a file. */
  private hyperlinks(node: HtmlNode): void {
    for (const anchor of DomUtils.findAll((element) => element.name === 'a', [node])) {
      const href = DomUtils.getAttributeValue(anchor, 'href') ?? '';
      if (href === '' || href.startsWith('#')) continue;
      this.pendingLinks.push({ target: href, text: collapse(readableText(anchor)) || href });
    }
  }

  private add(kind: BlockKind, text: string): Location | null {
    if (text.trim() === '') {
      this.pendingLinks = [];
      return null;
    }
    const ordinal = this.blocks.length + 1;
    const location: Location = { kind: 'blocks', start: ordinal, end: ordinal };
    for (const link of this.pendingLinks) this.links.push({ ...link, kind: 'hyperlink', location });
    this.pendingLinks = [];
    this.blocks.push({ kind, text, headingPath: this.stack.map((h) => h.text), location });
    for (const index of this.unplaced) this.placed[index] ??= location;
    this.unplaced = [];
    return location;
  }
}

function closestTable(element: HtmlElement): HtmlElement | null {
  let parent = element.parent;
  while (parent !== null) {
    if (DomUtils.isTag(parent) && parent.name === 'table') return parent;
    parent = parent.parent;
  }
  return null;
}

/**
 * The text a reader sees. Note markers ("[1]") and the "↑" links back from a note are navigation
 * in the HTML, not content; paragraphs inside a cell or item are kept on separate lines.
 */
function readableText(node: HtmlNode): string {
  const parts: string[] = [];
  const walk = (current: HtmlNode): void => {
    if (current.type === 'text') {
      parts.push(current.data);
      return;
    }
    if (!DomUtils.isTag(current)) return;
    if (current.name === 'a' && /^#(footnote|endnote|comment)-/.test(DomUtils.getAttributeValue(current, 'href') ?? '')) return;
    if (current.name === 'br') return void parts.push('\n');
    if (current.name === 'img') return void parts.push(DomUtils.getAttributeValue(current, 'alt') ?? '');
    const block = current.name === 'p' || /^h[1-6]$/.test(current.name);
    if (block) parts.push('\n');
    for (const child of current.children) walk(child);
    if (block) parts.push('\n');
  };
  walk(node);
  return parts
    .join('')
    .split('\n')
    .map(collapse)
    .filter((line) => line !== '')
    .join('\n');
}

function collapse(text: string): string {
  return text.replace(/[ \t\u00a0]+/g, ' ').trim();
}

/** Rejects, before unzipping, files whose first bytes already say they are no DOCX. */
function checkContainer(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new ParseError('empty file (0 bytes)');
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new ParseError(
      'not a DOCX file: this is an OLE compound file, either a password-protected DOCX (Relata does not guess passwords) or a legacy .doc renamed',
    );
  }
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new ParseError('not a DOCX file: the file is not a valid ZIP archive');
  }
}

function describeFailure(error: unknown, bytes: Uint8Array): ParseError {
  if (error instanceof ParseError) return error; // Already says what is wrong (a budget, a lying header).
  // mammoth reads nothing but these bytes, so whatever it rejects is the file's fault.
  const message = String((error as { message?: unknown } | null)?.message ?? error).split('\n')[0]!.trim();
  if (/could not find main document part/i.test(message)) {
    return new ParseError('not a DOCX file: word/document.xml is missing (the ZIP archive holds no Word document)');
  }
  if (/end of central directory/i.test(message)) {
    // Starts like a ZIP entry but has no directory at the end: the tail was cut off.
    return bytes[2] === 0x03 && bytes[3] === 0x04
      ? new ParseError('truncated DOCX: the ZIP archive has no central directory (incomplete download or copy?)')
      : new ParseError('not a DOCX file: the file is not a valid ZIP archive');
  }
  if (/corrupted zip|end of data reached|zip/i.test(message)) {
    return new ParseError(`malformed DOCX: damaged ZIP archive (${message.replace(/\.$/, '')})`);
  }
  return new ParseError(`malformed DOCX: ${message.replace(/\.$/, '')}`);
}
