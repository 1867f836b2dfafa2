// A name that is not valid UTF-8 is shown to people with its valid text as text and every other
// byte as \xNN, so they can find the file; a valid name is shown unchanged.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapedName } from '../../server/src/workspace/scan.ts';

test('escapedName keeps valid UTF-8 as text and escapes each byte that is not part of it', () => {
  assert.equal(escapedName(Buffer.from('café-東京.md')), 'café-東京.md');
  assert.equal(escapedName(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6d, 0x64])), 'caf\\xE9.md', 'a Latin-1 é');
  assert.equal(escapedName(Buffer.from([0x80, 0x61])), '\\x80a', 'a lone continuation byte');
  assert.equal(escapedName(Buffer.from([0xc0, 0xaf])), '\\xC0\\xAF', 'an overlong slash is not a slash');
  assert.equal(escapedName(Buffer.from([0xed, 0xa0, 0x80])), '\\xED\\xA0\\x80', 'an encoded surrogate');
  assert.equal(escapedName(Buffer.from([0xe6, 0x9d])), '\\xE6\\x9D', 'a sequence cut short');
});
