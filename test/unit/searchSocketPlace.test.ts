// Where the search socket is and when it may be trusted (server/src/searchSocket/place.ts): the
// name is the same for two processes exactly when they would search the same store the same way,
// the path fits the operating system's limit or is not offered, and a directory or socket other
// users could reach is named as such. Real files and a real socket in a temporary directory.

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { prepareSocketDirectory, socketDirectory, socketPath, storeDigest, unsafeDirectoryReason, unsafeSocketReason, type StoreIdentity } from '../../server/src/searchSocket/place.ts';
import { tempDir } from '../support/tempFolder.ts';

const sqlite = (dataDir: string): StoreIdentity => ({ location: { backend: 'sqlite', dataDir }, workspace: 'ana', embedding: { kind: 'use-lite' } });

test('the digest is the same exactly when the store, workspace and embedding model are', (t) => {
  const root = tempDir(t);
  const data = path.join(root, 'data');
  mkdirSync(data);
  symlinkSync(data, path.join(root, 'link'));
  const base = storeDigest(sqlite(data));
  assert.match(base, /^[0-9a-f]{64}$/);
  assert.equal(storeDigest(sqlite(path.join(root, 'link'))), base, 'a data directory reached through a link is the same store');
  assert.equal(storeDigest({ ...sqlite(data), embedding: { kind: 'use-lite', threads: 4 } }), base, 'threads do not change the vectors');
  assert.notEqual(storeDigest(sqlite(path.join(root, 'other'))), base);
  assert.notEqual(storeDigest({ ...sqlite(data), workspace: 'bo' }), base);
  assert.notEqual(storeDigest({ ...sqlite(data), embedding: { kind: 'none' } }), base);
  assert.notEqual(storeDigest({ ...sqlite(data), embedding: { kind: 'onnx', modelDir: root } }), base);
  const mongo = (folder: string, mongodbUri = 'mongodb://u:secret@db:27017'): StoreIdentity => ({
    location: { backend: 'mongodb-qdrant', mongodbUri, qdrantUrl: 'http://q:6333', folder },
    workspace: 'ana',
    embedding: { kind: 'use-lite' },
  });
  assert.notEqual(storeDigest(mongo('a-1')), storeDigest(mongo('b-2')), 'another folder on the same servers');
  assert.notEqual(storeDigest(mongo('a-1')), storeDigest(mongo('a-1', 'mongodb://db:27017')), 'other credentials are not assumed to reach the same data');
});

test('the socket is in the runtime directory, else the temporary one; too long a path or Windows means none', { skip: process.platform === 'win32' && 'the socket is not offered on Windows' }, () => {
  const digest = 'a'.repeat(64);
  assert.equal(socketDirectory({ XDG_RUNTIME_DIR: '/run/user/1000' }), '/run/user/1000/relata');
  assert.match(socketDirectory({})!, new RegExp(`relata-${process.getuid!()}$`));
  assert.equal(socketDirectory({ XDG_RUNTIME_DIR: 'relative/dir' }), socketDirectory({}), 'a relative runtime directory is ignored');
  assert.equal(socketPath(digest, { XDG_RUNTIME_DIR: '/run/user/1000' }), `/run/user/1000/relata/${'a'.repeat(32)}.sock`);
  assert.equal(socketPath(digest, { XDG_RUNTIME_DIR: `/${'r'.repeat(70)}` }), null, 'over the 104-108 byte limit of a socket path');
  assert.equal(socketDirectory({}, 'win32'), null);
});

test('a directory or socket other users could reach is named, and an existing directory is never loosened', { skip: process.platform === 'win32' && 'no socket on Windows' }, async (t) => {
  const root = tempDir(t);
  chmodSync(root, 0o700);
  const directory = path.join(root, 'relata');
  assert.equal(prepareSocketDirectory(directory), null);
  assert.equal(unsafeDirectoryReason(directory), null);

  chmodSync(directory, 0o755);
  assert.match(prepareSocketDirectory(directory) ?? '', /open to other users \(mode 755\)/);
  assert.match(unsafeDirectoryReason(directory) ?? '', /open to other users/);
  chmodSync(directory, 0o700);

  chmodSync(root, 0o777);
  assert.match(unsafeDirectoryReason(directory) ?? '', /writable by other users and not sticky/, 'anyone could swap the directory');
  chmodSync(root, 0o1777);
  assert.equal(unsafeDirectoryReason(directory), null, 'a sticky shared parent, like /tmp, is fine');
  chmodSync(root, 0o700);

  const linked = path.join(root, 'linked');
  symlinkSync(directory, linked);
  assert.match(unsafeDirectoryReason(linked) ?? '', /not a directory \(a symbolic link\)/);

  const plain = path.join(directory, 'plain.sock');
  writeFileSync(plain, '', { mode: 0o600 });
  assert.match(unsafeSocketReason(plain) ?? '', /is not a socket/);

  const socket = path.join(directory, 'real.sock');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  t.after(() => server.close());
  chmodSync(socket, 0o600);
  assert.equal(unsafeSocketReason(socket), null);
  chmodSync(socket, 0o660);
  assert.match(unsafeSocketReason(socket) ?? '', /open to other users \(mode 660\)/);
});
