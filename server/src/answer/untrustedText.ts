// One reading of untrusted text (a passage, or the question) for both the injection scan and the
// prompt, so that what is checked is exactly what the model sees. A document can hide an
// instruction from a pattern while keeping it legible to a model: full-width letters
// ("ｉｇｎｏｒｅ"), zero-width characters inside words, soft hyphens, bidi controls that reorder
// what a person sees, tag characters that spell invisible ASCII. Compatibility forms are folded
// (NFKC) and every invisible format or control character is removed before anything else happens.

/**
 * Superscripts, subscripts and vulgar fractions keep their form: NFKC would turn "10⁶" into "106"
 * and "½" into "1⁄2", changing what a passage states, and no instruction hides in them.
 */
const KEEP_FORM = /[\u00B2\u00B3\u00B9\u00BC-\u00BE\u2070-\u209F\u2150-\u215F\u2189]/u;

/**
 * Invisible format characters (\p{Cf}: zero-width space and joiners U+200B-U+200D, word joiner
 * U+2060, BOM U+FEFF, soft hyphen, bidi embeddings, overrides and isolates U+202A-U+202E,
 * U+2066-U+2069, marks U+200E/U+200F/U+061C, tag characters U+E0000-U+E007F) and every C0/C1
 * control except tab and newline.
 */
const INVISIBLE = /[\p{Cf}\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;

/** Line and paragraph separators and carriage returns are line breaks to a reader, and become one. */
const LINE_BREAK = /\r\n?|[\u2028\u2029\u0085]/g;

export function normaliseUntrusted(text: string): string {
  return text
    .replace(LINE_BREAK, '\n')
    .replace(INVISIBLE, '')
    .replace(/[^\p{ASCII}]/gu, (char) => (KEEP_FORM.test(char) ? char : char.normalize('NFKC')))
    .normalize('NFC');
}
