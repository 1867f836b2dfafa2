// Original bytes, kept verbatim and content-addressed by sha256 inside the data directory.
// A blob is written once (temp file + rename, so a crash never leaves a half-written blob under
// its final name) and never rewritten: the same hash always names the same bytes. Blobs are
// owner-only (privateFiles.ts); one is removed only when `relata forget` finds nothing refers to it.

import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './privateFiles.ts';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class BlobStore {
  constructor(private readonly root: string) {}

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a sha256 content hash: ${hash}`);
    return path.join(this.root, hash.slice(0, 2), hash);
  }

  has(hash: string): boolean {
    return existsSync(this.pathOf(hash));
  }

  async put(hash: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(hash);
    if (existsSync(target)) return;
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    try {
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async get(hash: string): Promise<Uint8Array> {
    return readFile(this.pathOf(hash));
  }

  /** Only for bytes the store reports as referenced by no item or version of any workspace. */
  async remove(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }
}
