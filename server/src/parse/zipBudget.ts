// DOCX, XLSX, PPTX, OpenDocument and EPUB files are ZIP archives, and a ZIP of one megabyte can inflate to gigabytes. Before anything is
// inflated, the sizes every entry declares are checked against a budget; while an entry inflates,
// its bytes are counted, so an archive whose headers understate what is inside (a lying header)
// is stopped as soon as it outgrows them rather than when memory runs out.

import type JSZip from 'jszip';
import { ParseError } from './types.ts';

/** Honest XML compresses 5 to 30 times; an entry this much larger than its compressed bytes is a bomb. */
export const MAX_COMPRESSION_RATIO = 200;
/** Below this, a high ratio costs nothing worth refusing a file for (a small, very repetitive part). */
const RATIO_CHECKED_ABOVE = 4 * 1024 * 1024;

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;

interface DeclaredEntry {
  name: string;
  compressed: number;
  uncompressed: number;
}

export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-GB')} MB`;
}

/**
 * The sizes in the archive's central directory, or null when there is none to read: the ZIP
 * reader then reports the archive as damaged or truncated, in its own words.
 */
export function declaredEntries(bytes: Uint8Array): DeclaredEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: DeclaredEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_DIRECTORY_ENTRY) return null;
    const nameLength = view.getUint16(at + 28, true);
    entries.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      compressed: view.getUint32(at + 20, true),
      // 0xFFFFFFFF defers to a ZIP64 field: 4 GiB or more, beyond any budget, which is all that matters here.
      uncompressed: view.getUint32(at + 24, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** Refuses, before inflating anything, an archive whose entries declare more than `maxBytes` or a bomb's ratio. */
export function checkDeclaredSizes(entries: readonly DeclaredEntry[], maxBytes: number, format = 'DOCX'): void {
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressed;
    if (entry.uncompressed > RATIO_CHECKED_ABOVE && entry.uncompressed > MAX_COMPRESSION_RATIO * Math.max(entry.compressed, 1)) {
      throw new ParseError(
        `${format} part ${entry.name} inflates from ${entry.compressed.toLocaleString('en-GB')} bytes to ${megabytes(entry.uncompressed)}, more than ${MAX_COMPRESSION_RATIO} times its size (zip bomb?)`,
      );
    }
  }
  if (total > maxBytes) {
    throw new ParseError(`${format} inflates to more than ${megabytes(maxBytes)} (its ZIP entries declare ${megabytes(total)}; zip bomb?)`);
  }
}

/** Inflates entries one at a time, within what each declares and what is left of the budget. */
export class InflateBudget {
  private left: number;

  constructor(
    private readonly maxBytes: number,
    private readonly declared: ReadonlyMap<string, number>,
    private readonly format = 'DOCX',
  ) {
    this.left = maxBytes;
  }

  async read(file: JSZip.JSZipObject): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    await this.stream(file, (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      return true;
    });
    return Buffer.concat(chunks, size);
  }

  /**
   * Inflates an entry chunk by chunk, handing each to `take`; when `take` returns false, inflating
   * stops there, so a reader that has all it will read (a sheet at its cell cap) costs no more.
   */
  stream(file: JSZip.JSZipObject, take: (chunk: Buffer) => boolean): Promise<void> {
    const declared = this.declared.get(file.name);
    return new Promise((resolve, reject) => {
      let size = 0;
      const stream = file.nodeStream('nodebuffer');
      const halt = (): void => {
        stream.removeAllListeners('data');
        stream.pause();
        (stream as { destroy?: () => void }).destroy?.();
      };
      const stop = (error: ParseError): void => {
        halt();
        reject(error);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (declared !== undefined && size > declared) {
          return stop(
            new ParseError(
              `malformed ${this.format}: part ${file.name} inflates to more than the ${declared.toLocaleString('en-GB')} bytes its ZIP header declares (a damaged or crafted archive)`,
            ),
          );
        }
        if (size > this.left) return stop(new ParseError(`${this.format} inflates to more than ${megabytes(this.maxBytes)} (zip bomb?)`));
        let more: boolean;
        try {
          more = take(chunk);
        } catch (error) {
          halt();
          return reject(error);
        }
        if (!more) {
          halt();
          this.left -= size;
          resolve();
        }
      });
      stream.on('error', reject);
      stream.on('end', () => {
        this.left -= size;
        resolve();
      });
    });
  }
}
