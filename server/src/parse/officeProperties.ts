// The title and metadata an Office package (XLSX, PPTX) or an OpenDocument file gives itself:
// `docProps/core.xml` (read as DOCX reads it, docx.ts) or `meta.xml`, each a few hundred bytes.

import { readCoreProperties } from './docx.ts';
import { MetadataReader, type DocumentMetadata } from './metadata.ts';
import { collapse, descendants, localName, parseXml, textOf } from './xmlTree.ts';
import type { ZipPackage } from './zipPackage.ts';

const MAX_PROPERTIES_CHARS = 64 * 1024;

export interface OwnProperties {
  title: string | null;
  metadata: DocumentMetadata;
}

/** An Office package's core properties; the title is its `dc:title`, when set. */
export async function officeProperties(zip: ZipPackage): Promise<OwnProperties> {
  const xml = await zip.text('docProps/core.xml');
  const metadata = readCoreProperties(xml);
  return { title: xml !== null && xml.length <= MAX_PROPERTIES_CHARS ? ownTitle(xml) : null, metadata };
}

/** ODF `meta.xml` names, by the metadata key they are recorded under. */
const ODF_META: Readonly<Record<string, string>> = {
  creator: 'author',
  'initial-creator': 'author',
  subject: 'subject',
  keyword: 'keywords',
  description: 'description',
};

/** An OpenDocument file's `meta.xml`: title, author, subject, keywords. */
export async function openDocumentProperties(zip: ZipPackage): Promise<OwnProperties> {
  const reader = new MetadataReader();
  const xml = await zip.text('meta.xml');
  if (xml === null) return { title: null, metadata: reader.finish() };
  if (xml.length > MAX_PROPERTIES_CHARS) {
    reader.unread(`document properties over ${MAX_PROPERTIES_CHARS / 1024} KiB not read`);
    return { title: null, metadata: reader.finish() };
  }
  const tree = parseXml(xml, 'meta.xml');
  for (const element of descendants(tree, 'meta')[0]?.children ?? []) {
    if (element.type !== 'tag') continue;
    const key = ODF_META[localName(element.name)];
    if (key !== undefined) reader.add(key, collapse(textOf(element)));
  }
  return { title: ownTitle(xml), metadata: reader.finish() };
}

function ownTitle(xml: string): string | null {
  const title = descendants(parseXml(xml, 'document properties'), 'title')[0];
  return title === undefined ? null : collapse(textOf(title)) || null;
}
