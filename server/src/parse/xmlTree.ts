// Office, OpenDocument and EPUB parts are XML with namespace prefixes that vary between writers
// (`a:t`, `x:t`, or none). The readers ask for elements and attributes by local name through
// these few helpers, over htmlparser2's DOM in XML mode, so a prefix never decides what is read.

import { DomUtils, parseDocument } from 'htmlparser2';
import { ParseError } from './types.ts';

export type XmlDocument = ReturnType<typeof parseDocument>;
export type XmlNode = XmlDocument['children'][number];
export type XmlElement = Parameters<typeof DomUtils.getAttributeValue>[0];

/** An XML part as a tree; `part` names it in the reason when it cannot be read. */
export function parseXml(xml: string, part: string): XmlDocument {
  try {
    return parseDocument(xml, { xmlMode: true, decodeEntities: true });
  } catch (error) {
    // Elements nested thousands deep exhaust the stack while the tree is built.
    if (error instanceof RangeError) throw new ParseError(`${part} is nested too deeply to read`);
    throw error;
  }
}

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

export function isElement(node: XmlNode | null | undefined): node is XmlElement {
  return node !== null && node !== undefined && DomUtils.isTag(node);
}

/** The element's attribute by local name, whatever its prefix. */
export function attr(element: XmlElement, name: string): string | undefined {
  for (const [key, value] of Object.entries(element.attribs)) if (localName(key) === name) return value;
  return undefined;
}

export function childElements(node: XmlElement | XmlDocument, name?: string): XmlElement[] {
  return node.children.filter((child): child is XmlElement => isElement(child) && (name === undefined || localName(child.name) === name));
}

export function firstChild(node: XmlElement | XmlDocument, name: string): XmlElement | undefined {
  return childElements(node).find((child) => localName(child.name) === name);
}

/** Every descendant element with this local name, in document order. */
export function descendants(node: XmlElement | XmlDocument, name: string): XmlElement[] {
  return DomUtils.findAll((element) => localName(element.name) === name, node.children);
}

export function textOf(node: XmlNode): string {
  return DomUtils.textContent(node);
}

/** Whitespace collapsed to single spaces, trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** The relationship id an element points through (`r:id`, whatever the prefix), not its own `id`. */
export function relationshipId(element: XmlElement): string | undefined {
  for (const [key, value] of Object.entries(element.attribs)) if (key.includes(':') && localName(key) === 'id') return value;
  return undefined;
}

/** The outermost descendants with any of these local names, in document order (one nested in another is its text, not a second one). */
export function outermost(node: XmlElement | XmlDocument, names: ReadonlySet<string>): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (parent: XmlElement | XmlDocument): void => {
    for (const child of parent.children) {
      if (!isElement(child)) continue;
      if (names.has(localName(child.name))) found.push(child);
      else walk(child);
    }
  };
  walk(node);
  return found;
}
