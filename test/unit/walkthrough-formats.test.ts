// The walkthrough and the README promise the formats Relata reads: every extension the parser
// registry knows is named in both, and neither names one it does not read.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SUPPORTED_EXTENSIONS } from '../../server/src/parse/registry.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const named = (text: string) => new Set([...text.matchAll(/`(\.[a-z0-9]+)`/g)].map((match) => match[1]!));

test('the walkthrough and the README name exactly the file types the parsers read', () => {
  // Up to the sentence naming the older formats it does not read (walkthrough.test.ts checks those).
  const walkthrough = readFileSync(path.join(REPO, 'media', 'walkthrough', 'what.md'), 'utf8').split('Older formats')[0]!;
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const formatsParagraph = readme.slice(readme.indexOf('What gets indexed'), readme.indexOf('Anything else, and anything larger'));
  for (const [name, text] of [['media/walkthrough/what.md', walkthrough], ['README.md', formatsParagraph]] as const) {
    assert.deepEqual(named(text), new Set(SUPPORTED_EXTENSIONS), `${name} names the formats read`);
  }
});
