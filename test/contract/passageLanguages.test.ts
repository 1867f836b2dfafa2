// A file that mixes languages, on every backend: the passages written in another language than
// the item's are detected with its extraction, stored and read back; their concepts are cut with
// their own function words; and search's vector path reads only the passages the model reads.
// The file is built at test time from two real guides, the English and the German code of conduct
// guide (../shared/eval, CC BY 4.0), as a README with the English guide and half the German one.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as stopword from 'stopword';
import { passagesReadByModel } from '../../server/src/ranking/vectorPath.ts';
import type { ExchangeRecord } from '../../server/src/store/exchange/records.ts';
import { EVAL_ROOT } from '../support/tempFolder.ts';
import { forEachBackend } from './backends.ts';
import { extractDocument, indexDocument, REPORT } from './documents.ts';

const GUIDES = path.join(EVAL_ROOT, 'knowledge-bases');
const ENGLISH = path.join(GUIDES, 'opensource-guide-en', 'code-of-conduct.md');
const GERMAN = path.join(GUIDES, 'opensource-guide-de', 'code-of-conduct.md');
const MISSING = [ENGLISH, GERMAN].find((file) => !existsSync(file));
/** USE-lite, the default model: it reads English (embed/languages.ts). */
const ENGLISH_MODEL = 'use-lite@0.2.0';

/** English words no concept is made of (the stopword package's list also holds nouns such as "way"). */
const ENGLISH_FUNCTION_WORDS = ['the', 'a', 'an', 'you', 'your', 'if', 'and', 'or', 'to', 'of', 'it', 'we', 'they', 'this', 'that', 'is', 'are', 'be', 'can', 'will', 'how', 'what', 'when', 'with', 'for'];

/** A guide's body: its front matter left out. */
const body = (file: string) => readFileSync(file, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');

const ENGLISH_BODY = () => body(ENGLISH);
/** The German guide's first half: the README is mostly English, so the item is English and its German passages are told apart. */
const GERMAN_BODY = () => {
  const paragraphs = body(GERMAN).split('\n\n');
  return paragraphs.slice(0, Math.ceil(paragraphs.length / 2)).join('\n\n');
};
const MIXED = () => `# Code of conduct / Verhaltenskodex\n\n${ENGLISH_BODY()}\n\n${GERMAN_BODY()}`;

forEachBackend((backend) => {
  backend.test("a README in English with a German part: each passage in its part's language, read back as stored", async (t) => {
    if (MISSING) return t.skip(`${MISSING} is not there (the evaluation data, ../shared/eval)`);
    const { store } = await backend.open(t);
    const mixed = await indexDocument(store, 'README.md', MIXED());
    const extraction = await extractDocument(store, mixed);
    const stored = await store.passageLanguages([mixed.itemId]);
    assert.deepEqual(Object.fromEntries(stored), extraction.passageLanguages ?? {});
    assert.equal(extraction.language, 'en');
    assert.ok([...stored.values()].filter((language) => language === 'de').length >= 2, 'the German passages are recorded');
    let told = 0;
    for (const chunk of mixed.chunks) {
      // Where a passage comes from: its lines are all in one guide (the passage where the halves meet has both).
      const lines = chunk.text.split('\n').map((line) => line.trim()).filter((line) => line.length > 20);
      const inGerman = lines.filter((line) => GERMAN_BODY().includes(line)).length;
      const inEnglish = lines.filter((line) => ENGLISH_BODY().includes(line)).length;
      if ((inGerman > 0 && inEnglish > 0) || chunk.text.split(/\s+/).length < 30) continue;
      const language: string | undefined = stored.get(chunk.id) ?? extraction.language;
      assert.equal(language, inGerman > 0 ? 'de' : 'en', chunk.text.slice(0, 60));
      told++;
    }
    assert.ok(told >= 4, `${told} passages told`);
    // An export and an import keep them.
    const { store: restored } = await backend.open(t);
    const records: ExchangeRecord[] = [];
    for await (const record of store.exportRecords()) records.push(record);
    await restored.importRecords((async function* () {
      yield* records;
    })());
    assert.deepEqual(await restored.passageLanguages([mixed.itemId]), stored);
    // An item in one language records no passage language.
    const report = await indexDocument(store, 'report.md', REPORT);
    await extractDocument(store, report);
    assert.deepEqual(await store.passageLanguages([report.itemId]), new Map());
  });

  backend.test("each half's concepts are cut with its own function words: no function word of either language is a concept", async (t) => {
    if (MISSING) return t.skip(`${MISSING} is not there (the evaluation data, ../shared/eval)`);
    const { store } = await backend.open(t);
    const extraction = await extractDocument(store, await indexDocument(store, 'README.md', MIXED()));
    // Cut with the item's English rules, the German half gave "Sie", "ist", "werden", "können".
    const stops = new Set([...stopword.deu, ...ENGLISH_FUNCTION_WORDS].map((word) => word.toLowerCase()));
    const bad = extraction.phrases.flatMap((phrase) => phrase.phrase.toLowerCase().split(/\s+/)).filter((word) => stops.has(word));
    assert.deepEqual(bad, []);
    assert.ok(extraction.phrases.some((phrase) => /verhaltenskodex/i.test(phrase.phrase)), 'the German half has concepts');
  });

  backend.test('the vector path reads the English passages of a mixed README and leaves out the German ones, saying so', async (t) => {
    if (MISSING) return t.skip(`${MISSING} is not there (the evaluation data, ../shared/eval)`);
    const { store } = await backend.open(t);
    const mixed = await indexDocument(store, 'README.md', MIXED());
    const extraction = await extractDocument(store, mixed);
    const windows = mixed.chunks.map((chunk) => ({ itemId: mixed.itemId, chunkId: chunk.id, similarity: 0.9 }));
    const { read, unread } = await passagesReadByModel(store, ENGLISH_MODEL, windows);
    const languageOf = (chunkId: string) => extraction.passageLanguages?.[chunkId] ?? extraction.language;
    const german = new Set(mixed.chunks.filter((chunk) => languageOf(chunk.id) === 'de').map((chunk) => chunk.id));
    const english = mixed.chunks.filter((chunk) => languageOf(chunk.id) === 'en').map((chunk) => chunk.id);
    assert.ok(german.size >= 3 && english.length >= 3, `${german.size} German and ${english.length} English passages`);
    assert.deepEqual(read.map((window) => window.chunkId), english, 'the English passages, and only those, are read');
    assert.match(unread ?? '', /German/);
    // A model that reads every language reads them all.
    const all = await passagesReadByModel(store, 'onnx:paraphrase-multilingual-MiniLM-L12-v2#1', windows);
    assert.equal(all.read.length, windows.length);
    assert.equal(all.unread, null);
  });
});
