// Which files open as Relata's parsed text rather than as themselves, and how the parsed-text
// view's URI names the file: `relata-text:/<folder-relative path> (parsed text)?<folder URI>`, so
// the tab says which file it is and two folders' files of one name stay apart. Pure, so tested
// without VS Code.

import type { Location } from '../../../shared/types.ts';

export const PARSED_TEXT_SCHEME = 'relata-text';
const SUFFIX = ' (parsed text)';

/** Containers VS Code shows as a binary file: opened without a passage, they open as parsed text too. Images and text formats open as themselves. */
const SHOWN_AS_BINARY = new Set(['.pdf', '.docx', '.pptx', '.pptm', '.odp', '.xlsx', '.xlsm', '.ods', '.odt', '.epub']);

/**
 * A passage located by lines (text, Markdown, JSON, HTML, CSV) opens in the file itself, where
 * those lines are; one located by page, slide, sheet row or paragraph is a place VS Code cannot
 * scroll a file to, so it opens in the parsed text. Without a passage, only a binary container does.
 */
export function opensAsParsedText(relativePath: string, location: Location | null | undefined): boolean {
  if (location) return location.kind !== 'lines';
  const dot = relativePath.lastIndexOf('.');
  return dot > relativePath.lastIndexOf('/') && SHOWN_AS_BINARY.has(relativePath.slice(dot).toLowerCase());
}

/** The view's URI path for a folder-relative path. */
export function parsedTextPath(relativePath: string): string {
  return `/${relativePath}${SUFFIX}`;
}

/** The folder-relative path a view's URI path names; null when it is not one this module wrote. */
export function relativeOfParsedTextPath(uriPath: string): string | null {
  if (!uriPath.startsWith('/') || !uriPath.endsWith(SUFFIX)) return null;
  const relative = uriPath.slice(1, -SUFFIX.length);
  return relative === '' ? null : relative;
}
