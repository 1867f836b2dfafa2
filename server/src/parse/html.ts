// A saved web page is read as a reader sees it in a browser: headings give the structure, and
// paragraphs, list items, table rows and preformatted text become blocks located by the source
// lines they came from (VS Code opens an .html file as text, at those lines). What a reader does
// not see is left out: scripts and styles (code, not text: dropped without a finding, or every
// page with analytics would be flagged), navigation menus (the same on every page of a site), and
// hidden elements (`hidden`, `display:none`, `<template>`, `<noscript>`: reported as hidden text,
// since that is where prompt injections hide). `<title>` and `<meta>` give the title and metadata,
// `<a href>` the links. The walker is shared with the EPUB reader, whose chapters are XHTML.

import { DomUtils, parseDocument } from 'htmlparser2';
import type { Location } from '../../../shared/types.ts';
import { parsedDocument } from './document.ts';
import { decodeHtml } from './htmlCharset.ts';
import { isHiddenElement } from './htmlVisibility.ts';
import { MetadataReader } from './metadata.ts';
import { Outline } from './outline.ts';
import { ParseError, type BlockKind, type Parser } from './types.ts';

type HtmlDocument = ReturnType<typeof parseDocument>;
type HtmlNode = HtmlDocument['children'][number];
type HtmlElement = Parameters<typeof DomUtils.getAttributeValue>[0];

export const htmlParser: Parser = {
  version: 'html@1',
  extensions: ['.html', '.htm', '.xhtml'],
  async parse(bytes, fileName) {
    const { text } = decodeHtml(bytes);
    const lines = lineStarts(text);
    const outline = new Outline();
    const xhtml = fileName.toLowerCase().endsWith('.xhtml') || text.startsWith('<?xml');
    const page = readHtml(text, outline, (start, end) => ({ kind: 'lines', start: lineAt(lines, start), end: lineAt(lines, Math.max(start, end)) }), xhtml);
    return parsedDocument({
      title: page.title ?? outline.headings.find((heading) => heading.level === 1)?.text ?? null,
      blocks: outline.blocks,
      structure: { headings: outline.headings, tables: outline.tables },
      hidden: outline.hidden,
      metadata: page.metadata.finish(),
      links: outline.links,
    });
  },
};

/** Elements never rendered as text and not worth reporting: code and the page's own plumbing. */
const CODE = new Set(['script', 'style', 'head', 'svg', 'math', 'object', 'iframe', 'canvas', 'select', 'button']);
/** Boilerplate a reader skips: the site's menus. */
const NAVIGATION = new Set(['nav']);
/** Elements that start and end a block of text. */
const BLOCK = new Set(
  `address article aside blockquote body caption center dd details dialog div dl dt fieldset figcaption figure footer form header hgroup hr html
  legend li main ol p section summary ul`.split(/\s+/),
);
/** `<meta name>` values read as metadata, by the key they are recorded under. */
const META_NAMES: Readonly<Record<string, string>> = {
  author: 'author',
  'dc.creator': 'author',
  keywords: 'keywords',
  'dc.subject': 'subject',
  subject: 'subject',
  description: 'description',
  'dc.description': 'description',
  'og:description': 'description',
  category: 'category',
  'article:section': 'category',
  'article:tag': 'tags',
  date: 'date',
  'dc.date': 'date',
  'article:published_time': 'date',
};

export interface HtmlPage {
  /** `<title>`, else a Dublin Core or Open Graph title; null when the page names none. */
  title: string | null;
  metadata: MetadataReader;
}

/**
 * Walks one HTML (or XHTML) text into `outline`. `locate` turns the source offsets a block spans
 * into its location: source lines for a web page, the block's ordinal for an e-book chapter.
 */
export function readHtml(html: string, outline: Outline, locate: (start: number, end: number) => Location, xhtml = false): HtmlPage {
  // XHTML is read as HTML (named entities, any case) that may close elements with "/>".
  const tree = parseDocument(html, { withStartIndices: true, withEndIndices: true, decodeEntities: true, recognizeSelfClosing: xhtml, lowerCaseTags: true });
  const walker = new HtmlWalker(outline, locate);
  try {
    walker.walkAll(tree.children);
  } catch (error) {
    if (error instanceof RangeError) throw new ParseError('HTML nested too deeply to read');
    throw error;
  }
  walker.flush();
  return readHead(tree);
}

function readHead(tree: HtmlDocument): HtmlPage {
  const metadata = new MetadataReader();
  let title: string | null = null;
  const titleElement = DomUtils.findOne((element) => element.name === 'title', tree.children);
  if (titleElement) title = collapse(DomUtils.textContent(titleElement)) || null;
  for (const meta of DomUtils.findAll((element) => element.name === 'meta', tree.children)) {
    const name = (DomUtils.getAttributeValue(meta, 'name') ?? DomUtils.getAttributeValue(meta, 'property') ?? '').trim().toLowerCase();
    const content = DomUtils.getAttributeValue(meta, 'content');
    if (content === undefined) continue;
    if (title === null && (name === 'dc.title' || name === 'og:title')) title = collapse(content) || null;
    if (Object.hasOwn(META_NAMES, name)) metadata.add(META_NAMES[name]!, content);
  }
  return { title, metadata };
}

class HtmlWalker {
  private parts: string[] = [];
  private start = -1;
  private end = -1;
  /** What the text being gathered will be: a list item inside `<li>`, else a paragraph. */
  private kinds: BlockKind[] = ['paragraph'];

  constructor(
    private readonly outline: Outline,
    private readonly locate: (start: number, end: number) => Location,
  ) {}

  walkAll(nodes: readonly HtmlNode[]): void {
    for (const node of nodes) this.walk(node);
  }

  /** The text gathered since the last block boundary becomes a block. */
  flush(): void {
    const text = this.parts
      .join('')
      .split('\n')
      .map(collapse)
      .filter((line) => line !== '')
      .join('\n');
    if (text !== '') this.outline.add(this.kinds[this.kinds.length - 1]!, text, this.locate(this.start, this.end));
    this.parts = [];
    this.start = -1;
  }

  private walk(node: HtmlNode): void {
    if (node.type === 'text') {
      if (node.data.trim() !== '') this.span(node);
      this.parts.push(node.data.replace(/[\r\n]+/g, ' '));
      return;
    }
    if (node.type === 'comment') {
      this.outline.conceal('html_comment', node.data, this.locate(node.startIndex ?? 0, node.endIndex ?? 0));
      return;
    }
    if (!DomUtils.isTag(node)) return;
    const name = node.name.toLowerCase();
    if (CODE.has(name) || NAVIGATION.has(name)) return;
    if (isHiddenElement(name, node.attribs)) return this.conceal(node);
    const level = /^h([1-6])$/.exec(name)?.[1];
    if (level !== undefined) {
      this.flush();
      const location = this.locate(node.startIndex ?? 0, node.endIndex ?? 0);
      this.outline.heading(Number(level), this.inlineText(node, location), location);
      return;
    }
    switch (name) {
      case 'br':
        return void this.parts.push('\n');
      case 'img':
        return void this.parts.push(` ${DomUtils.getAttributeValue(node, 'alt') ?? ''} `);
      case 'a': {
        const href = DomUtils.getAttributeValue(node, 'href');
        if (href !== undefined) this.outline.link(href, visibleText(node), this.pendingLocation(node));
        return this.walkAll(node.children);
      }
      case 'pre':
        this.flush();
        this.outline.add('code', visibleText(node, false, true).replace(/^\n+|\s+$/g, ''), this.locate(node.startIndex ?? 0, node.endIndex ?? 0));
        return;
      case 'table':
        this.flush();
        return this.table(node);
      case 'li':
        this.flush();
        this.kinds.push('list_item');
        this.walkAll(node.children);
        this.flush();
        this.kinds.pop();
        return;
    }
    if (!BLOCK.has(name)) return this.walkAll(node.children);
    this.flush();
    this.kinds.push('paragraph');
    this.walkAll(node.children);
    this.flush();
    this.kinds.pop();
  }

  private span(node: HtmlNode): void {
    if (this.start < 0) this.start = node.startIndex ?? 0;
    this.end = node.endIndex ?? this.start;
  }

  /** Where the block now being gathered will be. */
  private pendingLocation(node: HtmlNode): Location {
    return this.locate(this.start >= 0 ? this.start : (node.startIndex ?? 0), node.endIndex ?? 0);
  }

  private conceal(node: HtmlElement): void {
    this.outline.conceal('hidden_element', visibleText(node, true), this.locate(node.startIndex ?? 0, node.endIndex ?? 0));
  }

  /** A heading's or cell's text; its links and hidden parts are recorded as the walk would. */
  private inlineText(node: HtmlElement, location: Location): string {
    for (const anchor of DomUtils.findAll((element) => element.name === 'a', node.children)) {
      const href = DomUtils.getAttributeValue(anchor, 'href');
      if (href !== undefined) this.outline.link(href, visibleText(anchor), location);
    }
    for (const hidden of DomUtils.findAll((element) => isHiddenElement(element.name, element.attribs) && !CODE.has(element.name), node.children)) {
      if (!hasHiddenAncestor(hidden, node)) this.conceal(hidden);
    }
    return collapse(visibleText(node));
  }

  private table(table: HtmlElement): void {
    const rows = DomUtils.findAll((element) => element.name === 'tr' && closest(element, 'table') === table, table.children);
    let columns = 0;
    let first: Location | null = null;
    let last: Location | null = null;
    for (const row of rows) {
      const cells = row.children.filter((cell): cell is HtmlElement => DomUtils.isTag(cell) && (cell.name === 'td' || cell.name === 'th'));
      columns = Math.max(columns, cells.length);
      const location = this.locate(row.startIndex ?? 0, row.endIndex ?? 0);
      const texts = cells.map((cell) => this.inlineText(cell, location).replace(/\n/g, ' '));
      if (texts.every((text) => text === '')) continue;
      this.outline.add('table_row', texts.join(' | '), location);
      first ??= location;
      last = location;
    }
    // Text beside the rows (a caption, a nested table's own text) is kept as a paragraph.
    const caption = DomUtils.findOne((element) => element.name === 'caption', table.children);
    if (caption) this.outline.add('paragraph', collapse(visibleText(caption)), this.locate(caption.startIndex ?? 0, caption.endIndex ?? 0));
    if (first !== null && last !== null) this.outline.table(rows.length, columns, { kind: first.kind, start: first.start, end: last.end });
  }
}

/**
 * The text a reader sees in `node`: no code, menus or hidden elements, `<br>` and block ends as
 * line breaks, source line breaks as spaces unless `preformatted`. With `all`, hidden parts too.
 */
function visibleText(node: HtmlNode, all = false, preformatted = false): string {
  const parts: string[] = [];
  const walk = (current: HtmlNode): void => {
    if (current.type === 'text') return void parts.push(preformatted ? current.data : current.data.replace(/[\r\n]+/g, ' '));
    if (!DomUtils.isTag(current)) return;
    const name = current.name.toLowerCase();
    if (name === 'script' || name === 'style') return;
    if (!all && (CODE.has(name) || NAVIGATION.has(name) || isHiddenElement(name, current.attribs))) return;
    if (name === 'br') return void parts.push('\n');
    if (name === 'img') return void parts.push(` ${DomUtils.getAttributeValue(current, 'alt') ?? ''} `);
    const block = BLOCK.has(name) || /^h[1-6]$/.test(name) || name === 'tr';
    if (block) parts.push('\n');
    for (const child of current.children) walk(child);
    if (block) parts.push('\n');
    if (name === 'td' || name === 'th') parts.push(' ');
  };
  walk(node);
  return parts.join('');
}

function hasHiddenAncestor(element: HtmlElement, within: HtmlElement): boolean {
  for (let parent = element.parent; parent !== null && parent !== within; parent = parent.parent) {
    if (DomUtils.isTag(parent) && isHiddenElement(parent.name, parent.attribs)) return true;
  }
  return false;
}

function closest(element: HtmlElement, name: string): HtmlElement | null {
  for (let parent = element.parent; parent !== null; parent = parent.parent) {
    if (DomUtils.isTag(parent) && parent.name === name) return parent;
  }
  return null;
}

function collapse(text: string): string {
  return text.replace(/[ \t\r\f\v\u00a0\u200b]+/g, ' ').replace(/ ?\n ?/g, '\n').trim();
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/** The 1-based line of a character offset, as an editor counts lines. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
