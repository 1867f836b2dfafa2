// Original bytes in GridFS, beside the MongoDB documents: content-addressed like FileBlobStore
// (the file's name is the sha256 of its bytes, checked by every put), written once and never rewritten. The bucket is
// store-wide, as the SQLite data directory's blobs are: two workspaces holding the same bytes
// share one blob, so a blob goes only when no item or version of any workspace refers to it
// (forgetItems reports those hashes; storeWideQueries.ts asks).
//
// GridFS writes the chunks of a file first and its files document last, and only a file with a
// files document exists for `has`, `get` and `list`: a crash mid-upload leaves chunks nobody
// reads (the next put writes the blob afresh). A unique index on the filename makes a second,
// concurrent upload of the same bytes fail at its last write; its chunks are then removed and
// the first upload stands.

import { createHash } from 'node:crypto';
import type { Db, GridFSBucket, ObjectId } from 'mongodb';
import { requireBytesOf, type BlobStore } from '../blobs.ts';
import { isDuplicateKey } from './duplicateKey.ts';

export const BLOB_BUCKET = 'relata_blobs';

const HASH = /^[0-9a-f]{64}$/;

function requireHash(hash: string): string {
  if (!HASH.test(hash)) throw new Error(`not a sha256 content hash: ${hash}`);
  return hash;
}

/** What the blob store needs of the connection: the database and the driver's GridFSBucket and ObjectId classes, loaded on first use. */
export interface GridFsAccess {
  db(): Promise<Db>;
  driver(): Promise<{ GridFSBucket: typeof GridFSBucket; ObjectId: typeof ObjectId }>;
  /** Throws when the store was opened to read. */
  requireWrite(what: string): void;
}

export class GridFsBlobStore implements BlobStore {
  private bucketReady: Promise<GridFSBucket> | null = null;
  private indexReady: Promise<void> | null = null;

  constructor(private readonly access: GridFsAccess) {}

  private bucket(): Promise<GridFSBucket> {
    const attempt = (this.bucketReady ??= (async () => {
      const [db, { GridFSBucket: Bucket }] = await Promise.all([this.access.db(), this.access.driver()]);
      return new Bucket(db, { bucketName: BLOB_BUCKET });
    })());
    // A server that was down is tried again by the next operation, not reported down for good.
    attempt.catch(() => {
      if (this.bucketReady === attempt) this.bucketReady = null;
    });
    return attempt;
  }

  private async filesCollection() {
    return (await this.access.db()).collection(`${BLOB_BUCKET}.files`);
  }

  /** The unique filename index, created by the first write of this process (a reader creates nothing). */
  private uniqueNames(): Promise<void> {
    const attempt = (this.indexReady ??= (async () => {
      const files = await this.filesCollection();
      await files.createIndex({ filename: 1 }, { unique: true, name: 'relata_blob_hash' });
    })());
    attempt.catch(() => {
      if (this.indexReady === attempt) this.indexReady = null;
    });
    return attempt;
  }

  async has(hash: string): Promise<boolean> {
    const files = await this.filesCollection();
    return (await files.countDocuments({ filename: requireHash(hash) }, { limit: 1 })) > 0;
  }

  async put(hash: string, bytes: Uint8Array): Promise<void> {
    requireHash(hash);
    this.access.requireWrite('store original bytes');
    requireBytesOf(hash, bytes);
    await this.uniqueNames();
    if (await this.has(hash)) return;
    const [bucket, { ObjectId: Id }] = await Promise.all([this.bucket(), this.access.driver()]);
    const id = new Id();
    const upload = bucket.openUploadStreamWithId(id, hash);
    try {
      await new Promise<void>((resolve, reject) => {
        upload.once('error', reject);
        upload.once('finish', () => resolve());
        upload.end(bytes);
      });
    } catch (error) {
      // Another process stored these bytes first: its blob stands, and this upload's chunks go.
      if (!isDuplicateKey(error)) throw error;
      const db = await this.access.db();
      await db.collection(`${BLOB_BUCKET}.chunks`).deleteMany({ files_id: id });
    }
  }

  async get(hash: string): Promise<Uint8Array> {
    requireHash(hash);
    const parts: Buffer[] = [];
    try {
      for await (const part of (await this.bucket()).openDownloadStreamByName(hash)) parts.push(part as Buffer);
    } catch (error) {
      if (isFileNotFound(error)) throw Object.assign(new Error(`no stored bytes for ${hash} in GridFS bucket ${BLOB_BUCKET}`), { code: 'ENOENT' });
      throw error;
    }
    return Buffer.concat(parts);
  }

  async verify(hash: string): Promise<'ok' | 'missing' | 'mismatch'> {
    requireHash(hash);
    const digest = createHash('sha256');
    try {
      for await (const part of (await this.bucket()).openDownloadStreamByName(hash)) digest.update(part as Buffer);
    } catch (error) {
      if (isFileNotFound(error)) return 'missing';
      // A files document whose chunks are gone or short: the bytes are not all there.
      if (isChunkDamage(error)) return 'mismatch';
      throw error;
    }
    return digest.digest('hex') === hash ? 'ok' : 'mismatch';
  }

  /** Only for bytes the store reports as referenced by no item or version of any workspace. */
  async remove(hash: string): Promise<void> {
    requireHash(hash);
    this.access.requireWrite('remove original bytes');
    const bucket = await this.bucket();
    for (const file of await bucket.find({ filename: hash }, { projection: { _id: 1 } }).toArray()) {
      try {
        await bucket.delete(file._id);
      } catch (error) {
        if (!isFileNotFound(error)) throw error; // removed meanwhile by another process
      }
    }
  }

  async *list(): AsyncIterable<string> {
    const bucket = await this.bucket();
    let previous: string | null = null;
    for await (const file of bucket.find({}, { projection: { filename: 1 }, sort: { filename: 1 } })) {
      if (file.filename === previous || !HASH.test(file.filename)) continue;
      previous = file.filename;
      yield file.filename;
    }
  }
}

/** The driver's words for a name or id with no files document ("FileNotFound: …" reading, "File not found for id …" deleting): it has no error class of its own for it. */
function isFileNotFound(error: unknown): boolean {
  return error instanceof Error && /^File not found for (id|filename)|FileNotFound/i.test(error.message);
}

/** The driver's error for a file whose chunks are missing, extra or of the wrong size. */
function isChunkDamage(error: unknown): boolean {
  return error instanceof Error && error.name === 'MongoGridFSChunkError';
}
