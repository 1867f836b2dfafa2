// Past the system's limit on inotify watches every further watch fails with ENOSPC: in a folder of
// 100,000 files, tens of thousands of errors. The log gets one line saying what to do; other errors
// are reported as they come.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { watchErrorReporter } from '../../server/src/workspace/watchErrors.ts';

const limitReached = (file: string) =>
  Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${file}'`), { code: 'ENOSPC' });

test('the first watch past the system limit is reported with the fix, the next ones not at all; other errors each time', () => {
  const report = watchErrorReporter();
  const first = report(limitReached('/notes/a.md'));
  assert.match(first ?? '', /^ENOSPC: .*'\/notes\/a\.md': the system's limit on file watches \(fs\.inotify\.max_user_watches\) is reached/);
  assert.match(first ?? '', /sysctl fs\.inotify\.max_user_watches=/);
  for (let n = 0; n < 1000; n += 1) assert.equal(report(limitReached(`/notes/${n}.md`)), null);
  assert.equal(report(new Error('EACCES: permission denied, watch /notes/private')), 'EACCES: permission denied, watch /notes/private');
  assert.equal(report(new Error('EACCES: permission denied, watch /notes/other')), 'EACCES: permission denied, watch /notes/other');
  assert.notEqual(watchErrorReporter()(limitReached('/other/b.md')), null, 'each watch reports its own first');
});

test("@parcel/watcher's error at the limit, which has no code, is reported the same way", () => {
  const report = watchErrorReporter();
  const parcelLimit = (folder: string) => new Error(`inotify_add_watch on '${folder}' failed: No space left on device`);
  assert.match(report(parcelLimit('/notes/a')) ?? '', /failed: No space left on device: the system's limit on file watches \(fs\.inotify\.max_user_watches\) is reached/);
  assert.equal(report(parcelLimit('/notes/b')), null);
});
