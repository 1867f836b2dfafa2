// XLSX, PPTX, OpenDocument and EPUB files are ZIP archives of XML parts, like DOCX. This opens one
// the way docx.ts does: the first bytes checked for what the file really is, every entry's
// declared size checked before anything inflates, and each part inflated within the budget
// (zipBudget.ts), so a zip bomb in any of these formats fails with its reason before it can
// exhaust memory. Failures name the format and the problem, never the content.

import JSZip from 'jszip';
import { ParseError } from './types.ts';
import { checkDeclaredSizes, declaredEntries, InflateBudget } from './zipBudget.ts';

export class ZipPackage {
  private constructor(
    private readonly zip: JSZip,
    private readonly budget: InflateBudget,
    readonly format: string,
  ) {}

  /** @param format the name a person knows the file by, as reasons say it ("XLSX", "EPUB"). */
  static async open(bytes: Uint8Array, format: string, maxInflatedBytes: number): Promise<ZipPackage> {
    checkContainer(bytes, format);
    const entries = declaredEntries(bytes);
    if (entries !== null) checkDeclaredSizes(entries, maxInflatedBytes, format);
    const declared = new Map((entries ?? []).map((entry) => [entry.name, entry.uncompressed]));
    try {
      return new ZipPackage(await JSZip.loadAsync(bytes), new InflateBudget(maxInflatedBytes, declared, format), format);
    } catch (error) {
      throw zipFailure(error, bytes, format);
    }
  }

  has(name: string): boolean {
    return this.zip.file(name) !== null;
  }

  /** Part names, in archive order. */
  names(): string[] {
    return Object.keys(this.zip.files).filter((name) => !this.zip.files[name]!.dir);
  }

  /** A part as text (UTF-8), or null when the archive lacks it. */
  async text(name: string): Promise<string | null> {
    const file = this.zip.file(name);
    if (file === null) return null;
    try {
      return (await this.budget.read(file)).toString('utf8');
    } catch (error) {
      throw zipFailure(error, new Uint8Array(), this.format);
    }
  }

  /** A part that must be there, as text; its absence is the file's fault, said in `missing`. */
  async required(name: string, missing: string): Promise<string> {
    const text = await this.text(name);
    if (text === null) throw new ParseError(`not ${article(this.format)} file: ${missing}`);
    return text;
  }

  /**
   * A part handed over as text chunk by chunk (UTF-8 decoded across chunk boundaries) until
   * `take` returns false: a reader with a cap never inflates more than it reads.
   */
  async stream(name: string, take: (text: string) => boolean): Promise<boolean> {
    const file = this.zip.file(name);
    if (file === null) return false;
    const decoder = new TextDecoder('utf-8');
    try {
      await this.budget.stream(file, (chunk) => take(decoder.decode(chunk, { stream: true })));
    } catch (error) {
      throw zipFailure(error, new Uint8Array(), this.format);
    }
    return true;
  }
}

/** Rejects, before unzipping, files whose first bytes already say they are no such archive. */
function checkContainer(bytes: Uint8Array, format: string): void {
  if (bytes.length === 0) throw new ParseError('empty file (0 bytes)');
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new ParseError(
      `not ${article(format)} file: this is an OLE compound file, either a password-protected ${format} (Relata does not guess passwords) or a legacy Office file renamed`,
    );
  }
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) throw new ParseError(`not ${article(format)} file: the file is not a valid ZIP archive`);
}

function zipFailure(error: unknown, bytes: Uint8Array, format: string): ParseError {
  if (error instanceof ParseError) return error;
  const message = String((error as { message?: unknown } | null)?.message ?? error).split('\n')[0]!.trim();
  if (/end of central directory/i.test(message)) {
    return bytes[2] === 0x03 && bytes[3] === 0x04
      ? new ParseError(`truncated ${format}: the ZIP archive has no central directory (incomplete download or copy?)`)
      : new ParseError(`not ${article(format)} file: the file is not a valid ZIP archive`);
  }
  if (/encrypt/i.test(message)) return new ParseError(`encrypted ${format}: its ZIP entries are encrypted (Relata does not guess passwords)`);
  return new ParseError(`malformed ${format}: damaged ZIP archive (${message.replace(/\.$/, '')})`);
}

/** "an XLSX", "a PPTX": the article for a format's name as it is spelled out letter by letter. */
export function article(format: string): string {
  return `${/^[AEFHILMNORSX]/.test(format) ? 'an' : 'a'} ${format}`;
}
