// HTML character references (&eacute;, &#233;, &#xE9;) in text that is shown as HTML without
// being Markdown: a front matter's title and description. YAML keeps "M&eacute;tricas" as
// written, but every static-site generator writes the value into a page, where it reads
// "Métricas"; kept as written, the item's title would show the reference and its words would be
// indexed as "m", "eacute", "tricas", which match any other title written the same way and never
// the word a person types. The body's references are decoded by the Markdown parser itself.

import { Parser } from 'htmlparser2';

const REFERENCE = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?/g;

/** Named references decoded so far: a few hundred names exist, and a value may repeat one many times. */
const decoded = new Map<string, string>();

/** One reference as an HTML page reads it (htmlparser2's decoder, the one html.ts reads pages with); unknown names stay as written. */
function decodeReference(reference: string): string {
  let text = decoded.get(reference);
  if (text === undefined) {
    text = '';
    const parser = new Parser(
      {
        ontext: (part) => {
          text += part;
        },
      },
      { decodeEntities: true },
    );
    parser.end(reference);
    if (decoded.size < 4096) decoded.set(reference, text);
  }
  return text;
}

/** `text` with its character references decoded. */
export function decodeCharacterReferences(text: string): string {
  return text.includes('&') ? text.replace(REFERENCE, decodeReference) : text;
}
