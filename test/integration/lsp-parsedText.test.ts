// `relata/parsedText` through the real, built language server and its SQLite store: a slide
// deck's and a workbook's passages as stored (the real PPTX and XLSX of documents-more, and a
// workbook built here), laid out as the editor's parsed-text view shows them, with a search
// result's passage found at its lines; a copy shows its original's text; a file that is no item,
// or outside the folder, answers null.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ParsedTextRequest, SearchRequest } from '../../shared/protocol.ts';
import { layOutParsedText, passageAt } from '../../shared/parsedTextView.ts';
import type { Location } from '../../shared/types.ts';
import { needsBuild, startServer, type RunningServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { makeXlsx } from '../support/zipBuilders.ts';
import { DOCUMENTS_MORE_DIR } from '../unit/parse-eval.ts';

const REAL_FILES = [
  { from: 'pptx/testPPT.pptx', to: 'office/testPPT.pptx', query: 'Attachment Test Rajiv', label: /^── slides? \d+(-\d+)? · /m, words: 'Rajiv' },
  { from: 'xlsx/testEXCEL.xlsx', to: 'office/testEXCEL.xlsx', query: 'Sample Excel Worksheet Numbers and their Squares', label: /^── Feuil1, rows? \d+(-\d+)? ──$/m, words: 'Squares' },
];

async function searchHit(server: RunningServer, query: string, file: string): Promise<Location> {
  const [answer] = (await server.connection.sendRequest(SearchRequest.type, { query, limit: 10 })).folders;
  const hit = answer?.response?.results.find((result) => result.path === file);
  assert.ok(hit?.passage, `${file} is found by "${query}" with a passage`);
  return hit.passage.location;
}

test('the parsed text of a slide deck and a workbook is their stored passages in order, and a search result\'s passage is found in it', { skip: needsBuild, timeout: 300_000 }, async (t) => {
  const root = tempDir(t);
  const rows: (string | number)[][] = [['Supplier', 'Cost']];
  for (let row = 1; row <= 400; row++) rows.push([row === 250 ? 'Harbourline Engineering Ltd' : `Supplier number ${row} of the crane works`, row * 100]);
  const folder = writeFiles(path.join(root, 'folder'), {
    'notes.md': '# Notes\n\nThe kestrel survey starts at dawn.\n',
    'costs.xlsx': await makeXlsx([{ name: 'Costs', rows }, { name: 'Summary', rows: [['Total', 4_010_000]] }], 'Crane costs'),
  });
  mkdirSync(path.join(folder, 'copies'));
  copyFileSync(path.join(folder, 'costs.xlsx'), path.join(folder, 'copies', 'costs.xlsx'));
  const real = REAL_FILES.filter(({ from }) => existsSync(path.join(DOCUMENTS_MORE_DIR, from)));
  for (const { from, to } of real) {
    mkdirSync(path.dirname(path.join(folder, to)), { recursive: true });
    copyFileSync(path.join(DOCUMENTS_MORE_DIR, from), path.join(folder, to));
  }
  const server = await startServer(t, {
    folder,
    workspace: 'lsp-parsed-text',
    unsetEnv: ['RELATA_LLM_MODEL', 'RELATA_LLM_ENDPOINT'],
    settings: { dataLocation: path.join(root, 'data'), embeddingModel: 'none' },
  });
  await server.watching(240_000);
  const ask = (relative: string) => server.connection.sendRequest(ParsedTextRequest.type, { uri: pathToFileURL(path.join(folder, relative)).href });

  // The workbook built here: one passage per run of rows, sheet by sheet, each under "Sheet, rows a-b".
  const costs = await ask('costs.xlsx');
  assert.ok(costs, 'the workbook is an item');
  assert.equal(costs.folder, server.folderUri);
  const { view } = costs;
  assert.equal(view.status, 'indexed');
  assert.equal(view.title, 'Crane costs');
  assert.match(view.parserVersion ?? '', /^xlsx@/);
  assert.ok(view.passages.length >= 2, `the 400 rows are several passages (${view.passages.length})`);
  assert.ok(view.passages.every((passage) => passage.location.kind === 'rows'));
  assert.deepEqual([...new Set(view.passages.map((passage) => passage.location.sheet))], ['Costs', 'Summary'], 'sheets in the workbook\'s order');
  const costRows = view.passages.filter((passage) => passage.location.sheet === 'Costs').map((passage) => passage.location);
  costRows.slice(1).forEach((location, at) => assert.ok(location.start > costRows[at]!.end, 'rows in order, none twice'));
  const layout = layOutParsedText(view);
  const lines = layout.text.split('\n');
  assert.match(lines[0]!, /^Parsed text of costs\.xlsx \("Crane costs"\), as Relata stored it/);
  assert.match(layout.text, /^── Costs, rows 1-\d+ ──$/m);
  assert.match(layout.text, /^── Summary, rows? 1(-\d+)? ──$/m);

  // A search result's passage, found at its lines of the view: the row it matched is among them.
  const hit = await searchHit(server, 'Harbourline', 'costs.xlsx');
  const passage = passageAt(layout, hit, (line) => lines[line] ?? '', ['harbourline']);
  assert.ok(passage, 'the result\'s location names a passage of the view');
  assert.match(lines[passage.labelLine]!, /^── Costs, rows \d+-\d+ ──$/);
  assert.match(lines.slice(passage.startLine, passage.endLine + 1).join('\n'), /Supplier Harbourline Engineering Ltd; Cost 25000/);

  // A byte-identical copy shows its original's text, and says so.
  const copy = await ask('copies/costs.xlsx');
  assert.equal(copy?.view.path, 'copies/costs.xlsx');
  assert.equal(copy?.view.originalPath, 'costs.xlsx');
  assert.deepEqual(copy?.view.passages, view.passages);
  assert.match(layOutParsedText(copy!.view).text, /copies\/costs\.xlsx is byte-identical to costs\.xlsx/);

  // The real deck and workbook of documents-more, where this machine has them.
  for (const { to, query, label, words } of real) {
    const answer = await ask(to);
    assert.ok(answer, `${to} is an item`);
    const laidOut = layOutParsedText(answer.view);
    const text = laidOut.text.split('\n');
    assert.match(laidOut.text, label, `${to}: each passage under its location as the file counts it`);
    const location = await searchHit(server, query, to);
    const found = passageAt(laidOut, location, (line) => text[line] ?? '', [words.toLowerCase()]);
    assert.ok(found, `${to}: the result's passage is in the view`);
    assert.ok(text.slice(found.startLine, found.endLine + 1).join('\n').includes(words), `${to}: the passage's lines hold "${words}"`);
  }

  // No item, no text: a file of the folder Relata does not read, and files outside the folder.
  writeFileSync(path.join(folder, 'data.bin'), Buffer.from([0, 1, 2]));
  assert.equal(await ask('data.bin'), null);
  assert.equal(await server.connection.sendRequest(ParsedTextRequest.type, { uri: pathToFileURL(path.join(root, 'elsewhere.xlsx')).href }), null);
  writeFiles(path.join(root, 'other'), { 'costs.xlsx': 'not a workbook' });
  assert.equal(await server.connection.sendRequest(ParsedTextRequest.type, { uri: `${server.folderUri}/../other/costs.xlsx` }), null, 'a path climbing out of the folder');
  await assert.rejects(server.connection.sendRequest(ParsedTextRequest.type, { uri: 'https://example.com/costs.xlsx' }), /only file: URIs/);
});
