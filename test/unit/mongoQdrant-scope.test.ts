// The scope guard of the shared MongoDB (server/src/store/mongoQdrant/scope.ts): every filter,
// update, document and pipeline the store sends must bind the store's workspace and folder, and
// one that does not is refused before the driver sees it. The last tests hold a real driver
// Collection from a MongoClient that never connects (constructing one does not connect): an
// unscoped call throws synchronously, so nothing reached the driver; a scoped one is handed on.
// No server is involved, so these tests say nothing about what a server does with the requests.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { MongoClient, type Document } from 'mongodb';
import {
  bindsScope,
  documentInScope,
  pipelineIsScoped,
  ScopedCollection,
  ScopedDb,
  scopedFilter,
  UnscopedOperationError,
  updateKeepsScope,
  type Scope,
} from '../../server/src/store/mongoQdrant/scope.ts';

const scope: Scope = { workspace: 'alice', folder: 'f1' };
const scoped = (extra: Document = {}): Document => ({ workspace: 'alice', folder: 'f1', ...extra });

describe('filters', () => {
  test('a filter binding both scope fields by value, by $eq or inside $and is accepted', () => {
    assert.ok(bindsScope({ workspace: 'alice', folder: 'f1' }, scope));
    assert.ok(bindsScope({ workspace: { $eq: 'alice' }, folder: { $eq: 'f1' }, id: 'x' }, scope));
    assert.ok(bindsScope({ $and: [{ workspace: 'alice' }, { folder: { $eq: 'f1' } }], status: 'indexed' }, scope));
    assert.ok(bindsScope(scopedFilter(scope, { id: { $in: ['a', 'b'] } }), scope));
  });

  test('a scope given only inside $or or $nor is refused: one branch could match anything', () => {
    assert.equal(bindsScope({ $or: [{ workspace: 'alice', folder: 'f1' }, { id: 'x' }] }, scope), false);
    assert.equal(bindsScope({ $or: [{ workspace: 'alice', folder: 'f1' }] }, scope), false);
    assert.equal(bindsScope({ $nor: [{ workspace: 'bob' }], folder: 'f1' }, scope), false);
  });

  test('another workspace, another folder or a missing field is refused', () => {
    assert.equal(bindsScope({ workspace: 'bob', folder: 'f1' }, scope), false);
    assert.equal(bindsScope({ workspace: 'alice', folder: 'f2' }, scope), false);
    assert.equal(bindsScope({ workspace: 'alice' }, scope), false);
    assert.equal(bindsScope({ folder: 'f1' }, scope), false);
    assert.equal(bindsScope({}, scope), false);
    assert.equal(bindsScope(undefined, scope), false);
  });

  test('a condition that is not an equality on the scope value is refused', () => {
    assert.equal(bindsScope({ workspace: { $ne: 'bob' }, folder: 'f1' }, scope), false);
    assert.equal(bindsScope({ workspace: { $in: ['alice', 'bob'] }, folder: 'f1' }, scope), false);
    assert.equal(bindsScope({ workspace: { $eq: 'alice', $exists: true }, folder: 'f1' }, scope), false);
    assert.equal(bindsScope({ workspace: /alice/, folder: 'f1' }, scope), false);
    assert.equal(bindsScope({ workspace: { $regex: '.*' }, folder: 'f1' }, scope), false);
  });

  test('scopedFilter cannot be talked into another scope: a filter naming another workspace fails the check', () => {
    assert.equal(bindsScope(scopedFilter(scope, { workspace: 'bob' }), scope), false);
  });
});

describe('updates', () => {
  test('an update of the document\'s own fields is accepted', () => {
    assert.ok(updateKeepsScope({ $set: { status: 'indexed' }, $inc: { rev: 1 }, $push: { versions: { version: 2 } } }, scope));
    assert.ok(updateKeepsScope({ $unset: { followUp: '' }, $rename: { old: 'new' } }, scope));
  });

  test('$set, $unset or $rename of workspace or folder is refused', () => {
    assert.equal(updateKeepsScope({ $set: { workspace: 'bob' } }, scope), false);
    assert.equal(updateKeepsScope({ $set: { folder: 'f1' } }, scope), false, 'even to its own value: no update writes the scope');
    assert.equal(updateKeepsScope({ $set: { 'folder.name': 'x' } }, scope), false);
    assert.equal(updateKeepsScope({ $unset: { workspace: '' } }, scope), false);
    assert.equal(updateKeepsScope({ $rename: { workspace: 'formerWorkspace' } }, scope), false);
    assert.equal(updateKeepsScope({ $rename: { otherWorkspace: 'workspace' } }, scope), false);
    assert.equal(updateKeepsScope({ $rename: { name: 'folder.x' } }, scope), false);
  });

  test('$setOnInsert is accepted with the scope\'s own values only, so an upsert cannot create a document elsewhere', () => {
    assert.ok(updateKeepsScope({ $setOnInsert: { workspace: 'alice', folder: 'f1', createdAt: 't' } }, scope));
    assert.equal(updateKeepsScope({ $setOnInsert: { workspace: 'bob' } }, scope), false);
    assert.equal(updateKeepsScope({ $setOnInsert: { folder: 'f2' } }, scope), false);
    assert.equal(updateKeepsScope({ $setOnInsert: { workspace: 'alice' } }), false, 'without a scope to compare with, refused');
  });

  test('a replacement passed as an update and an update pipeline are refused', () => {
    assert.equal(updateKeepsScope({ status: 'indexed' }, scope), false);
    assert.equal(updateKeepsScope([{ $set: { status: 'indexed' } }], scope), false);
  });
});

describe('documents', () => {
  test('a document is in scope only with exactly this workspace and folder', () => {
    assert.ok(documentInScope(scoped({ id: 'x' }), scope));
    assert.equal(documentInScope({ workspace: 'alice', folder: 'f2', id: 'x' }, scope), false);
    assert.equal(documentInScope({ workspace: 'bob', folder: 'f1' }, scope), false);
    assert.equal(documentInScope({ folder: 'f1' }, scope), false);
    assert.equal(documentInScope(null, scope), false);
  });
});

describe('pipelines', () => {
  const first = { $match: scoped() };

  test('a pipeline whose first stage is a scoped $match is accepted, with scoped $lookup, $unionWith and $facet', () => {
    assert.ok(pipelineIsScoped([first, { $group: { _id: '$itemId' } }, { $limit: 5 }], scope));
    assert.ok(
      pipelineIsScoped(
        [
          first,
          { $lookup: { from: 'items', let: { id: '$itemId' }, pipeline: [{ $match: scoped({ $expr: { $eq: ['$id', '$$id'] } }) }], as: 'item' } },
          { $unionWith: { coll: 'chunks', pipeline: [{ $match: scoped() }] } },
          { $facet: { n: [{ $count: 'n' }], live: [{ $lookup: { from: 'items', pipeline: [{ $match: scoped() }], as: 'x' } }] } },
        ],
        scope,
      ),
    );
  });

  test('a pipeline that does not start with a scoped $match is refused', () => {
    assert.equal(pipelineIsScoped([], scope), false);
    assert.equal(pipelineIsScoped([{ $sort: { _id: 1 } }, first], scope), false);
    assert.equal(pipelineIsScoped([{ $match: { workspace: 'alice' } }], scope), false);
    assert.equal(pipelineIsScoped([{ $match: { $or: [scoped(), { id: 'x' }] } }], scope), false);
    assert.equal(pipelineIsScoped([{ $search: { text: { query: 'x', path: 'text' } } }, first], scope), false);
  });

  test('a $lookup by localField/foreignField alone is refused: it would join across workspaces', () => {
    assert.equal(pipelineIsScoped([first, { $lookup: { from: 'items', localField: 'itemId', foreignField: 'id', as: 'item' } }], scope), false);
    assert.equal(pipelineIsScoped([first, { $lookup: { from: 'items', pipeline: [{ $match: { id: 'x' } }], as: 'item' } }], scope), false);
  });

  test('an unscoped $unionWith, by name or with an unscoped pipeline, is refused', () => {
    assert.equal(pipelineIsScoped([first, { $unionWith: 'chunks' }], scope), false);
    assert.equal(pipelineIsScoped([first, { $unionWith: { coll: 'chunks' } }], scope), false);
    assert.equal(pipelineIsScoped([first, { $unionWith: { coll: 'chunks', pipeline: [{ $match: { workspace: 'bob', folder: 'f1' } }] } }], scope), false);
  });

  test('$out, $merge and $graphLookup are refused wherever they are, $facet included', () => {
    assert.equal(pipelineIsScoped([first, { $out: 'copy' }], scope), false);
    assert.equal(pipelineIsScoped([first, { $merge: { into: 'copy' } }], scope), false);
    assert.equal(pipelineIsScoped([first, { $graphLookup: { from: 'items', startWith: '$id', connectFromField: 'id', connectToField: 'id', as: 'x' } }], scope), false);
    assert.equal(pipelineIsScoped([first, { $facet: { x: [{ $lookup: { from: 'items', localField: 'a', foreignField: 'b', as: 'c' } }] } }], scope), false);
  });

  test('a stage object with two operators is refused (it could hide one behind the other)', () => {
    assert.equal(pipelineIsScoped([first, { $limit: 1, $out: 'copy' }], scope), false);
  });
});

describe('ScopedCollection on a real driver Collection that never connects', () => {
  // Nothing listens on port 1; the client only tries to connect if an operation reaches it.
  const client = new MongoClient('mongodb://127.0.0.1:1/relata_scope_test', { serverSelectionTimeoutMS: 200 });
  after(() => client.close());
  const database = new ScopedDb(client.db(), scope);
  const items = database.collection<Document>('items');

  test('every unscoped call throws UnscopedOperationError synchronously, before the driver is called', () => {
    const unscoped = { id: 'x' };
    const calls: [string, () => unknown][] = [
      ['find', () => items.find(unscoped)],
      ['findOne', () => items.findOne(unscoped)],
      ['countDocuments', () => items.countDocuments({ workspace: 'alice' })],
      ['distinct', () => items.distinct('id', { folder: 'f1' })],
      ['updateOne filter', () => items.updateOne(unscoped, { $set: { a: 1 } })],
      ['updateMany update', () => items.updateMany(scoped(), { $set: { workspace: 'bob' } })],
      ['upsert into another workspace', () => items.updateOne(scoped({ id: 'x' }), { $setOnInsert: { workspace: 'bob' } }, { upsert: true })],
      ['findOneAndUpdate', () => items.findOneAndUpdate({ $or: [scoped(), { id: 'x' }] }, { $set: { a: 1 } })],
      ['deleteMany', () => items.deleteMany({})],
      ['deleteOne', () => items.deleteOne({ workspace: 'alice', folder: 'f2' })],
      ['insertOne', () => items.insertOne({ workspace: 'bob', folder: 'f1', id: 'x' })],
      ['insertMany', () => items.insertMany([scoped({ id: 'a' }), { workspace: 'alice', id: 'b' }])],
      ['replaceOne', () => items.replaceOne(scoped({ id: 'x' }), { workspace: 'alice', folder: 'f2', id: 'x' })],
      ['aggregate', () => items.aggregate([{ $match: { id: 'x' } }])],
      ['bulkWrite', () => items.bulkWrite([{ deleteMany: { filter: scoped() } }, { updateOne: { filter: { id: 'x' }, update: { $set: { a: 1 } } } }])],
    ];
    for (const [name, call] of calls) assert.throws(call, UnscopedOperationError, name);
  });

  test('the refusal names the collection and what was unscoped', () => {
    assert.throws(() => items.deleteMany({ id: 'x' }), /refused an unscoped deleteMany filter on items/);
  });

  test('scoped reads are handed to the driver: find and aggregate return its lazy cursors, with no round trip yet', () => {
    const cursor = items.find(items.filter({ id: 'x' }));
    assert.equal(cursor.constructor.name, 'FindCursor');
    const pipeline = items.aggregate([{ $match: items.filter() }, { $limit: 1 }]);
    assert.equal(pipeline.constructor.name, 'AggregationCursor');
  });

  test('a scoped write is handed to the driver (its promise would connect; it is not awaited)', () => {
    const pending = items.updateOne(items.filter({ id: 'x' }), { $set: { seen: true } });
    pending.catch(() => undefined);
    assert.ok(pending instanceof Promise);
  });

  test('document() adds the scope, and the result is accepted by insertOne\'s check', () => {
    const document = items.document({ id: 'x' });
    assert.deepEqual(document, { id: 'x', workspace: 'alice', folder: 'f1' });
    assert.ok(documentInScope(document, scope));
  });
});
