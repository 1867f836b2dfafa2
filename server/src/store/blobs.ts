// Original bytes, kept verbatim and content-addressed by sha256 inside the data directory.
// A blob is stored only under the hash of its bytes, whoever names it (requireBytesOf).
// A blob is written once (temp file + rename, so a crash never leaves a half-written blob under
// its final name) and never rewritten: the same hash always names the same bytes. Blobs are
// owner-only (privateFiles.ts); one is removed only when `relata forget` finds nothing refers to it.
// A temp file never outlives a failed write (a full disk fails writeFile part-way), and one left
// by a process that died mid-write is swept by the next writer once it is STALE_TEMP_MS old: no
// live write takes that long, so a sweep never takes a file another indexer is still writing.

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './privateFiles.ts';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Every `put` hashes what it is given before anything else, the blob already stored or not: the
 * name is a claim, and a blob stored under a name its bytes do not hash to would be served to
 * every workspace of the data directory (they share blobs) as those bytes. A caller that hashed
 * the bytes itself pays a second hash; no caller is trusted to have hashed the bytes it passes.
 */
export function requireBytesOf(hash: string, bytes: Uint8Array): void {
  if (sha256(bytes) !== hash) throw new Error(`the bytes given for ${hash} do not hash to it: not stored`);
}

/** Age past which a blob's temp file belongs to no live write. */
export const STALE_TEMP_MS = 10 * 60_000;

const TEMP_NAME = /^[0-9a-f]{64}\.[0-9a-f]{12}\.tmp$/;

/**
 * Where a store keeps original bytes, content-addressed by sha256: files beside the SQLite store
 * (FileBlobStore), GridFS beside MongoDB (mongoQdrant/gridFsBlobs.ts). A blob is written once and
 * never rewritten.
 */
export interface BlobStore {
  put(hash: string, bytes: Uint8Array): Promise<void>;
  has(hash: string): Promise<boolean>;
  get(hash: string): Promise<Uint8Array>;
  /** Whether the blob is there and its bytes still hash to its name (`relata check`). */
  verify(hash: string): Promise<'ok' | 'missing' | 'mismatch'>;
  /** Only for bytes the store reports as referenced by no item or version of any workspace. */
  remove(hash: string): Promise<void>;
  /** Every stored hash (for `relata export`). */
  list(): AsyncIterable<string>;
}

export class FileBlobStore implements BlobStore {
  /** Set by the first put: a process sweeps once, when it first writes, and readers never do. */
  private swept: Promise<number> | null = null;

  constructor(private readonly root: string) {}

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a sha256 content hash: ${hash}`);
    return path.join(this.root, hash.slice(0, 2), hash);
  }

  async has(hash: string): Promise<boolean> {
    return existsSync(this.pathOf(hash));
  }

  async put(hash: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(hash);
    requireBytesOf(hash, bytes);
    await (this.swept ??= this.sweepStaleTemps());
    if (existsSync(target)) return;
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      await rename(temp, target);
    } catch (error) {
      // EEXIST: the name (48 random bits) is another write's, which is not ours to remove.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Remove temp files older than STALE_TEMP_MS, left by writers that died mid-write; returns how
   * many. Housekeeping only: a directory that cannot be read is left for the next writer.
   */
  async sweepStaleTemps(now = Date.now()): Promise<number> {
    let removed = 0;
    const shards = await readdir(this.root).catch(() => [] as string[]);
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      const folder = path.join(this.root, shard);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (!TEMP_NAME.test(name)) continue;
        const file = path.join(folder, name);
        const info = await stat(file).catch(() => null);
        if (info && now - info.mtimeMs > STALE_TEMP_MS && (await unlink(file).then(() => true, () => false))) removed += 1;
      }
    }
    return removed;
  }

  async get(hash: string): Promise<Uint8Array> {
    return readFile(this.pathOf(hash));
  }

  /** Whether the blob is there and its bytes still hash to its name (`relata check`); read as a stream, so a large one costs no memory. */
  async verify(hash: string): Promise<'ok' | 'missing' | 'mismatch'> {
    const digest = createHash('sha256');
    try {
      for await (const chunk of createReadStream(this.pathOf(hash))) digest.update(chunk as Buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
    return digest.digest('hex') === hash ? 'ok' : 'mismatch';
  }

  /** Only for bytes the store reports as referenced by no item or version of any workspace. */
  async remove(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }

  async *list(): AsyncIterable<string> {
    const shards = (await readdir(this.root).catch(() => [] as string[])).filter((shard) => /^[0-9a-f]{2}$/.test(shard)).sort();
    for (const shard of shards) {
      const names = await readdir(path.join(this.root, shard)).catch(() => [] as string[]);
      for (const name of names.sort()) if (/^[0-9a-f]{64}$/.test(name)) yield name;
    }
  }
}
