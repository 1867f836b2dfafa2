// Links the authors wrote become relationships, end to end on a real folder and a real SQLite
// store: guides shaped like the Open Source Guides (pretty links such as `../legal/`, front matter
// `related:` naming a page by its file name or by the `class` it gives itself) are related
// `links_to`, read from the linking file; a link in code, to the web, out of the folder or to a
// name two files share makes nothing and is reported; a file that arrives after the file linking
// to it is related on the next run; and a store from before links (markdown@3, relationship-score-v1,
// a person's confirmation) moves to v2 with the decision kept.

import assert from 'node:assert/strict';
import path from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { itemDetail } from '../../server/src/engine/itemViews.ts';
import { decide } from '../../server/src/engine/relationships.ts';
import { DATABASE_FILE } from '../../server/src/store/dataDir.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { makeXlsx } from '../support/zipBuilders.ts';

const guide = (frontMatter: string, body: string): string => `---\n${frontMatter}\n---\n\n${body}\n`;

const GUIDES = {
  'starting-a-project.md': guide(
    'title: Starting an Open Source Project\nclass: beginners\nrelated:\n  - legal\n  - coc',
    '## Choosing a license\n\nIf you are part of a company, [the legal team can help](../legal/).\n\nRead about the [code of conduct](../code-of-conduct/#enforcing).\n\n' +
      'Not links: `[x](../metrics/)` in code, [GitHub](https://github.com), [secrets](../../etc/passwd).\n',
  ),
  'legal.md': guide('title: The Legal Side of Open Source\nclass: legal', '## Licenses\n\nPick a license before you [start](../starting-a-project/).\n\nSee [[notes]] too.'),
  'code-of-conduct.md': guide('title: Your Code of Conduct\nclass: coc', '## Enforcing\n\nA code of conduct sets the ground rules.'),
  'metrics.md': guide('title: Open Source Metrics', '## Measuring\n\nCount your contributors, not your stars.'),
  'team/notes.md': '# Team notes\n\nMeeting notes of the team.\n',
  'project/notes.md': '# Project notes\n\nNotes about the project.\n',
};

async function between(store: WorkspaceStore, a: string, b: string) {
  const [itemA, itemB] = [await store.getItemByPath(a), await store.getItemByPath(b)];
  return store.relationshipBetween(itemA!.id, itemB!.id);
}

test('guides that link to each other are related links_to, read from the linking file; what is not a link makes nothing', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-links-');
  const folder = writeFiles(path.join(root, 'folder'), GUIDES);
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'links', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const { store } = index;

  const legal = await between(store, 'starting-a-project.md', 'legal.md');
  assert.ok(legal, 'a link alone is stored');
  assert.equal(legal.type, 'links_to');
  assert.equal(legal.scoreVersion, 'relationship-score-v2');
  const links = legal.signals.filter((signal) => signal.type === 'document_link').map((signal) => signal.value);
  assert.ok(links.includes('starting-a-project.md links to legal.md at line 11: [the legal team can help](../legal/)'), links.join('\n'));
  assert.ok(links.includes('starting-a-project.md links to legal.md at line 1: related: legal'), 'the front matter names it by its file name');
  assert.ok(links.includes('legal.md links to starting-a-project.md at line 8: [start](../starting-a-project/)'), 'links both ways are both evidence');

  const coc = await between(store, 'starting-a-project.md', 'code-of-conduct.md');
  assert.ok(coc, 'related: coc names the page whose class is coc');
  assert.equal(coc.type, 'links_to');
  const cocItem = await store.getItemByPath('code-of-conduct.md');
  assert.notEqual(coc.fromItemId, cocItem!.id, 'read from the linking file, whichever end was discovered first');

  assert.equal(await between(store, 'starting-a-project.md', 'metrics.md'), null, 'a link written in a code span is not a link');

  const detail = await itemDetail(store, (await store.getItemByPath('starting-a-project.md'))!);
  assert.equal(detail.links!.external, 1);
  assert.deepEqual(
    detail.links!.broken.map((link) => [link.target, link.reason]),
    [['../../etc/passwd', 'outside the folder']],
  );
  assert.ok(
    detail.metadata.filter((entry) => entry.label === 'related').every((entry) => entry.compared),
    'the hover no longer says a related: list is not used to relate files',
  );
  const legalDetail = await itemDetail(store, (await store.getItemByPath('legal.md'))!);
  assert.deepEqual(
    legalDetail.links!.broken.map((link) => [link.as_written, link.reason]),
    [['[[notes]]', 'names several files: project/notes.md, team/notes.md']],
    'a name two files share is ambiguous: neither is chosen, both are named',
  );
});

test('an RTF hyperlink field and an e-mail body link relate their files links_to, placed at their paragraph; a spreadsheet row is its sheet and row', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-links-formats-');
  const folder = writeFiles(path.join(root, 'folder'), {
    'minutes.rtf':
      '{\\rtf1\\ansi Minutes of the refit meeting.\\par The figures are in {\\field{\\*\\fldinst { HYPERLINK "costs.xlsx" }}{\\fldrslt the cost sheet}}.\\par}',
    'follow-up.eml':
      'From: Carla Mendes <carla@example.com>\r\nSubject: Refit follow-up\r\nContent-Type: text/html\r\n\r\n' +
      '<p>Hello,</p><p>As agreed, see <a href="minutes.rtf">the minutes</a> of the refit meeting.</p>',
    'costs.xlsx': await makeXlsx([{ name: 'Costs', rows: [['Supplier', 'Cost'], ['Harbourline Engineering Ltd', 42000]] }]),
  });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'links', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const { store } = index;

  const sheet = await between(store, 'minutes.rtf', 'costs.xlsx');
  assert.equal(sheet?.type, 'links_to');
  const rtfLinks = sheet!.signals.filter((signal) => signal.type === 'document_link').map((signal) => signal.value);
  assert.deepEqual(rtfLinks, ['minutes.rtf links to costs.xlsx at paragraph 2: [the cost sheet](costs.xlsx)']);

  const mail = await between(store, 'follow-up.eml', 'minutes.rtf');
  assert.equal(mail?.type, 'links_to');
  const mailLinks = mail!.signals.filter((signal) => signal.type === 'document_link').map((signal) => signal.value);
  assert.deepEqual(mailLinks, ['follow-up.eml links to minutes.rtf at paragraph 4: [the minutes](minutes.rtf)']);

  const costs = await itemDetail(store, (await store.getItemByPath('costs.xlsx'))!);
  assert.deepEqual(costs.chunks.map((chunk) => chunk.location), [{ kind: 'rows', sheet: 'Costs', start: 1, end: 2 }], 'stored and read back with its sheet');
});

test('a link to a file that arrives later is resolved on the next run', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-links-late-');
  const folder = writeFiles(path.join(root, 'folder'), { 'a.md': '# A\n\nSee [the build guide](build.md).\n', 'c.md': '# C\n\nUnrelated.\n' });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'late', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  const before = await itemDetail(index.store, (await index.store.getItemByPath('a.md'))!);
  assert.equal(before.links!.broken.length, 1, 'build.md is not in the folder yet');

  writeFileSync(path.join(folder, 'build.md'), '# Build guide\n\nHow to build.\n');
  await index.index();
  const relationship = await between(index.store, 'a.md', 'build.md');
  assert.ok(relationship, 'a.md is discovered again once build.md arrives');
  assert.equal(relationship.type, 'links_to');

  rmSync(path.join(folder, 'build.md'));
  writeFileSync(path.join(folder, 'renamed.md'), '# Renamed\n\nNothing links here.\n');
  await index.index();
  const after = await itemDetail(index.store, (await index.store.getItemByPath('a.md'))!);
  assert.equal(after.links!.broken.length, 1, 'the link is broken again once its target is gone');
});

test('a store from before links (markdown@3, relationship-score-v1) moves to v2 and keeps a person\u2019s decision', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-links-v1-');
  const folder = writeFiles(path.join(root, 'folder'), {
    'handover.md': '# Handover\n\nThe night shift walked the crane; see the [inspection](inspection.md).\n',
    'inspection.md': '# Inspection\n\nMs. Carla Mendes inspected the rails for Example Logistics Ltd.\n',
    'memo.md': '# Memo\n\nMs. Carla Mendes approved the budget of Example Logistics Ltd.\n',
  });
  const dataDir = path.join(root, 'data');
  let index = await FolderIndex.open({ folder, dataDir, workspace: 'old', embedding: { kind: 'none' } });
  await index.index();
  const confirmed = await between(index.store, 'inspection.md', 'memo.md');
  assert.ok(confirmed, 'the two notes naming the same people are related');
  await decide(index.store, confirmed.id, { status: 'confirmed', by: 'tester' });
  await index.close();

  // The store as the previous release left it: documents parsed without links, every relationship
  // scored v1 without link evidence, discovery recorded under the previous rules.
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  db.exec(`UPDATE items SET parser_version = 'markdown@3' WHERE parser_version = 'markdown@5';
    UPDATE item_texts SET parser_version = 'markdown@3', document = json_remove(document, '$.links');
    UPDATE item_discoveries SET basis = replace(basis, 'discover@3', 'discover@2');`);
  for (const row of db.prepare('SELECT id, signals FROM relationships').all() as { id: string; signals: string }[]) {
    const signals = (JSON.parse(row.signals) as { type: string }[]).filter((signal) => signal.type !== 'document_link');
    db.prepare("UPDATE relationships SET score_version = 'relationship-score-v1', type = CASE type WHEN 'links_to' THEN 'mentions' ELSE type END, signals = ? WHERE id = ?").run(JSON.stringify(signals), row.id);
  }
  db.close();

  index = await FolderIndex.open({ folder, dataDir, workspace: 'old', embedding: { kind: 'none' } });
  t.after(() => index.close());
  await index.index();
  await index.reprocess(null);
  const kept = await index.store.getRelationship(confirmed.id);
  assert.equal(kept!.status, 'confirmed', 'the decision is kept: its type and evidence did not change');
  assert.equal(kept!.decidedBy, 'tester');
  assert.equal(kept!.scoreVersion, 'relationship-score-v2');
  const linked = await between(index.store, 'handover.md', 'inspection.md');
  assert.equal(linked!.scoreVersion, 'relationship-score-v2');
  assert.equal(linked!.type, 'links_to', 'the reparsed document gives its link');
  assert.ok(linked!.signals.some((signal) => signal.type === 'document_link'));
  for (const relationship of await index.store.listRelationships()) assert.equal(relationship.scoreVersion, 'relationship-score-v2');
});

test('RTF and e-mail links that leave the folder are never followed: the files they name are not read, related or searched', { timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t, 'relata-links-escape-');
  // Beside the folder, holding a word nothing inside it has.
  writeFileSync(path.join(root, 'secret.md'), '# Secret\n\nThe zanzibarite ledger is outside the folder.\n');
  const outside = path.join(root, 'secret.md');
  const targets = ['../secret.md', '../../secret.md', outside, `file://${outside}`, `file:///${outside.replace(/^\//, '')}`, '\\\\server\\share\\secret.md', 'C:\\secret.md'];
  const rtfFields = targets.map((target) => `{\\field{\\*\\fldinst { HYPERLINK "${target.replace(/\\/g, '\\\\\\\\')}" }}{\\fldrslt the ledger}}\\par `).join('');
  const folder = writeFiles(path.join(root, 'folder'), {
    'minutes.rtf': `{\\rtf1\\ansi Minutes of the ledger review.\\par ${rtfFields}}`,
    'ledger.eml':
      'From: Carla Mendes <carla@example.com>\r\nSubject: The ledger\r\nContent-Type: text/html\r\n\r\n' +
      `<p>The ledger review.</p>${targets.map((target) => `<p>See <a href="${target}">the ledger</a>.</p>`).join('')}`,
    'plain.eml': `From: Carla Mendes <carla@example.com>\r\nSubject: Ledger again\r\nContent-Type: text/plain\r\n\r\nThe ledger is at file://${outside} and at https://example.com/ledger.\r\n`,
    'notes.md': '# Notes\n\nThe ledger review is on Friday.\n',
  });
  const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'links-escape', embedding: { kind: 'none' } });
  t.after(() => index.close());
  const report = await index.index();
  const { store } = index;
  assert.deepEqual(report.files.map((file) => [file.path, file.status]).sort(), [['ledger.eml', 'indexed'], ['minutes.rtf', 'indexed'], ['notes.md', 'indexed'], ['plain.eml', 'indexed']]);

  for (const file of ['minutes.rtf', 'ledger.eml', 'plain.eml']) {
    const detail = await itemDetail(store, (await store.getItemByPath(file))!);
    assert.equal(detail.links!.to_files.length, 0, `${file} reaches no file of the folder`);
    assert.ok(detail.links!.broken.length + detail.links!.external >= 1, `${file}'s links are reported, not followed`);
    for (const broken of detail.links!.broken) assert.match(broken.reason, /outside the folder|not in the folder/, `${file}: ${broken.target}`);
  }
  const relationships = await store.listRelationships({});
  assert.ok(relationships.every((relationship) => !relationship.signals.some((signal) => signal.type === 'document_link')), 'no link made a relationship');
  assert.equal((await store.listItems()).some((item) => item.path.includes('secret')), false, 'the file outside is no item');
  assert.equal((await store.searchChunksLexical('zanzibarite', 10)).length, 0, 'and none of its words was read');
});
