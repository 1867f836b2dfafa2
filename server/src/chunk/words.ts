// Words, as the chunker counts them: maximal runs of non-whitespace (JavaScript's `\s`). Counted
// and located by walking character codes over a range of the text, so that a 50 MB block costs
// one pass and no array of millions of words (`text.match(/\S+/g)` would allocate one string per word).

/** Whether a UTF-16 code unit is whitespace in the sense of JavaScript's `\s`. */
export function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Number of words in `text[start, end)`. */
export function countWords(text: string, start = 0, end = text.length): number {
  let n = 0;
  let inWord = false;
  for (let i = start; i < end; i++) {
    const space = isWhitespace(text.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** Index of the first non-whitespace character in `text[start, end)`, or `end`. */
export function skipWhitespace(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** Index just after the word that starts at `start`, bounded by `end`. */
export function wordEnd(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && !isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** Start of the whitespace run that ends `text[start, end)` (`end` if the range ends in a word). */
export function trailingWhitespaceStart(text: string, start: number, end: number): number {
  let i = end;
  while (i > start && isWhitespace(text.charCodeAt(i - 1))) i--;
  return i;
}
