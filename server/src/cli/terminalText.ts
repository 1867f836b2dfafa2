// Document text on a terminal. Titles, passages, file names and failure reasons come from the
// documents, and a terminal obeys what it prints: ESC and C1 sequences clear the screen, set the
// window title or forge a hyperlink, a carriage return overwrites a line, and bidi controls
// reorder what a reader sees. Every such character is printed as its `\uXXXX` escape instead,
// so it is visible and inert. The same escape is valid JSON inside a string, so `--json` output
// passes through unchanged in meaning: a JSON consumer reads the document's exact text, while a
// person who prints the JSON to a terminal sees the escape.

/**
 * Control characters (C0, DEL, C1), format characters (bidi marks, embeddings, overrides and
 * isolates, zero-width and invisible characters, tag characters), line and paragraph separators,
 * and lone surrogates. The zero-width joiner and non-joiner are kept: scripts such as Persian and
 * emoji sequences need them, and they move nothing on a terminal.
 */
const UNSAFE = /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const UNSAFE_KEEPING_LINES = /(?![\n\t\u200C\u200D])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const escape = (character: string): string =>
  Array.from({ length: character.length }, (_, index) => `\\u${character.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`).join('');

/** Text of several lines (a whole output, an answer): newlines and tabs stay, every other control is escaped. */
export function terminalText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_KEEPING_LINES, escape);
}

/** A field that must stay on its line (a title, a path, a reason): newlines and tabs are escaped too. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE, escape);
}
