// A path read from a store or an export (never from a scan of the folder) is accepted only as a
// relative path inside the folder: the ways out are `..` under either separator, an absolute or
// drive path, and a NUL, and a name that merely begins with dots is not one of them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storedPathProblem } from '../../server/src/workspace/storedPath.ts';

test('relative paths inside the folder pass, however odd their names', () => {
  for (const inside of ['a.md', 'dock/handover.md', '..notes.md', 'a/..b/c..', '...', 'back\\slash.md', 'notes/ü €.txt']) assert.equal(storedPathProblem(inside), null, inside);
});

test('every way out of the folder is named', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['..', /leaves the folder/],
    ['../x.md', /leaves the folder/],
    ['a/../../x.md', /leaves the folder/],
    ['a/b/..', /leaves the folder/],
    ['a\\..\\..\\x.md', /leaves the folder/],
    ['/etc/passwd', /absolute/],
    ['\\\\server\\share\\x', /absolute/],
    ['C:\\Windows\\win.ini', /absolute/],
    ['C:x.md', /absolute/],
    ['a\u0000b', /NUL/],
  ];
  for (const [given, reason] of cases) assert.match(storedPathProblem(given) ?? 'accepted', reason, JSON.stringify(given));
});
