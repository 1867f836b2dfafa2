// How the suite keeps MongoDB runs apart (backends.ts): each test file's run gets a database of
// its own, named from the URI's, and everything else in the URI is kept as it was given.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withDatabaseSuffix } from './backends.ts';

test('the run\'s database is the URI\'s database with a suffix', () => {
  assert.equal(withDatabaseSuffix('mongodb://localhost:27017/relata_test', 'r1'), 'mongodb://localhost:27017/relata_test_r1');
});

test('a URI without a database gets a named one', () => {
  assert.equal(withDatabaseSuffix('mongodb://localhost:27017', 'r1'), 'mongodb://localhost:27017/relata_contract_r1');
  assert.equal(withDatabaseSuffix('mongodb://localhost:27017/', 'r1'), 'mongodb://localhost:27017/relata_contract_r1');
  assert.equal(withDatabaseSuffix('mongodb://localhost:27017/?replicaSet=rs0', 'r1'), 'mongodb://localhost:27017/relata_contract_r1?replicaSet=rs0');
});

test('credentials, several hosts and options are kept', () => {
  assert.equal(
    withDatabaseSuffix('mongodb://ana:p%40ss@db1:27017,db2:27017/relata?replicaSet=rs0&authSource=admin', 'r1'),
    'mongodb://ana:p%40ss@db1:27017,db2:27017/relata_r1?replicaSet=rs0&authSource=admin',
  );
  assert.equal(withDatabaseSuffix('mongodb+srv://ana:secret@cluster0.example.net/relata?retryWrites=true', 'r1'), 'mongodb+srv://ana:secret@cluster0.example.net/relata_r1?retryWrites=true');
});

test('a string that is not a connection string is refused without echoing it', () => {
  assert.throws(() => withDatabaseSuffix('ana:secret@localhost', 'r1'), (error: Error) => /not a MongoDB connection string/.test(error.message) && !error.message.includes('secret'));
});
