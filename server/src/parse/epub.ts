// An e-book (EPUB) is a ZIP whose package document (the OPF, named by META-INF/container.xml)
// gives the title, authors and subjects, lists the chapters' XHTML files, and orders them in its
// spine. The chapters are read in spine order by the HTML reader (html.ts), each a section of its
// own, located by block ordinal (an e-book has no lines or pages of its own). A book whose
// chapters are encrypted (DRM) fails with that reason rather than yielding ciphertext.

import path from 'node:path';
import { parsedDocument } from './document.ts';
import { readHtml } from './html.ts';
import { MetadataReader } from './metadata.ts';
import { Outline } from './outline.ts';
import { DEFAULT_PARSER_LIMITS, ParseError, type Parser, type ParserLimits } from './types.ts';
import { attr, collapse, descendants, localName, parseXml, textOf } from './xmlTree.ts';
import { ZipPackage } from './zipPackage.ts';

export const epubParser = createEpubParser();

/** Package metadata read, by the key it is recorded under. */
const PACKAGE_METADATA: Readonly<Record<string, string>> = {
  creator: 'author',
  contributor: 'contributor',
  subject: 'subject',
  publisher: 'publisher',
  date: 'date',
  description: 'description',
};

export function createEpubParser(limits: Partial<ParserLimits> = {}): Parser {
  const maxInflatedBytes = limits.maxInflatedBytes ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes;
  return {
    version: 'epub@1',
    extensions: ['.epub'],
    async parse(bytes) {
      const zip = await ZipPackage.open(bytes, 'EPUB', maxInflatedBytes);
      const container = await zip.required('META-INF/container.xml', 'META-INF/container.xml is missing (the ZIP archive holds no e-book)');
      const rootfile = descendants(parseXml(container, 'META-INF/container.xml'), 'rootfile')[0];
      const opfPath = rootfile === undefined ? undefined : attr(rootfile, 'full-path');
      if (opfPath === undefined) throw new ParseError('malformed EPUB: META-INF/container.xml names no package document');
      const opf = parseXml(await zip.required(opfPath, `its package document ${opfPath} is missing`), opfPath);
      const folder = path.posix.dirname(opfPath);
      const manifest = new Map<string, { href: string; type: string }>();
      for (const item of descendants(opf, 'item')) {
        const href = attr(item, 'href');
        if (href === undefined) continue;
        manifest.set(attr(item, 'id') ?? '', { href: path.posix.normalize(path.posix.join(folder === '.' ? '' : folder, decodeHref(href))), type: attr(item, 'media-type') ?? '' });
      }
      const chapters = descendants(opf, 'itemref')
        .map((ref) => manifest.get(attr(ref, 'idref') ?? ''))
        .filter((item): item is { href: string; type: string } => item !== undefined && /html|xml/i.test(item.type));
      await refuseEncrypted(zip, new Set(chapters.map((chapter) => chapter.href)));
      const outline = new Outline();
      for (const chapter of chapters) {
        const xhtml = await zip.text(chapter.href);
        if (xhtml === null) continue;
        outline.resetSections();
        readHtml(xhtml, outline, () => outline.nextOrdinal(), true);
      }
      const { title, metadata } = packageMetadata(opf);
      return parsedDocument({
        title: title ?? outline.headings.find((heading) => heading.level === 1)?.text ?? null,
        blocks: outline.blocks,
        structure: { headings: outline.headings, tables: outline.tables },
        hidden: outline.hidden,
        metadata: metadata.finish(),
        links: outline.links,
      });
    },
  };
}

function packageMetadata(opf: ReturnType<typeof parseXml>): { title: string | null; metadata: MetadataReader } {
  const metadata = new MetadataReader();
  let title: string | null = null;
  const block = descendants(opf, 'metadata')[0];
  for (const element of block === undefined ? [] : block.children) {
    if (element.type !== 'tag') continue;
    const name = localName(element.name);
    const text = collapse(textOf(element));
    if (name === 'title') title ??= text || null;
    else if (Object.hasOwn(PACKAGE_METADATA, name)) metadata.add(PACKAGE_METADATA[name]!, text);
  }
  return { title, metadata };
}

/** Chapters listed in META-INF/encryption.xml are ciphertext (fonts alone may be obfuscated harmlessly). */
async function refuseEncrypted(zip: ZipPackage, chapters: ReadonlySet<string>): Promise<void> {
  const xml = await zip.text('META-INF/encryption.xml');
  if (xml === null) return;
  for (const reference of descendants(parseXml(xml, 'META-INF/encryption.xml'), 'CipherReference')) {
    if (chapters.has(decodeHref(attr(reference, 'URI') ?? ''))) {
      throw new ParseError('encrypted EPUB: its chapters are encrypted (DRM); Relata cannot read them');
    }
  }
}

function decodeHref(href: string): string {
  try {
    return decodeURIComponent(href.split('#')[0]!);
  } catch {
    return href;
  }
}
