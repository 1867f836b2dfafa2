// The relationships evaluation's ground truth: the links authors wrote between a folder's
// Markdown files, read from the raw text independently of the product.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairKey, readAuthorLinks, targetName } from '../support/authorLinks.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

test('inline links, reference definitions and HTML anchors resolve to files by their name, an index page by its folder', (t) => {
  const folder = writeFiles(tempDir(t), {
    'ch01.md': 'See [strings][ch08] and [the guide](../guide/).\n\n[ch08]: ch08-02-strings.html#utf-8\n',
    'ch08-02-strings.md': '# Strings\n\n<a href="ch01.md">back</a>\n',
    'guide/index.md': '# Guide\n',
  });
  const { links, pairs } = readAuthorLinks(folder);
  assert.deepEqual(
    links.map((link) => `${link.from} -> ${link.to} (${link.kind})`).sort(),
    ['ch01.md -> ch08-02-strings.md (definition)', 'ch01.md -> guide/index.md (inline)', 'ch08-02-strings.md -> ch01.md (html)'],
  );
  assert.deepEqual([...pairs.keys()].sort(), [pairKey('ch01.md', 'ch08-02-strings.md'), pairKey('ch01.md', 'guide/index.md')].sort());
});

test('front-matter related lists resolve by file name or by a class value', (t) => {
  const folder = writeFiles(tempDir(t), {
    'code-of-conduct.md': '---\nclass: coc\nrelated:\n  - leadership\n---\nText.\n',
    'leadership-and-governance.md': '---\nclass: leadership\nrelated: [coc, code-of-conduct]\n---\nText.\n',
  });
  const { pairs, links } = readAuthorLinks(folder);
  assert.equal(links.length, 3);
  assert.deepEqual([...pairs.keys()], [pairKey('code-of-conduct.md', 'leadership-and-governance.md')]);
});

test('links in code, external URLs, same-file anchors and names two files share resolve to nothing', (t) => {
  const folder = writeFiles(tempDir(t), {
    'a.md': '`[b](b.md)`\n\n```\n[b](b.md)\n```\n\n[site](https://example.com/b.md) [top](#a) <https://example.com/b>\n\n[dup](notes.md)\n',
    'b.md': 'B.\n',
    'x/notes.md': 'one\n',
    'y/notes.md': 'two\n',
  });
  const { links, unresolved } = readAuthorLinks(folder);
  assert.deepEqual(links, []);
  assert.deepEqual(unresolved.map((entry) => entry.target), ['notes.md'], 'the shared name is reported as unresolved');
});

test('a target is named by its last segment, without extension or index page', () => {
  assert.equal(targetName('../code-of-conduct/#enforcing'), 'code-of-conduct');
  assert.equal(targetName('ch08-02-strings.html'), 'ch08-02-strings');
  assert.equal(targetName('/docs/topic/index.html'), 'topic');
  assert.equal(targetName('mailto:someone@example.com'), null);
  assert.equal(targetName('#heading'), null);
});
