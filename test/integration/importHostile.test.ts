// An export directory is untrusted input: crafted ones, edited as an attacker would (records and
// manifest kept in agreement, so each refusal is the check it is about), never make an import or
// a later `relata index` read outside the folder or the export, hang on a FIFO or a device, take a
// record larger than anything the indexer writes, store bytes other than those it checked, or
// quote a refused file. Real exports of a real indexed folder, real SQLite stores, real FIFOs and
// links (POSIX only: FIFOs and /dev/zero do not exist on Windows).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { importFromDirectory } from '../../server/src/store/exchange/importDir.ts';
import { MAX_RECORD_LINE_BYTES } from '../../server/src/store/exchange/limits.ts';
import { EXCHANGE_KINDS, RECORD_FILES, type ExchangeRecord } from '../../server/src/store/exchange/records.ts';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import { copyOfExport, CRAFTED_WORKSPACE, editRecords, readManifestFile, realExport, recordsOf, writeRecordsText } from '../support/craftedExport.ts';
import { tempDir } from '../support/tempFolder.ts';

const POSIX = process.platform !== 'win32';
/** A hang would outlast this by far; a refusal takes well under a second. */
const NO_HANG = { timeout: 60_000 };

let root: string;
let exportDir: string;
let folder: string;

before(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'relata-crafted-'));
  ({ dir: exportDir, folder } = await realExport(root));
});

after(() => rmSync(root, { recursive: true, force: true }));

async function importInto(dataDir: string, dir: string, progress?: (message: string) => void) {
  const { store, blobs } = openStoreWithBlobs({ dataDir, workspace: CRAFTED_WORKSPACE, access: 'write' });
  try {
    return await importFromDirectory({ dir, store, blobs, where: dataDir, ...(progress ? { progress } : {}) });
  } finally {
    await store.close();
  }
}

/** What a store holds for the workspace: nothing after a refused import. */
async function holdings(dataDir: string): Promise<{ records: number; blobs: string[] }> {
  const { store, blobs } = openStoreWithBlobs({ dataDir, workspace: CRAFTED_WORKSPACE, access: 'write' });
  try {
    let records = 0;
    for await (const record of store.exportRecords()) if (record) records += 1;
    const stored: string[] = [];
    for await (const hash of blobs.list()) stored.push(hash);
    return { records, blobs: stored };
  } finally {
    await store.close();
  }
}

/** Refused before anything is loaded, with a message matching `reason` that quotes nothing in `secret`. */
async function refused(t: TestContext, dir: string, reason: RegExp, secret?: string): Promise<void> {
  const target = tempDir(t);
  await assert.rejects(importInto(target, dir), (error: Error) => {
    assert.match(error.message, reason);
    if (secret) assert.ok(!error.message.includes(secret), `the message quotes the refused file: ${error.message}`);
    return true;
  });
  assert.deepEqual(await holdings(target), { records: 0, blobs: [] });
}

const itemPathsOutside = ['../outside/secret.txt', 'dock/../../outside/secret.txt', '/etc/passwd', 'dock\\..\\..\\outside\\secret.txt', 'C:\\Windows\\win.ini', 'dock/hand\u0000over.md'];

for (const bad of itemPathsOutside) {
  test(`an item whose path is ${JSON.stringify(bad)} is refused at import, naming the file, the line and the reason`, async (t) => {
    const dir = copyOfExport(t, exportDir);
    editRecords(dir, 'item', (items) => items.map((item, index) => (index === 0 ? { ...item, path: bad, status: 'pending' } : item)));
    await refused(t, dir, /items\.jsonl line 1: field path .*(leaves the folder|absolute|NUL)/);
  });
}

test('a store that already holds an item path outside the folder (an older import) never makes `relata index` read it', async (t) => {
  const outside = path.join(root, 'outside');
  mkdirSync(outside, { recursive: true });
  const secretText = 'The vault combination is 31-17-44: never index this.\n';
  writeFileSync(path.join(outside, 'secret.txt'), secretText);
  // Loaded through the store's own import, as a Relata without the path check would have done.
  const evil = (id: string, itemPath: string): ExchangeRecord => ({
    record: 'item', id, path: itemPath, title: null, status: 'pending', reason: null, duplicateOf: null, contentHash: null,
    size: null, version: 0, parserVersion: null, flags: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', deletedAt: null, forgottenAt: null,
  });
  async function* planted(): AsyncGenerator<ExchangeRecord> {
    for (const kind of EXCHANGE_KINDS) {
      for (const record of recordsOf(exportDir, kind)) yield record as unknown as ExchangeRecord;
      if (kind === 'item') {
        yield evil('item_evil_1', '../outside/secret.txt');
        yield evil('item_evil_2', `${folder}/../outside/secret.txt`);
      }
    }
  }
  const dataDir = tempDir(t);
  const { store } = openStoreWithBlobs({ dataDir, workspace: CRAFTED_WORKSPACE, access: 'write' });
  await store.importRecords(planted());
  await store.close();

  const index = await FolderIndex.open({ folder, dataDir, workspace: CRAFTED_WORKSPACE, embedding: { kind: 'none' } });
  try {
    await index.index();
    const secretHash = createHash('sha256').update(secretText).digest('hex');
    assert.equal(existsSync(path.join(dataDir, 'blobs', secretHash.slice(0, 2), secretHash)), false, 'the secret\'s bytes are not in the blob store');
    for (const item of await index.store.listItems({ includeDeleted: true })) {
      assert.notEqual(item.contentHash, secretHash, `${item.path} holds the secret's bytes`);
      for (const chunk of await index.store.listChunks(item.id)) assert.ok(!chunk.text.includes('vault combination'), `${item.path} holds the secret's text`);
    }
    for (const id of ['item_evil_1', 'item_evil_2']) {
      const item = await index.store.getItem(id);
      assert.equal(item?.status, 'failed', `${id} is reported`);
      assert.match(item!.reason ?? '', /leaves the folder|absolute/);
      assert.match(item!.reason ?? '', /not read/);
    }
    assert.equal((await index.store.searchChunksLexical('vault combination', 5)).length, 0);
  } finally {
    await index.close();
  }
});

test('a manifest.json linked to another file is refused without quoting it', { skip: !POSIX, ...NO_HANG }, async (t) => {
  const dir = copyOfExport(t, exportDir);
  const target = path.join(tempDir(t), 'passwd');
  writeFileSync(target, 'root:x:0:0:root:/root:/bin/bash\n');
  unlinkSync(path.join(dir, 'manifest.json'));
  symlinkSync(target, path.join(dir, 'manifest.json'));
  await refused(t, dir, /manifest\.json: a symbolic link/, 'root:x:0:0');
});

test('a manifest.json that is not JSON is refused without quoting its text', async (t) => {
  const dir = copyOfExport(t, exportDir);
  writeFileSync(path.join(dir, 'manifest.json'), 'root:x:0:0:root:/root:/bin/bash\n');
  await refused(t, dir, /manifest\.json is not valid JSON/, 'root:x:0:0');
});

test('a records file linked to a same-content file elsewhere is refused (links are not followed)', { skip: !POSIX }, async (t) => {
  const dir = copyOfExport(t, exportDir);
  const elsewhere = path.join(tempDir(t), 'items.jsonl');
  cpSync(path.join(dir, RECORD_FILES.item), elsewhere);
  unlinkSync(path.join(dir, RECORD_FILES.item));
  symlinkSync(elsewhere, path.join(dir, RECORD_FILES.item));
  await refused(t, dir, /items\.jsonl: a symbolic link/);
});

test('a blob linked to a file outside the export, whose hash is known, is refused', { skip: !POSIX }, async (t) => {
  const dir = copyOfExport(t, exportDir);
  const [hash] = readdirSync(path.join(dir, 'blobs'));
  const elsewhere = path.join(tempDir(t), 'original');
  cpSync(path.join(dir, 'blobs', hash!), elsewhere);
  unlinkSync(path.join(dir, 'blobs', hash!));
  symlinkSync(elsewhere, path.join(dir, 'blobs', hash!));
  await refused(t, dir, new RegExp(`blobs/${hash}: a symbolic link`));
});

test('a records file or a blob that is a FIFO is refused at once, not waited on', { skip: !POSIX, ...NO_HANG }, async (t) => {
  const dir = copyOfExport(t, exportDir);
  unlinkSync(path.join(dir, RECORD_FILES.meta));
  execFileSync('mkfifo', [path.join(dir, RECORD_FILES.meta)]);
  await refused(t, dir, /meta\.jsonl: not a regular file \(a FIFO\)/);

  const blobDir = copyOfExport(t, exportDir);
  const [hash] = readdirSync(path.join(blobDir, 'blobs'));
  unlinkSync(path.join(blobDir, 'blobs', hash!));
  execFileSync('mkfifo', [path.join(blobDir, 'blobs', hash!)]);
  await refused(t, blobDir, new RegExp(`blobs/${hash}: not a regular file \\(a FIFO\\)`));

  const manifestDir = copyOfExport(t, exportDir);
  unlinkSync(path.join(manifestDir, 'manifest.json'));
  execFileSync('mkfifo', [path.join(manifestDir, 'manifest.json')]);
  await refused(t, manifestDir, /manifest\.json: not a regular file \(a FIFO\)/);
});

test('a records file that is a device (/dev/zero) is refused at once, not read for ever', { skip: !POSIX, ...NO_HANG }, async (t) => {
  const dir = copyOfExport(t, exportDir);
  unlinkSync(path.join(dir, RECORD_FILES.alias));
  symlinkSync('/dev/zero', path.join(dir, RECORD_FILES.alias));
  await refused(t, dir, /aliases\.jsonl: a symbolic link/);
});

test('a passage record longer than anything the indexer writes is refused, naming the line and the limit', async (t) => {
  const dir = copyOfExport(t, exportDir);
  editRecords(dir, 'chunk', (chunks) => chunks.map((chunk, index) => (index === 0 ? { ...chunk, text: 'crane '.repeat(Math.ceil(MAX_RECORD_LINE_BYTES / 6) + 10) } : chunk)));
  await refused(t, dir, /chunks\.jsonl line 1: longer than \d[\d,]* bytes/);
});

test('a records file larger than the manifest says is refused before it is read', async (t) => {
  const dir = copyOfExport(t, exportDir);
  writeFileSync(path.join(dir, RECORD_FILES.phrase), `${readFileSync(path.join(dir, RECORD_FILES.phrase), 'utf8')}${'x'.repeat(1000)}`);
  await refused(t, dir, /phrases\.jsonl has changed since it was exported: it is \d+ bytes, the manifest says \d+/);
});

test('a blob whose bytes change after they were checked is not stored: what is stored is what was hashed', async (t) => {
  const dir = copyOfExport(t, exportDir);
  const [hash] = readdirSync(path.join(dir, 'blobs'));
  const target = tempDir(t);
  // Between the check and the load (the progress line that says every original was checked), the
  // blob is replaced by other bytes of the same size: the FIFO attack, done with a regular file.
  const swap = (message: string) => {
    if (/original files checked/.test(message)) {
      const size = readFileSync(path.join(dir, 'blobs', hash!)).length;
      writeFileSync(path.join(dir, 'blobs', hash!), Buffer.alloc(size, 0x41));
    }
  };
  await assert.rejects(importInto(target, dir, swap), new RegExp(`blobs/${hash} has changed since it was exported`));
  const held = await holdings(target);
  assert.equal(held.records, 0);
  assert.ok(!held.blobs.includes(hash!), 'the substituted bytes are not stored under the hash');
});

test('a chunk id that points nowhere, a vector of the wrong size and a NaN vector are refused', async (t) => {
  const dangling = copyOfExport(t, exportDir);
  editRecords(dangling, 'entity', (entities) => entities.map((entity, index) => (index === 0 ? { ...entity, chunkId: 'chk_nowhere' } : entity)));
  await refused(t, dangling, /entities\.jsonl line 1: refers to passage chk_nowhere, which the export does not hold/);

  const wrongItem = copyOfExport(t, exportDir);
  const items = recordsOf(wrongItem, 'item').map((item) => item.id as string);
  editRecords(wrongItem, 'claim', (claims) => claims.map((claim, index) => (index === 0 ? { ...claim, itemId: items.find((id) => id !== claim.itemId) } : claim)));
  await refused(t, wrongItem, /claims\.jsonl line 1: passage .* belongs to another item/);

  const short = copyOfExport(t, exportDir);
  editRecords(short, 'vector', (vectors) => vectors.map((vector, index) => (index === 0 ? { ...vector, vector: Buffer.alloc(8).toString('base64') } : vector)));
  await refused(t, short, /vectors\.jsonl line 1: a vector of 2 values, the model .* has \d+ dimensions/);

  const nan = copyOfExport(t, exportDir);
  editRecords(nan, 'vector', (vectors) =>
    vectors.map((vector, index) => {
      if (index !== 0) return vector;
      const bytes = Buffer.from(vector.vector as string, 'base64');
      bytes.writeFloatLE(Number.NaN, 4);
      return { ...vector, vector: bytes.toString('base64') };
    }),
  );
  await refused(t, nan, /vectors\.jsonl line 1: field vector holds a value that is not a finite number/);
});

test('the manifest counts and an untouched crafted copy still import: the checks refuse only what they should', async (t) => {
  const dir = copyOfExport(t, exportDir);
  writeRecordsText(dir, 'meta', readFileSync(path.join(dir, RECORD_FILES.meta), 'utf8'));
  const report = await importInto(tempDir(t), dir);
  assert.equal(report.counts.item, readManifestFile(dir).counts.item);
});
