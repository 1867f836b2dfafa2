// Why pdf.js could not open a PDF, read from the file's own structure: pdf.js says only "Invalid
// PDF structure" whether the file was cut off or its cross-reference table (the index of byte
// offsets every reader starts from) is wrong, and those call for different actions: fetch or copy
// the file again, or repair it (e.g. by re-saving it from a PDF reader).

const TAIL_BYTES = 1024;
const HEAD_BYTES = 1024;

const latin1 = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, end - start)).toString('latin1');

const figure = (n: number) => n.toLocaleString('en-GB');

/** A complete PDF ends with %%EOF (give or take trailing whitespace); a cut-off download does not. */
export function endsWithEofMarker(bytes: Uint8Array): boolean {
  return latin1(bytes, Math.max(0, bytes.length - TAIL_BYTES), bytes.length).includes('%%EOF');
}

/** The file length a linearized ("fast web view") PDF declares in its first object, if it is one. */
function declaredLength(bytes: Uint8Array): number | null {
  const head = latin1(bytes, 0, Math.min(bytes.length, HEAD_BYTES));
  const match = /\/Linearized\b[^>]*?\/L\s+(\d+)/s.exec(head);
  return match ? Number(match[1]) : null;
}

/** Where the last `startxref` says the cross-reference table starts, if the tail says. */
function crossReferenceOffset(bytes: Uint8Array): number | null {
  const tail = latin1(bytes, Math.max(0, bytes.length - TAIL_BYTES), bytes.length);
  const matches = [...tail.matchAll(/startxref\s+(\d+)/g)];
  return matches.length > 0 ? Number(matches[matches.length - 1]![1]) : null;
}

/** What is wrong with the cross-reference table `startxref` points to, or null when it looks sound. */
function crossReferenceProblem(bytes: Uint8Array): string | null {
  const offset = crossReferenceOffset(bytes);
  if (offset === null) return 'the file does not say where its cross-reference table is (no startxref)';
  if (offset >= bytes.length) {
    return `startxref points to byte ${figure(offset)}, past the end of the ${figure(bytes.length)}-byte file`;
  }
  const at = latin1(bytes, offset, Math.min(bytes.length, offset + 64)).replace(/^\s+/, '');
  // A classic table: "xref", a subsection header "first count", then 20-byte entries.
  if (/^xref\s+\d+\s+\d+\s*[\r\n]+\s*\d{10} \d{5} [nf]/.test(at)) return null;
  // A cross-reference stream (PDF 1.5+) is an object.
  if (/^\d+\s+\d+\s+obj\b/.test(at)) return null;
  return `there is no cross-reference table at byte ${figure(offset)}, where startxref points`;
}

/**
 * The reason to give for a PDF whose structure pdf.js could not read (`detail` is pdf.js's own
 * message), or null when the file's structure shows nothing more specific than that message.
 */
export function describeStructuralDamage(bytes: Uint8Array, detail: string): string | null {
  if (!endsWithEofMarker(bytes)) {
    const declared = declaredLength(bytes);
    if (declared !== null && declared > bytes.length) {
      return (
        `truncated PDF: the file has ${figure(bytes.length)} of the ${figure(declared)} bytes it declares, ` +
        'so the cross-reference table at its end is missing (incomplete download or copy?)'
      );
    }
    return 'truncated PDF: the file ends before its end-of-file marker (incomplete download or copy?)';
  }
  const problem = crossReferenceProblem(bytes);
  if (problem) {
    return `damaged PDF: invalid cross-reference table (${problem}), and its objects could not be recovered without it (${detail})`;
  }
  return null;
}
