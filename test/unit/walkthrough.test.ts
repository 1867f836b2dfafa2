// The first-run walkthrough promises only what Relata does: every format it says Relata does not
// read is read by no parser (walkthrough-formats.test.ts checks the ones it reads); the model step names the
// editor's model first, as Ask uses it by default; the walkthrough id opened on first start is the
// one package.json declares.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SUPPORTED_EXTENSIONS } from '../../server/src/parse/registry.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const extensions = (text: string) => [...text.matchAll(/`(\.[a-z0-9]+)`/g)].map((match) => match[1]!);

test('the formats the walkthrough says Relata does not read are read by no parser (walkthrough-formats.test.ts checks those it reads)', () => {
  const what = read('media/walkthrough/what.md');
  const refused = extensions(what.split('Older formats')[1]?.split('are not read')[0] ?? '');
  assert.ok(refused.length > 0, 'the walkthrough names formats it does not read');
  for (const extension of refused) assert.ok(!SUPPORTED_EXTENSIONS.includes(extension), `${extension} is said not to be read, but is`);
});

test('the model step names the editor\u2019s model first', () => {
  const model = read('media/walkthrough/model.md');
  const editor = model.indexOf("the editor's own language model");
  assert.ok(editor > 0 && editor < model.indexOf('llmModelPath') && editor < model.indexOf('llmEndpoint'));
  const manifest = JSON.parse(read('package.json'));
  const step = manifest.contributes.walkthroughs[0].steps.find((candidate: { id: string }) => candidate.id === 'configureModel');
  assert.match(step.description, /^Ask uses the editor's language model/);
});

test('the walkthrough opened on first start is the one package.json declares', () => {
  const manifest = JSON.parse(read('package.json'));
  const source = read('client/src/firstRun.ts');
  const id = `${manifest.publisher}.${manifest.name}#${manifest.contributes.walkthroughs[0].id}`;
  assert.ok(source.includes(`'${id}'`), id);
});
