// A blob's temp file never outlives its write: a disk that fills part-way through leaves nothing
// in blobs/ (tested on a real 64 KiB tmpfs, so the ENOSPC comes from the kernel, not a double),
// and a temp file left by a writer that died mid-write is swept by the next writer once it is old
// enough that no live write can own it, while a fresh one (another indexer's write in flight) stays.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FileBlobStore, sha256, STALE_TEMP_MS } from '../../server/src/store/blobs.ts';
import { tempDir } from '../support/tempFolder.ts';

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

test('a disk that fills during a blob write fails the put and leaves no temp file behind', (t) => {
  const mountPoint = mkdtempSync(path.join(tmpdir(), 'relata-fullDisk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', mountPoint], { encoding: 'utf8' });
  t.after(() => {
    if (mounted.status === 0) spawnSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });
  if (mounted.status !== 0) {
    t.skip(`a 64 KiB tmpfs cannot be mounted here (${(mounted.stderr || mounted.error?.message || '').trim()}); needs root and mount permission`);
    return;
  }
  return (async () => {
    const root = path.join(mountPoint, 'blobs');
    const blobs = new FileBlobStore(root);
    const bytes = new Uint8Array(256 * 1024).fill(7);
    await assert.rejects(blobs.put(sha256(bytes), bytes), (error: NodeJS.ErrnoException) => error.code === 'ENOSPC');
    assert.deepEqual(filesUnder(root), [], 'neither the blob nor its temp file is left');
    assert.equal(await blobs.has(sha256(bytes)), false);

    const small = new TextEncoder().encode('fits easily');
    await blobs.put(sha256(small), small);
    assert.deepEqual(filesUnder(root), [path.join(sha256(small).slice(0, 2), sha256(small))], 'the disk is usable again: nothing was leaked');
  })();
});

test('the first write of a process sweeps temp files old enough to belong to no live write, and only those', async (t) => {
  const root = path.join(tempDir(t), 'blobs');
  const hash = sha256(new TextEncoder().encode('a document that a killed indexer was writing'));
  const shard = path.join(root, hash.slice(0, 2));
  mkdirSync(shard, { recursive: true });
  const stale = path.join(shard, `${hash}.0123456789ab.tmp`);
  const fresh = path.join(shard, `${hash}.ba9876543210.tmp`);
  const unrelated = path.join(shard, 'notes.tmp');
  for (const file of [stale, fresh, unrelated]) writeFileSync(file, 'partial');
  const longAgo = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
  utimesSync(stale, longAgo, longAgo);
  utimesSync(unrelated, longAgo, longAgo);

  const blobs = new FileBlobStore(root);
  const bytes = new TextEncoder().encode('another document');
  await blobs.put(sha256(bytes), bytes);

  const left = filesUnder(root).sort();
  assert.ok(!left.includes(path.relative(root, stale)), 'the stale temp file is gone');
  assert.ok(left.includes(path.relative(root, fresh)), 'a temp file younger than the limit may be a live write: kept');
  assert.ok(left.includes(path.relative(root, unrelated)), 'only names a blob write makes are swept');
  assert.ok(await blobs.has(sha256(bytes)));
});
