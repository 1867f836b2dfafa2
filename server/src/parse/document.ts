// Assembles a ParsedDocument the same way for every format, so `text` always matches the blocks
// and "this file has no text" is decided by one rule.

import type { ItemFlag } from '../../../shared/types.ts';
import type { Block, ParsedDocument, StructureMap } from './types.ts';

/** The separator between blocks in `ParsedDocument.text`. */
export const BLOCK_SEPARATOR = '\n\n';

export function joinBlocks(blocks: readonly Block[]): string {
  return blocks.map((block) => block.text).join(BLOCK_SEPARATOR);
}

export function countVisibleChars(text: string): number {
  return text.replace(/\s+/gu, '').length;
}

export function parsedDocument(parts: {
  title: string | null;
  blocks: Block[];
  structure: StructureMap;
  flags?: ItemFlag[];
}): ParsedDocument {
  const text = joinBlocks(parts.blocks);
  const flags = [...(parts.flags ?? [])];
  if (countVisibleChars(text) === 0 && !flags.includes('little_text')) flags.push('little_text');
  return { title: parts.title, text, blocks: parts.blocks, structure: parts.structure, flags };
}
