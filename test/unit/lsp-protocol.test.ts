// The protocol is typed once and checked at the server's door: every request has a literal
// `relata/` method and a schema, and the schemas accept what the client sends and name the field
// that is wrong in what it must not.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AskRequest,
  ConfirmRequest,
  GraphRequest,
  ItemRequest,
  RelatedRequest,
  RelationshipsRequest,
  REQUESTS,
  SearchRequest,
  StatusNotification,
  StatusRequest,
  IndexingRequest,
  ReindexFileRequest,
  StoreFolderRequest,
} from '../../shared/protocol.ts';
import { problemsWith } from '../../shared/schema.ts';

test('every request has its own relata/ method name, and its type carries it', () => {
  const methods = REQUESTS.map((request) => request.method);
  assert.equal(new Set(methods).size, methods.length);
  for (const request of REQUESTS) {
    assert.match(request.method, /^relata\/[a-zA-Z]+$/);
    assert.equal(request.type.method, request.method);
  }
  assert.deepEqual(
    [...methods].sort(),
    [
      'relata/ask', 'relata/chooseOriginal', 'relata/confirm', 'relata/fileStatus', 'relata/graph', 'relata/indexing', 'relata/item', 'relata/knowledgeTool', 'relata/parsedText', 'relata/reindexFile', 'relata/reject',
      'relata/related', 'relata/relatedItems', 'relata/relationship', 'relata/relationships', 'relata/scoringModel', 'relata/search', 'relata/status', 'relata/storeFolder',
    ],
  );
});

test('the status request and the status notification share relata/status, in opposite directions', () => {
  assert.equal(StatusRequest.type.method, 'relata/status');
  assert.equal(StatusNotification.type.method, 'relata/status');
});

test('valid params pass, including optional fields left out', () => {
  assert.deepEqual(problemsWith(SearchRequest.params, { query: 'gantry crane' }), []);
  assert.deepEqual(problemsWith(SearchRequest.params, { query: 'crane', folder: 'file:///w/demo', limit: 20, confirmedOnly: true }), []);
  assert.deepEqual(problemsWith(RelatedRequest.params, { uri: 'file:///w/a.md', position: { line: 0, character: 4 }, lineText: 'Example Ltd' }), []);
  assert.deepEqual(problemsWith(ConfirmRequest.params, { folder: 'file:///w', id: 'r1', note: 'checked the invoice' }), []);
  assert.deepEqual(problemsWith(StatusRequest.params, {}), []);
});

test('invalid params are refused with the field and what was expected', () => {
  assert.deepEqual(problemsWith(SearchRequest.params, {}), ['params.query must be a non-empty string, not undefined']);
  assert.deepEqual(problemsWith(SearchRequest.params, { query: '   ' }), ['params.query must not be empty']);
  assert.deepEqual(problemsWith(SearchRequest.params, { query: 'x', limit: 2.5 }), ['params.limit must be a whole number from 1 to 100, not number']);
  assert.deepEqual(problemsWith(SearchRequest.params, { query: 'x', confirmedOnly: 'yes' }), ['params.confirmedOnly must be true or false, not "yes"']);
  assert.deepEqual(problemsWith(RelationshipsRequest.params, { status: 'maybe' }), [
    'params.status must be one of "pending", "confirmed", "rejected", not "maybe"',
  ]);
  assert.deepEqual(problemsWith(RelationshipsRequest.params, { pageSize: 200, moreRows: [{ folder: 'file:///a', unit: 'pending:similar_to', rows: 400 }], filter: { types: ['similar_to'], statuses: null, minStrength: 0.4 } }), []);
  assert.deepEqual(problemsWith(RelationshipsRequest.params, { pageSize: 0, filter: { types: ['friend_of'], statuses: null, minStrength: 2 } }), [
    'params.pageSize must be a whole number from 1 to 100000, not number',
    'params.filter.types[0] must be one of "contradicts", "supports", "derived_from", "supersedes", "updates", "same_entity_as", "possibly_explains", "links_to", "similar_to", "mentions", "occurred_before", "occurred_after", not "friend_of"',
    'params.filter.minStrength must be a number from 0 to 1, not number',
  ]);
  assert.deepEqual(problemsWith(RelatedRequest.params, { uri: 'file:///a', position: { line: -1, character: 0 } }), [
    'params.position.line must be a whole number from 0 to 9007199254740991, not number',
  ]);
  assert.deepEqual(problemsWith(ItemRequest.params, null), ['params must be an object, not null']);
  assert.deepEqual(problemsWith(AskRequest.params, { question: 'Why?', model: 'x' }), ['params.model is not a known field (expected question, folder, askId)']);
  assert.deepEqual(problemsWith(AskRequest.params, { question: 'x'.repeat(2001) }), ['params.question must be at most 2000 characters']);
});

test('the graph request takes known relationship types and statuses, and a strength from 0 to 1', () => {
  assert.deepEqual(problemsWith(GraphRequest.params, { focus: 'file:///demo/a.md', depth: 2, types: ['contradicts'], statuses: ['pending', 'rejected'], minStrength: 0.4 }), []);
  assert.deepEqual(problemsWith(GraphRequest.params, {}), []);
  const problems = problemsWith(GraphRequest.params, { types: ['causes'], statuses: ['maybe'], minStrength: 1.5, depth: 0 });
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.ok(problems.some((problem) => problem.startsWith('params.types[0]')), problems.join('\n'));
  assert.ok(problems.some((problem) => problem.startsWith('params.minStrength')), problems.join('\n'));
});

test('the indexing commands accept index, pause or resume, and nothing else', () => {
  assert.deepEqual(problemsWith(IndexingRequest.params, { action: 'pause' }), []);
  assert.deepEqual(problemsWith(IndexingRequest.params, { action: 'index', folder: 'file:///w/demo' }), []);
  assert.equal(problemsWith(IndexingRequest.params, { action: 'delete' }).length, 1);
  assert.equal(problemsWith(ReindexFileRequest.params, {}).length, 1, 'a file to re-index is required');
  assert.deepEqual(problemsWith(StoreFolderRequest.params, {}), []);
});
