// The first-run walkthrough promises only what Relata does: every format it says Relata reads is
// one a parser reads, every format it says Relata does not read is not; the model step names the
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

test('every format the walkthrough says Relata reads is read by a parser, and those it says are not read are not', () => {
  const what = read('media/walkthrough/what.md');
  const [reads, notRead] = what.split('are not read');
  const promised = extensions(reads!.split('Older formats')[0]!);
  assert.ok(promised.length >= 10, promised.join(' '));
  for (const extension of promised) assert.ok(SUPPORTED_EXTENSIONS.includes(extension), `${extension} is promised but no parser reads it`);
  const refused = extensions(reads!.split('Older formats')[1] ?? '');
  assert.ok(refused.length > 0 && notRead !== undefined);
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
