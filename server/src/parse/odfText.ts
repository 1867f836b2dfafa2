// OpenDocument text lives in the same elements in every ODF format (text:p, text:h, text:span,
// text:a, text:s for runs of spaces): read once here for the ODT, ODP and ODS readers. Comments
// (office:annotation) are not part of the text; a span or paragraph whose style hides it
// (`text:display="none"`) is collected apart, so the caller can report it as hidden.

import { ParseError } from './types.ts';
import { attr, childElements, descendants, isElement, localName, type XmlDocument, type XmlElement, type XmlNode } from './xmlTree.ts';
import type { ZipPackage } from './zipPackage.ts';

export interface OdfText {
  text: string;
  hidden: string;
  links: { target: string; text: string }[];
  /** Footnotes and endnotes anchored in the element: their own paragraphs, after it. */
  notes: string[];
}

/** Style names (automatic and common) whose text properties hide the text. */
export function hiddenStyles(...trees: (XmlDocument | null)[]): Set<string> {
  const names = new Set<string>();
  for (const tree of trees) {
    if (tree === null) continue;
    for (const style of descendants(tree, 'style')) {
      const properties = childElements(style, 'text-properties')[0];
      if (properties !== undefined && attr(properties, 'display') === 'none') names.add(attr(style, 'name') ?? '');
    }
  }
  return names;
}

/** The readable text of a paragraph-like element; `hiddenStyle` names the styles that hide text. */
export function odfText(element: XmlElement, hiddenStyle: ReadonlySet<string>): OdfText {
  const visible: string[] = [];
  const hidden: string[] = [];
  const links: OdfText['links'] = [];
  const notes: string[] = [];
  const walk = (node: XmlNode, into: string[]): void => {
    if (node.type === 'text') return void into.push(node.data.replace(/[\r\n]+/g, ' '));
    if (!isElement(node)) return;
    const name = localName(node.name);
    if (name === 'annotation' || name === 'annotation-end' || name === 'bookmark' || name === 'soft-page-break' || name === 'note-citation') return;
    // A shape's accessible name and description are not on the page.
    if (node.name === 'svg:title' || node.name === 'svg:desc') return;
    if (name === 'note-body' && node !== element) {
      const note = odfText(node, hiddenStyle);
      if (note.text !== '') notes.push(note.text.replace(/\n/g, ' '));
      links.push(...note.links);
      return;
    }
    if (name === 'hidden-text' || name === 'hidden-paragraph' || attr(node, 'display') === 'none' || hiddenStyle.has(attr(node, 'style-name') ?? '')) {
      into = hidden;
    }
    if (name === 's') return void into.push(' '.repeat(Math.min(Number(attr(node, 'c') ?? 1) || 1, 100)));
    if (name === 'tab') return void into.push('\t');
    if (name === 'line-break') return void into.push('\n');
    if (name === 'a') {
      const target = attr(node, 'href');
      const start = into.length;
      for (const child of node.children) walk(child, into);
      if (target !== undefined && into === visible) links.push({ target, text: into.slice(start).join('') });
      return;
    }
    for (const child of node.children) walk(child, into);
    // Paragraphs inside a frame or cell are separate lines.
    if ((name === 'p' || name === 'h') && node !== element) into.push('\n');
  };
  walk(element, visible);
  return { text: tidy(visible.join('')), hidden: tidy(hidden.join(' ')), links, notes };
}

function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** An OpenDocument file saved with a password keeps its parts encrypted, as its manifest says. */
export async function refuseEncrypted(zip: ZipPackage): Promise<void> {
  const manifest = await zip.text('META-INF/manifest.xml');
  if (manifest !== null && /encryption-data/.test(manifest)) {
    throw new ParseError(`encrypted ${zip.format}: the file is password-protected (Relata does not guess passwords)`);
  }
}
