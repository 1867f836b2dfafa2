// Reading an export directory as the untrusted input it is. Only regular files are read: each is
// opened without following a link (O_NOFOLLOW: a manifest, records file or blob linked to
// /etc/passwd or to a file outside the export is refused) and without blocking (O_NONBLOCK: a FIFO
// is opened at once rather than waited on), and the opened handle itself must be a regular file
// (a FIFO or a device such as /dev/zero is refused before a byte is read). A file's size is
// compared with what the manifest or its record says before it is read, and a line longer than
// the format allows is refused as it is read, so no file can make an import hang or fill memory.
// Errors name the file and the reason, never its content.

import { createHash, type Hash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { LINK_NOT_FOLLOWED, unreadableReason } from '../../workspace/folderBoundary.ts';

/** An export that cannot be loaded as it is: the message names the file (and line) and the reason. */
export class ExportDirectoryError extends Error {
  override readonly name = 'ExportDirectoryError';
}

// Absent on Windows, where a link is not opened through by default anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Bytes read at a time. */
const READ_SIZE = 64 * 1024;

/** Why a file of the export is not read, in words (the reasons a folder's files are skipped with); null for a regular file. */
function notRegular(file: string, stats: Stats): ExportDirectoryError | null {
  if (stats.isFile()) return null;
  const reason = unreadableReason(stats);
  const words = stats.isDirectory() ? 'a directory' : reason === LINK_NOT_FOLLOWED ? 'a symbolic link' : reason;
  return new ExportDirectoryError(`${file}: ${words}: an export holds regular files only, and Relata reads nothing else from it; nothing was imported`);
}

/** The export's own directories (blobs/) must be real directories: a link would lead the reads elsewhere. */
export async function requireDirectory(dir: string): Promise<void> {
  const stats = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new ExportDirectoryError(`${dir}: ${error.code === 'ENOENT' ? 'missing' : `cannot be read (${error.code ?? 'error'})`}`);
  });
  if (stats.isSymbolicLink()) throw new ExportDirectoryError(`${dir}: a symbolic link: an export holds real directories only; nothing was imported`);
  if (!stats.isDirectory()) throw new ExportDirectoryError(`${dir}: not a directory; nothing was imported`);
}

/**
 * Opens a file of the export for reading if it is a regular file reached without a link, and
 * returns the handle with its size. `missing` words the message for a file that is not there.
 */
export async function openExportFile(file: string, missing = 'missing'): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, OPEN_FLAGS).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new ExportDirectoryError(`${file}: ${missing}`);
    // ELOOP: O_NOFOLLOW met a link. Looked at without following, to say what it is.
    const stats = await lstat(file).catch(() => null);
    const refusal = stats ? notRegular(file, stats) : null;
    throw refusal ?? new ExportDirectoryError(`${file}: cannot be read (${error.code ?? 'error'})`);
  });
  try {
    const stats = await handle.stat();
    const refusal = notRegular(file, stats);
    if (refusal) throw refusal;
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * A whole file of the export, read once into memory and hashed as it is read: its size must be
 * `expectedSize` (checked before reading, and again at the end, so a file that grows or shrinks
 * meanwhile is refused) and at most `cap`.
 */
export async function readExportFile(
  file: string,
  options: { expectedSize?: number; source?: string; cap: number; missing?: string },
): Promise<{ bytes: Buffer; sha256: string }> {
  const { handle, size } = await openExportFile(file, options.missing);
  try {
    if (options.expectedSize !== undefined && size !== options.expectedSize) throw sizeChanged(file, size, options.expectedSize, options.source);
    if (size > options.cap) throw new ExportDirectoryError(`${file} is ${size} bytes, more than the ${options.cap} bytes it may hold; nothing was imported`);
    const bytes = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const { bytesRead: beyond } = await handle.read(Buffer.alloc(1), 0, 1, size);
    if (filled !== size || beyond !== 0) throw new ExportDirectoryError(`${file} changed size while it was read; nothing was imported`);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  } finally {
    await handle.close();
  }
}

/**
 * Hashes a whole file of the export as a stream (a blob may be large), its size checked first
 * against what `source` (the manifest, a blob's record) says; true when the bytes hash as expected.
 */
export async function hashesAsExpected(file: string, expected: { sha256: string; bytes: number }, source = 'the manifest'): Promise<boolean> {
  const { handle, size } = await openExportFile(file);
  try {
    if (size !== expected.bytes) throw sizeChanged(file, size, expected.bytes, source);
    const digest = createHash('sha256');
    const buffer = Buffer.alloc(READ_SIZE);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      digest.update(buffer.subarray(0, bytesRead));
    }
    return total === expected.bytes && digest.digest('hex') === expected.sha256;
  } finally {
    await handle.close();
  }
}

function sizeChanged(file: string, size: number, expected: number, source = 'the manifest'): ExportDirectoryError {
  return new ExportDirectoryError(`${file} has changed since it was exported: it is ${size} bytes, ${source} says ${expected}; nothing was imported`);
}

/** One line of a records file, with its 1-based number. */
export interface ExportLine {
  text: string;
  line: number;
}

/**
 * The lines of a records file, read once from a handle opened as above and hashed as they are
 * read: its size must be the manifest's before reading begins, and once every line is read the
 * bytes must hash to `sha256`, so every line handed out was part of the file the manifest
 * describes (a caller that loads lines as they come learns of a change at the end, and its store
 * rolls back). A line longer than `maxLineBytes` is refused as soon as it is, never held whole.
 */
export async function* exportLines(file: string, expected: { sha256: string; bytes: number }, maxLineBytes: number): AsyncGenerator<ExportLine> {
  const { handle, size } = await openExportFile(file);
  try {
    if (size !== expected.bytes) throw sizeChanged(file, size, expected.bytes);
    const digest: Hash = createHash('sha256');
    const buffer = Buffer.alloc(READ_SIZE);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let line = 0;
    let total = 0;
    const tooLong = () =>
      new ExportDirectoryError(`${file} line ${line + 1}: longer than ${maxLineBytes.toLocaleString('en')} bytes, more than any record Relata writes of this kind; nothing was imported`);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      digest.update(chunk);
      let start = 0;
      for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
        if (pendingBytes + newline - start > maxLineBytes) throw tooLong();
        pending.push(Buffer.from(chunk.subarray(start, newline)));
        line += 1;
        yield { text: Buffer.concat(pending).toString('utf8'), line };
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
      }
      pendingBytes += bytesRead - start;
      if (pendingBytes > maxLineBytes) throw tooLong();
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start)));
    }
    if (pendingBytes > 0) {
      line += 1;
      yield { text: Buffer.concat(pending).toString('utf8'), line };
    }
    if (total !== expected.bytes || digest.digest('hex') !== expected.sha256) {
      throw new ExportDirectoryError(`${file} has changed since it was exported (its sha-256 is not the manifest's): nothing was imported`);
    }
  } finally {
    await handle.close();
  }
}
