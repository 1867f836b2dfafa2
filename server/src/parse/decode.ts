// Turns the bytes of a plain-text format (txt, md, json) into a string, refusing files that are
// really binary: indexing the "text" of an image or an archive would only pollute search.

import iconv from 'iconv-lite';
import { ParseError } from './types.ts';

/** Share of control characters above which a non-UTF-8 file is taken for binary, not legacy text. */
const MAX_CONTROL_SHARE = 0.05;

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.includes(0)) throw new ParseError('not a text file: contains binary data (NUL bytes)');
  try {
    // ignoreBOM: false strips a leading UTF-8 BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8. Older editors save Windows-1252 (Latin-1): keep such text rather than fail it,
    // unless the bytes look like binary.
    if (controlShare(bytes) > MAX_CONTROL_SHARE) {
      throw new ParseError('not a text file: contains binary data (not valid UTF-8)');
    }
    return decodeWindows1252(bytes);
  }
}

// iconv-lite rather than TextDecoder: Node 20's TextDecoder('windows-1252') decodes as Latin-1
// (no € and no curly quotes).
function decodeWindows1252(bytes: Uint8Array): string {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'win1252');
}

function controlShare(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let control = 0;
  for (const b of bytes) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return control / bytes.length;
}
