// The one link resolver: each way a link resolves to a file of the folder, and each way it must
// not (an external URL, a path climbing out of the folder, a name two files share, a file that is
// not there). It matches against the store's list of items only, never the filesystem.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LinkIndex, type LinkableItem, type LinkResolution } from '../../server/src/discover/links/resolve.ts';

const paths = [
  'best-practices.md',
  'code-of-conduct.md',
  'guides/build.md',
  'guides/topic/index.md',
  'docs/setup/README.md',
  'ch03-02-data-types.md',
  'notes/API.md',
  'archive/api.md',
  'team/meeting.md',
  'projects/meeting.md',
  'report.pdf',
  'etc/passwd',
];
const items: LinkableItem[] = paths.map((path, i) => ({ id: `id${i}`, path, title: path === 'guides/build.md' ? 'The Build Guide' : null }));
const idOf = (path: string) => items.find((item) => item.path === path)!.id;
const index = new LinkIndex(items, new Map([['coc', [idOf('code-of-conduct.md')]], ['docs/topic-permalink', [idOf('guides/topic/index.md')]]]));

const target = (resolution: LinkResolution): string => (resolution.status === 'resolved' ? resolution.path : resolution.status);

test('relative paths resolve from the linking file: with .md, .html, no extension, a trailing slash, an index file', () => {
  assert.equal(target(index.resolve('build.md', 'guides/other.md', 'inline')), 'guides/build.md');
  assert.equal(target(index.resolve('../ch03-02-data-types.html#the-tuple-type', 'guides/x.md', 'reference')), 'ch03-02-data-types.md');
  assert.equal(target(index.resolve('./build', 'guides/x.md', 'inline')), 'guides/build.md');
  assert.equal(target(index.resolve('topic/', 'guides/x.md', 'inline')), 'guides/topic/index.md');
  assert.equal(target(index.resolve('topic/index.md', 'guides/x.md', 'inline')), 'guides/topic/index.md');
  assert.equal(target(index.resolve('../docs/setup/', 'guides/x.md', 'inline')), 'docs/setup/README.md');
  assert.equal(target(index.resolve('../report.pdf', 'guides/x.md', 'html')), 'report.pdf');
  assert.equal(target(index.resolve('build%2Emd', 'guides/x.md', 'inline')), 'guides/build.md');
});

test('a pretty URL written for the published site (`../b/` from the page a.md served at a/) resolves', () => {
  assert.equal(target(index.resolve('../best-practices/#learning-to-say-no', 'code-of-conduct.md', 'inline')), 'best-practices.md');
});

test('site-absolute paths resolve by a permalink, the path from the root, or their trailing segments', () => {
  assert.equal(target(index.resolve('/docs/topic-permalink/', 'a.md', 'inline')), 'guides/topic/index.md');
  assert.equal(target(index.resolve('/guides/build/', 'a.md', 'inline')), 'guides/build.md');
  assert.equal(target(index.resolve('/site/en/guides/build.html', 'a.md', 'inline')), 'guides/build.md');
});

test('wiki names resolve by the shortest unique path suffix, then a front-matter name, then a title', () => {
  assert.equal(target(index.resolve('build', 'a.md', 'wiki')), 'guides/build.md');
  assert.equal(target(index.resolve('team/meeting', 'a.md', 'wiki')), 'team/meeting.md');
  assert.equal(target(index.resolve('best-practices#Section', 'a.md', 'wiki')), 'best-practices.md');
  assert.equal(target(index.resolve('coc', 'a.md', 'front_matter')), 'code-of-conduct.md');
  assert.equal(target(index.resolve('The Build Guide', 'a.md', 'wiki')), 'guides/build.md');
  assert.equal(target(index.resolve('best-practices', 'a.md', 'front_matter')), 'best-practices.md');
});

test('a name two files share is ambiguous and names both; exact case narrows the tie', () => {
  assert.deepEqual(index.resolve('meeting', 'a.md', 'wiki'), { status: 'ambiguous', candidates: ['projects/meeting.md', 'team/meeting.md'] });
  assert.equal(target(index.resolve('API', 'a.md', 'wiki')), 'notes/API.md');
  assert.equal(target(index.resolve('api', 'a.md', 'wiki')), 'archive/api.md');
});

test('external URLs are not files', () => {
  for (const url of ['https://example.com/guides/build.md', 'mailto:a@example.com', 'file:///etc/passwd', '//cdn.example.com/build.md', 'HTTP://X']) {
    assert.equal(index.resolve(url, 'a.md', 'inline').status, 'external', url);
  }
});

test('a path climbing out of the folder resolves to nothing, even when a file of that name is inside', () => {
  assert.equal(index.resolve('../../etc/passwd', 'a.md', 'inline').status, 'outside_folder');
  assert.equal(index.resolve('../../../../etc/passwd', 'guides/x.md', 'inline').status, 'outside_folder');
  assert.equal(index.resolve('/../../etc/passwd', 'a.md', 'inline').status, 'outside_folder');
  assert.equal(index.resolve('..%2F..%2Fetc%2Fpasswd', 'a.md', 'inline').status, 'outside_folder');
});

test('a file that is not in the folder is missing; an anchor or a link to itself is the same document', () => {
  assert.equal(index.resolve('nowhere.md', 'a.md', 'inline').status, 'missing');
  assert.equal(index.resolve('Nowhere', 'a.md', 'wiki').status, 'missing');
  assert.equal(index.resolve('#section', 'a.md', 'inline').status, 'same_document');
  assert.equal(index.resolve('build.md#x', 'guides/build.md', 'inline').status, 'same_document');
});
