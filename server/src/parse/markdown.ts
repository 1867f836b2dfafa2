// Markdown carries its own structure (headings, lists, tables, code), so blocks follow the syntax
// tree rather than blank lines: each block knows its heading path and the source lines it came
// from, and its text is what a reader sees, without the markup. Text the rendered page does not
// show (HTML comments, hidden elements) is left out of the blocks and reported as hidden. Where
// the page points at other files (links of every Markdown form, wiki-links, `<a href>`, front-matter
// lists such as `related:`) is read off the same tree, so code blocks and code spans never count.

import type { Definition, Heading, Link, LinkReference, List, ListItem, Nodes, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import type { Location } from '../../../shared/types.ts';
import { decodeText } from './decode.ts';
import { parsedDocument } from './document.ts';
import { HtmlVisibility } from './htmlVisibility.ts';
import { markdownSections, shiftLines, type MarkdownSection } from './markdownSections.ts';
import { NO_METADATA, readFrontMatter, type FrontMatter } from './metadata.ts';
import {
  ParseError,
  type Block,
  type BlockKind,
  type DocumentLink,
  type HeadingEntry,
  type LinkKind,
  type ParsedDocument,
  type Parser,
  type TableEntry,
} from './types.ts';

// Built once: assembling the GFM syntax extensions costs more than parsing a small file.
const MARKDOWN_OPTIONS = {
  extensions: [gfm(), frontmatter(['yaml'])],
  mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
};

export const markdownParser: Parser = {
  version: 'markdown@5',
  extensions: ['.md', '.markdown'],
  async parse(bytes) {
    return markdownDocument(decodeText(bytes));
  },
};

/** The document of a Markdown text, parsed section by section (one section unless it is huge). */
export function markdownDocument(source: string, sections: MarkdownSection[] = markdownSections(source)): ParsedDocument {
  let front: FrontMatter = { title: null, metadata: NO_METADATA };
  let frontLocation: Location | null = null;
  const outline = new Outline();
  try {
    // One section for all but huge files, whose syntax tree would outgrow the thread (markdownSections.ts).
    for (const section of sections) {
      const tree: Root = fromMarkdown(section.text, MARKDOWN_OPTIONS);
      shiftLines(tree, section.lineOffset);
      if (section.lineOffset === 0) [front, frontLocation] = frontMatter(tree);
      outline.visitAll(tree.children);
    }
  } catch (error) {
    // Thousands of nested quotes or lists exhaust the parser's stack: the file's shape, not a bug.
    if (error instanceof RangeError) throw new ParseError('Markdown nested too deeply to read');
    throw error;
  }
  return parsedDocument({
    title: front.title ?? outline.headings.find((h) => h.level === 1)?.text ?? null,
    blocks: outline.blocks,
    structure: { headings: outline.headings, tables: outline.tables },
    hidden: outline.visibility.finish(),
    metadata: front.metadata,
    links: [...frontMatterLinks(front, frontLocation), ...outline.links()],
  });
}

/** `related: [best-practices, coc]` and the like: each value a link from the front matter's lines. */
function frontMatterLinks(front: FrontMatter, location: Location | null): DocumentLink[] {
  if (!front.links || location === null) return [];
  return front.links.map((link) => ({ target: link.value, text: `${link.label}: ${link.value}`, kind: 'front_matter', location }));
}

/** Walks the tree in document order, keeping the stack of enclosing headings. */
class Outline {
  readonly blocks: Block[] = [];
  readonly headings: HeadingEntry[] = [];
  readonly tables: TableEntry[] = [];
  readonly visibility = new HtmlVisibility();
  private stack: { level: number; text: string }[] = [];
  private readonly found: DocumentLink[] = [];
  /** `[text][label]` uses, matched to their definitions once the whole document is read (a definition may come last). */
  private readonly references: { label: string; text: string; location: Location }[] = [];
  private readonly definitions = new Map<string, Definition>();

  /** The document's links in order of appearance; definitions no reference used come last. */
  links(): DocumentLink[] {
    const used = new Set<string>();
    const links = [...this.found];
    for (const reference of this.references) {
      const definition = this.definitions.get(reference.label);
      if (!definition) continue;
      used.add(reference.label);
      links.push({ target: definition.url, text: reference.text, kind: 'reference', location: reference.location });
    }
    for (const [label, definition] of this.definitions) {
      if (!used.has(label)) links.push({ target: definition.url, text: definition.label ?? label, kind: 'definition', location: lines(definition) });
    }
    return links.sort((a, b) => a.location.start - b.location.start);
  }

  visitAll(nodes: readonly RootContent[]): void {
    for (const node of nodes) this.visit(node);
  }

  private visit(node: RootContent): void {
    switch (node.type) {
      case 'heading':
        return this.heading(node);
      case 'paragraph':
        return this.add('paragraph', this.blockText(node), lines(node));
      case 'code':
        return this.add('code', this.visibility.text(node.value, lines(node)), lines(node));
      case 'html':
        if (!this.visibility.hidden) this.htmlLinks(node.value, lines(node));
        return this.add('paragraph', htmlBlockText(this.visibility.html(node.value, lines(node), false)), lines(node));
      case 'list':
        return this.list(node);
      case 'table':
        return this.table(node);
      case 'blockquote':
      case 'footnoteDefinition':
        return this.visitAll(node.children);
      case 'definition':
        // The first definition of a label wins, as CommonMark says.
        if (!this.definitions.has(node.identifier)) this.definitions.set(node.identifier, node);
        return;
      default:
        // yaml (read for the title and metadata), thematic breaks and link definitions carry no prose.
        return;
    }
  }

  private heading(node: Heading): void {
    const text = this.blockText(node).trim();
    if (text === '') return;
    while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.level >= node.depth) this.stack.pop();
    this.stack.push({ level: node.depth, text });
    const location = lines(node);
    this.headings.push({ level: node.depth, text, location });
    this.add('heading', text, location);
  }

  private list(node: List): void {
    for (const item of node.children) this.listItem(item);
  }

  /**
   * An item's own paragraphs form its block; a nested list, code block or table inside it
   * becomes blocks of its own, so blocks stay in document order.
   */
  private listItem(item: ListItem): void {
    const marker = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
    let pending: (RootContent & { type: 'paragraph' | 'heading' })[] = [];
    let first = true;
    const flush = (): void => {
      if (pending.length === 0) return;
      const text = pending.map((paragraph) => this.blockText(paragraph)).join('\n');
      const start = lines(pending[0]!).start;
      const end = lines(pending[pending.length - 1]!).end;
      this.add('list_item', (first ? marker : '') + text, { kind: 'lines', start, end });
      first = false;
      pending = [];
    };
    for (const child of item.children) {
      if (child.type === 'paragraph' || child.type === 'heading') {
        pending.push(child);
      } else {
        flush();
        this.visit(child);
      }
    }
    flush();
  }

  private table(node: Table): void {
    let columns = 0;
    for (const row of node.children) {
      columns = Math.max(columns, row.children.length);
      const text = row.children.map((cell) => this.blockText(cell).trim()).join(' | ');
      this.add('table_row', text, lines(row));
    }
    this.tables.push({ rows: node.children.length, columns, location: lines(node) });
  }

  private link(node: Link): string {
    const text = node.children.map((child) => this.plainText(child as Nodes)).join('');
    if (!this.visibility.hidden) {
      const kind: LinkKind = text === node.url || `mailto:${text}` === node.url ? 'autolink' : 'inline';
      this.found.push({ target: node.url, text: text || node.url, kind, location: lines(node) });
    }
    return text;
  }

  private linkReference(node: LinkReference): string {
    const text = node.children.map((child) => this.plainText(child as Nodes)).join('');
    if (!this.visibility.hidden) this.references.push({ label: node.identifier, text: text || node.label || node.identifier, location: lines(node) });
    return text;
  }

  private htmlLinks(html: string, location: Location): void {
    readHtmlLinks(html, location, this.found);
  }

  private wikiLinks(text: string, location: Location): void {
    if (text.includes('[[')) readWikiLinks(text, location, this.found);
  }

  private add(kind: BlockKind, text: string, location: Location): void {
    if (text.trim() === '') return;
    this.blocks.push({ kind, text, headingPath: this.stack.map((h) => h.text), location });
  }

  /** A paragraph's, heading's or cell's visible text; inline HTML it left open ends with it. */
  private blockText(node: Nodes): string {
    const text = this.plainText(node);
    this.visibility.endInline();
    return text;
  }

  /** The text a reader sees: link and emphasis text kept, inline code kept, markup and URLs dropped. */
  private plainText(node: Nodes): string {
    switch (node.type) {
      case 'text':
        if (!this.visibility.hidden) this.wikiLinks(node.value, lines(node));
        return this.visibility.text(node.value, lines(node));
      case 'inlineCode':
        return this.visibility.text(node.value, lines(node));
      case 'link':
        return this.link(node);
      case 'linkReference':
        return this.linkReference(node);
      case 'break':
        return this.visibility.hidden ? '' : '\n';
      case 'image':
      case 'imageReference':
        return this.visibility.text(node.alt ?? '', lines(node));
      case 'html':
        if (!this.visibility.hidden) this.htmlLinks(node.value, lines(node));
        return this.visibility.html(node.value, lines(node), true);
      case 'footnoteReference':
        return '';
      default:
        return 'children' in node ? node.children.map((child) => this.plainText(child as Nodes)).join('') : '';
    }
  }
}

const LINK_TAG = /<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))[^>]*>([^<]*)/giu;
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/gu;
/** `[[Name]]`, `[[Name#Heading]]`, `[[Name|label]]`: Obsidian's and Foam's forms. */
const WIKI_LINK = /\[\[([^[\]|#\n]+)(#[^[\]|\n]*)?(?:\|([^[\]\n]*))?\]\]/gu;

/** The links of one Markdown inline or block node, kept apart from the text so the walk stays one pass. */
interface LinkSink {
  push(link: DocumentLink): void;
}

function readHtmlLinks(html: string, location: Location, sink: LinkSink): void {
  for (const match of html.replace(HTML_COMMENT, '').matchAll(LINK_TAG)) {
    const target = match[1] ?? match[2] ?? match[3] ?? '';
    if (target !== '') sink.push({ target, text: (match[4] ?? '').trim() || target, kind: 'html', location });
  }
}

function readWikiLinks(text: string, location: Location, sink: LinkSink): void {
  for (const match of text.matchAll(WIKI_LINK)) {
    const name = match[1]!.trim();
    if (name === '') continue;
    // A text node may span lines: the link stands on the line its brackets open on.
    const line = location.start + (text.slice(0, match.index).match(/\n/g)?.length ?? 0);
    sink.push({ target: `${name}${match[2] ?? ''}`, text: (match[3] ?? '').trim() || name, kind: 'wiki', location: { kind: 'lines', start: line, end: line } });
  }
}

function lines(node: Nodes): Location {
  // fromMarkdown always sets positions; the fallback only satisfies the type.
  const start = node.position?.start.line ?? 1;
  return { kind: 'lines', start, end: node.position?.end.line ?? start };
}

/** Raw HTML blocks often wrap prose (asides, pull quotes): keep their visible text, not their tags. */
function htmlBlockText(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/\r\n|\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** The front matter's title, metadata and links (metadata.ts) and where it stands; none when the file has no front matter. */
function frontMatter(tree: Root): [FrontMatter, Location | null] {
  const yaml = tree.children.find((node) => node.type === 'yaml');
  return yaml === undefined ? [{ title: null, metadata: NO_METADATA }, null] : [readFrontMatter(yaml.value), lines(yaml)];
}
