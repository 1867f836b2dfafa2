import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findEmails } from '../../server/src/extract/entities/emails.ts';

function emails(text: string): [string, string][] {
  return findEmails(text).map((e) => [e.surface, e.key]);
}

test('addresses with dots, plus tags, hyphens and sub-domains; the key is lower case', () => {
  assert.deepEqual(emails('Write to Jane.Doe+orders@Mail.Example-Group.co.uk or ops_team@acme.io.'), [
    ['Jane.Doe+orders@Mail.Example-Group.co.uk', 'email:jane.doe+orders@mail.example-group.co.uk'],
    ['ops_team@acme.io', 'email:ops_team@acme.io'],
  ]);
});

test('offsets point at the address; surrounding punctuation is left out', () => {
  const text = 'Contact: <sales@acme.com>, (info@acme.com); "hr@acme.com".';
  for (const e of findEmails(text)) assert.equal(text.slice(e.start, e.end), e.surface);
  assert.deepEqual(emails(text).map(([s]) => s), ['sales@acme.com', 'info@acme.com', 'hr@acme.com']);
});

test('a local part never starts with a dot: a full stop before it is punctuation', () => {
  assert.deepEqual(emails('Write to the team.ops@acme.com'), [['team.ops@acme.com', 'email:team.ops@acme.com']]);
  assert.deepEqual(emails('End of sentence..ops@acme.com'), [['ops@acme.com', 'email:ops@acme.com']]);
});

test('not addresses', () => {
  assert.deepEqual(emails('a@b, user@localhost, @handle, x@y.1, name@@acme.com, dot.@acme.com'), []);
  assert.deepEqual(emails('meet @ 10:00 at the office; 3 @ $5.00'), []);
});
