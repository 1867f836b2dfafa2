// A saved web page declares its encoding in a byte order mark, a `<meta charset>` or a
// `<meta http-equiv="Content-Type">`; browsers honour them in that order, and so does this.
// Without either, UTF-8 is tried and Windows-1252 (what older pages were written in) is the
// fallback, as for plain text. A declared charset iconv-lite does not know is ignored, not fatal.

import iconv from 'iconv-lite';
import { ParseError } from './types.ts';

/** Browsers look for the declaration in the first 1,024 bytes; pages with a long preamble put it later, so more is read. */
const DECLARATION_WINDOW = 16 * 1024;
/** Share of NUL bytes above which a file without a byte order mark is taken for binary (as for plain text); a few stray ones browsers ignore. */
const MAX_NUL_SHARE = 0.05;

export function decodeHtml(bytes: Uint8Array): { text: string; charset: string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: buffer.subarray(3).toString('utf8'), charset: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: iconv.decode(buffer.subarray(2), 'utf-16le'), charset: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: iconv.decode(buffer.subarray(2), 'utf-16be'), charset: 'utf-16be' };
  const declared = declaredCharset(buffer.subarray(0, DECLARATION_WINDOW).toString('latin1'));
  // A page cannot declare UTF-16 in ASCII bytes and mean it (the declaration would be unreadable): browsers read UTF-8 then.
  if (declared !== null && !/^utf-?16/.test(declared) && iconv.encodingExists(declared)) {
    return { text: iconv.decode(buffer, declared), charset: declared };
  }
  let nul = 0;
  for (const byte of bytes) if (byte === 0) nul++;
  if (nul > bytes.length * MAX_NUL_SHARE) throw new ParseError('not an HTML file: contains binary data (NUL bytes)');
  try {
    return { text: withoutNul(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), charset: 'utf-8' };
  } catch {
    return { text: withoutNul(iconv.decode(buffer, 'win1252')), charset: 'windows-1252' };
  }
}

/** The charset a `<meta>` in this head declares, lower case; null when none does. */
export function declaredCharset(head: string): string | null {
  for (const meta of head.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = meta[0];
    const direct = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(tag);
    if (direct) return direct[1]!.toLowerCase();
  }
  return null;
}

function withoutNul(text: string): string {
  return text.includes('\0') ? text.replace(/\0/g, '') : text;
}
