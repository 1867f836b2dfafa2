// Assembles a ParsedDocument the same way for every format, so `text` always matches the blocks,
// and "this file has no text", "this file hides text" and "this file hides instructions to an AI"
// are each decided by one rule.

import type { ItemFlag, Location } from '../../../shared/types.ts';
import { findInstructionAttempts } from '../answer/injection.ts';
import { isWhitespace } from '../chunk/words.ts';
import { joinBlocks } from '../records/document.ts';
import type { DocumentMetadata } from './metadata.ts';
import {
  HIDDEN_TEXT_MAX_CHARS,
  LINK_TARGET_MAX_CHARS,
  LINK_TEXT_MAX_CHARS,
  MAX_LINKS_PER_DOCUMENT,
  type Block,
  type DocumentLink,
  type HiddenText,
  type HiddenTextKind,
  type ParsedDocument,
  type StructureMap,
} from './types.ts';

/**
 * A heading or title as a label: long enough for any real one. A heading's name travels with every
 * passage under it (its heading path) and is copied into each stage thread's message, so a file
 * whose first heading is a megabyte of text would cost a megabyte per passage; the heading's own
 * block keeps its full text.
 */
export const MAX_LABEL_CHARS = 200;

/** `text` cut to MAX_LABEL_CHARS at a word where one is near, marked with an ellipsis. */
export function cutLabel(text: string): string {
  if (text.length <= MAX_LABEL_CHARS) return text;
  const cut = text.slice(0, MAX_LABEL_CHARS - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > MAX_LABEL_CHARS / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

/** Every heading name in the blocks' paths and the outline cut to a label, each distinct name once. */
function labelledHeadings(blocks: Block[], structure: StructureMap): { blocks: Block[]; structure: StructureMap } {
  const cuts = new Map<string, string>();
  const label = (text: string) => {
    if (text.length <= MAX_LABEL_CHARS) return text;
    let cut = cuts.get(text);
    if (cut === undefined) cuts.set(text, (cut = cutLabel(text)));
    return cut;
  };
  if (!blocks.some((block) => block.headingPath.some((name) => name.length > MAX_LABEL_CHARS)) && !structure.headings.some((h) => h.text.length > MAX_LABEL_CHARS)) {
    return { blocks, structure };
  }
  return {
    blocks: blocks.map((block) => ({ ...block, headingPath: block.headingPath.map(label) })),
    structure: { ...structure, headings: structure.headings.map((heading) => ({ ...heading, text: label(heading.text) })) },
  };
}

/** Characters that are not whitespace, counted in place: a replace() would copy a 50 MB text. */
export function countVisibleChars(text: string): number {
  let visible = 0;
  for (let i = 0; i < text.length; i++) if (!isWhitespace(text.charCodeAt(i))) visible++;
  return visible;
}

/** A finding for text a reader cannot see, or null when there is nothing but whitespace. */
export function hiddenText(kind: HiddenTextKind, text: string, location: Location): HiddenText | null {
  const flat = text.replace(/\s+/gu, ' ').trim();
  if (flat === '') return null;
  const clipped = flat.length > HIDDEN_TEXT_MAX_CHARS ? `${flat.slice(0, HIDDEN_TEXT_MAX_CHARS)}…` : flat;
  return { kind, text: clipped, location, instructions: findInstructionAttempts(flat) };
}

export function parsedDocument(parts: {
  title: string | null;
  blocks: Block[];
  structure: StructureMap;
  flags?: ItemFlag[];
  hidden?: HiddenText[];
  truncated?: string | null;
  metadata?: DocumentMetadata;
  links?: DocumentLink[];
}): ParsedDocument {
  const text = joinBlocks(parts.blocks);
  const hidden = parts.hidden ?? [];
  const truncated = parts.truncated ?? null;
  const flags = new Set(parts.flags ?? []);
  if (countVisibleChars(text) === 0) flags.add('little_text');
  if (hidden.length > 0) flags.add('hidden_text');
  if (hidden.some((finding) => finding.instructions.length > 0)) flags.add('hidden_instructions');
  if (truncated !== null) flags.add('truncated');
  if (parts.metadata?.note) flags.add('metadata_left_out');
  const { blocks, structure } = labelledHeadings(parts.blocks, parts.structure);
  const title = parts.title === null ? null : cutLabel(parts.title.replace(/\s+/g, ' ').trim());
  const document: ParsedDocument = { title, text, blocks, structure, flags: [...flags], hidden, truncated };
  if (parts.metadata) document.metadata = parts.metadata;
  if (parts.links) document.links = cappedLinks(parts.links);
  return document;
}

/** Links clipped and capped (records/document.ts), so one hostile file cannot bloat the store. */
function cappedLinks(links: readonly DocumentLink[]): DocumentLink[] {
  return links.slice(0, MAX_LINKS_PER_DOCUMENT).map((link) => ({
    ...link,
    target: link.target.trim().slice(0, LINK_TARGET_MAX_CHARS),
    text: link.text.replace(/\s+/g, ' ').trim().slice(0, LINK_TEXT_MAX_CHARS),
  }));
}

export { BLOCK_SEPARATOR, joinBlocks, withJoinedText } from '../records/document.ts';
