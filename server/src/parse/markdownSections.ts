// A huge Markdown file is parsed in sections so the parser's memory is bounded by a section, not
// the file: micromark's event list and the syntax tree for one file of tens of MB outgrow the stage
// thread's 512 MB (a 48 MiB file failed at the limit; parsing 4 MiB peaks about 110 MB above the
// runtime, so the limit is crossed near 15 MiB). Sections are cut just before an ATX heading
// ("# …", "## …") outside fenced code, where a Markdown block cannot continue, so every heading,
// list and table is parsed as it would be in the whole file. What a cut can change: a link
// reference definition applies only within its section, and an HTML block or unclosed construct
// that runs across a heading ends at it. Files up to SECTIONED_ABOVE_BYTES are parsed whole.

import type { Nodes } from 'mdast';

/** Files larger than this (in UTF-16 code units of the decoded text) are parsed in sections. */
export const SECTIONED_ABOVE_CHARS = 4 * 2 ** 20;
/** A section is cut at the first heading after this many characters. */
export const SECTION_CHARS = 2 ** 20;

export interface MarkdownSection {
  text: string;
  /** Lines before the section in the whole file, to add to the section's own line numbers. */
  lineOffset: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;

/**
 * The file's text in sections of about `sectionChars` or more, each starting at a heading (the
 * first at the file's start); one section when the text is no longer than `sectionedAbove`, or
 * when it has no heading to cut at.
 */
export function markdownSections(text: string, sectionedAbove = SECTIONED_ABOVE_CHARS, sectionChars = SECTION_CHARS): MarkdownSection[] {
  if (text.length <= sectionedAbove) return [{ text, lineOffset: 0 }];
  const sections: MarkdownSection[] = [];
  let sectionStart = 0;
  let sectionLine = 0;
  let line = 0;
  let fence: string | null = null;
  for (let at = 0; at < text.length; line++) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline + 1;
    const content = text.slice(at, Math.min(end, at + 16));
    const opened = FENCE.exec(content);
    if (fence !== null) {
      // A fence closes with at least as many of the same character.
      if (opened && opened[1]![0] === fence[0] && opened[1]!.length >= fence.length) fence = null;
    } else if (opened) {
      fence = opened[1]!;
    } else if (at - sectionStart >= sectionChars && ATX_HEADING.test(content)) {
      sections.push({ text: text.slice(sectionStart, at), lineOffset: sectionLine });
      sectionStart = at;
      sectionLine = line;
    }
    at = end;
  }
  sections.push({ text: text.slice(sectionStart), lineOffset: sectionLine });
  return sections;
}

/** Shift a section's syntax tree to the whole file's line numbers. */
export function shiftLines(node: Nodes, lineOffset: number): void {
  if (lineOffset === 0) return;
  const stack: Nodes[] = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    const { position } = next;
    // New points rather than edits: a parser may share one point object between nodes.
    if (position) {
      next.position = { start: { ...position.start, line: position.start.line + lineOffset }, end: { ...position.end, line: position.end.line + lineOffset } };
    }
    if ('children' in next) stack.push(...(next.children as Nodes[]));
  }
}
