// The schemas know a field only by the shape's own keys, and read a value only from the value's
// own keys: names every object inherits (`constructor`, `toString`, `__proto__`) are unknown
// fields like any other, and nothing on Object.prototype can stand in for a missing field.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AskRequest, StatusRequest } from '../../shared/protocol.ts';
import { object, problemsWith, string } from '../../shared/schema.ts';
import { parseViewMessage } from '../../shared/webviewMessages.ts';

test('inherited names sent as fields are refused as unknown fields', () => {
  for (const json of ['{"constructor": 1}', '{"toString": "x"}', '{"hasOwnProperty": true}', '{"__proto__": {"question": "x"}}']) {
    const params = JSON.parse(json);
    const field = Object.keys(params)[0];
    assert.deepEqual(problemsWith(StatusRequest.params, params), [`params.${field} is not a known field (expected none)`], json);
  }
  const ask = JSON.parse('{"question": "Why?", "__proto__": {"folder": "file:///etc"}}');
  assert.deepEqual(problemsWith(AskRequest.params, ask), ['params.__proto__ is not a known field (expected question, folder, askId)']);
});

test('a required field is never satisfied by what the value inherits', () => {
  const schema = object({ toString: string({ minLength: 1 }) });
  assert.deepEqual(problemsWith(schema, {}), ['params.toString must be a non-empty string, not undefined']);
  const inherited = Object.create({ toString: 'from the prototype' });
  assert.deepEqual(problemsWith(schema, inherited), ['params.toString must be a non-empty string, not undefined']);
  assert.deepEqual(problemsWith(schema, { toString: 'own' }), []);
});

test('webview messages with an inherited name as a field are refused too', () => {
  const parsed = parseViewMessage(JSON.parse('{"kind": "ready", "__proto__": {"kind": "ask"}}'));
  assert.deepEqual(parsed, { problems: ['message.__proto__ is not a known field (expected kind)'] });
});
