// The fast USE-lite tokenizer must give exactly the package's token ids: the model was run (and
// vectors stored) with the package's, so any difference would silently change vectors.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import { loadVocabulary } from '../../server/src/embed/useLite/modelFiles.ts';
import { collapseWhitespace, UseLiteTokenizer, type Vocabulary } from '../../server/src/embed/useLite/tokenizer.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import { loadAbstracts, loadClaims, scifactAvailable } from '../support/scifact.ts';

interface PackageTokenizer {
  encode(text: string): number[];
}

/** The package's own tokenizer; only reachable through the model class it builds it in. */
function packageTokenizer(vocabulary: Vocabulary): PackageTokenizer {
  const { EmbeddingsModel } = createRequire(import.meta.url)('@energetic-ai/embeddings') as {
    EmbeddingsModel: new (data: { vocabulary: Vocabulary; model: null }) => { tokenizer: PackageTokenizer };
  };
  return new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
}

const vocabulary = loadVocabulary();
const fast = new UseLiteTokenizer(vocabulary);
const reference = packageTokenizer(vocabulary);

/** Texts that exercise the algorithm's corners: unknown characters, astral symbols, NFKC. */
const EDGE_CASES = [
  '',
  ' ',
  '  two  spaces  ',
  '\ttab and\nnewline\r\n',
  'emoji 😀😀 between x😀y',
  'ﬁ ligature, ＦＵＬＬＷＩＤＴＨ, ①②, ㎏',
  '”5 ”5”5 (a piece that appears three times in the vocabulary)',
  'Ω≈ç√∫˜µ≤≥÷ ±∞ αβγδ',
  '日本語のテキスト 한국어 русский текст العربية',
  '\u0000\u0001\u200b\ufeff',
  'a'.repeat(300),
  'IL-6/STAT3 p<0.001 (95% CI 1.2–3.4) [12,13] TNF-α+/+ mice',
  'https://example.org/path?q=1&r=2#frag e-mail@example.com',
];

describe('USE-lite tokenizer', () => {
  it('gives the package tokenizer\'s ids on edge cases', () => {
    for (const text of EDGE_CASES) assert.deepEqual(fast.encode(text), reference.encode(text), JSON.stringify(text));
  });

  it('gives the package tokenizer\'s ids on 300 SciFact texts (seeded sample)', { skip: !scifactAvailable() && 'SciFact is not at ../shared/eval/scifact' }, (t) => {
    const texts = [...loadAbstracts().map((d) => `${d.title} ${d.text}`), ...[...loadClaims().values()].map((c) => c.text)];
    const random = seededRandom(2024);
    // 300 texts of every length SciFact has: the package's tokenizer takes ~15 ms a text here.
    const sample = Array.from({ length: 300 }, () => texts[Math.floor(random() * texts.length)]!);

    let started = performance.now();
    const ours = sample.map((text) => fast.encode(text));
    const fastMs = performance.now() - started;
    started = performance.now();
    const theirs = sample.map((text) => reference.encode(text));
    const packageMs = performance.now() - started;

    const mismatches = sample.filter((_, i) => JSON.stringify(ours[i]) !== JSON.stringify(theirs[i]));
    assert.deepEqual(mismatches.slice(0, 3), [], `${mismatches.length} of ${sample.length} texts differ`);
    t.diagnostic(
      `${sample.length} texts identical; ${(fastMs / sample.length).toFixed(2)} ms/text here vs ` +
        `${(packageMs / sample.length).toFixed(2)} ms/text for the package's tokenizer`,
    );
  });

  it('counts the tokens the embedder gives the model: whitespace collapsed as SentencePiece does', () => {
    assert.equal(collapseWhitespace('  a \n\n b\t c  '), 'a b c');
    assert.equal(fast.countTokens('First paragraph.\n\nSecond  one. '), fast.encode('First paragraph. Second one.').length);
    assert.equal(fast.countTokens(''), 0);
    assert.equal(fast.countTokens(' \n '), 0);
    // A line break would otherwise be an unknown token (id 0) and cost the next word its word-start piece.
    assert.ok(fast.encode('one\ntwo').includes(0));
    assert.ok(!fast.modelIds('one\ntwo').includes(0));
  });
});
