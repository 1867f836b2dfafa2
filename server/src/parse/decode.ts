// Turns the bytes of a plain-text format (txt, md, json) into a string, refusing files that are
// really binary: indexing the "text" of an image or an archive would only pollute search.

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

/** 0x80-0x9F in Windows-1252; the rest of the range is Latin-1. 0 marks the five unassigned bytes. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

// Written out because Node's TextDecoder('windows-1252') decodes as Latin-1 (no € and curly quotes).
function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    const high = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : undefined;
    out += String.fromCharCode(high || b);
  }
  return out;
}

function controlShare(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let control = 0;
  for (const b of bytes) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return control / bytes.length;
}
