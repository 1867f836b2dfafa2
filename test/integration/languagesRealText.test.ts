// Issue 28's acceptance on real text: three Open Source Guides (CC BY 4.0) in each of German,
// French, Russian, Japanese, Chinese and Korean, read from ../shared/eval at test time, indexed as
// one folder for real (SQLite, the pipeline's threads; no embedding model). Each language is
// skipped, with the reason printed, where its guides are not there.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as stopword from 'stopword';
import { queryWords, wordMatches } from '../../shared/queryWords.ts';
import { normaliseWord, wordsOf } from '../../shared/words.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { countPhrases } from '../../server/src/extract/concepts.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { EVAL_ROOT } from '../support/tempFolder.ts';

const GUIDES = ['getting-paid.md', 'how-to-contribute.md', 'legal.md'];
const LANGUAGES = [
  { code: 'de', dir: path.join(EVAL_ROOT, 'knowledge-bases', 'opensource-guide-de'), stops: stopword.deu },
  { code: 'fr', dir: path.join(EVAL_ROOT, 'languages', 'opensource-guide-fr'), stops: stopword.fra },
  { code: 'ru', dir: path.join(EVAL_ROOT, 'languages', 'opensource-guide-ru'), stops: stopword.rus },
  { code: 'ja', dir: path.join(EVAL_ROOT, 'languages', 'opensource-guide-ja'), stops: stopword.jpn },
  { code: 'zh', dir: path.join(EVAL_ROOT, 'languages', 'opensource-guide-zh-hans'), stops: stopword.zho },
  { code: 'ko', dir: path.join(EVAL_ROOT, 'languages', 'opensource-guide-ko'), stops: stopword.kor },
];
const present = LANGUAGES.filter((language) => {
  const found = GUIDES.every((guide) => existsSync(path.join(language.dir, guide)));
  if (!found) console.log(`# skipped ${language.code}: its guides are not in ${language.dir}`);
  return found;
});
const has = (code: string) => present.some((language) => language.code === code);
const textOf = (code: string, guide: string) => readFileSync(path.join(present.find((language) => language.code === code)!.dir, guide), 'utf8');

const skipAll = present.length === 0 && `the Open Source Guides are not in ${EVAL_ROOT} (../shared/eval beside the project)`;
if (skipAll) console.log(`# skipped every test of languagesRealText: ${skipAll}`);

describe('the Open Source Guides in six languages, indexed as one folder', { timeout: 10 * 60_000 }, () => {
  let root: string | undefined;
  let index: FolderIndex;
  /** Every word of the folder as typed (normalised), per file. */
  const wordsByFile = new Map<string, Set<string>>();

  before(async () => {
    if (skipAll) return;
    root = mkdtempSync(path.join(tmpdir(), 'relata-languages-real-'));
    const folder = path.join(root, 'folder');
    for (const language of present) {
      mkdirSync(path.join(folder, language.code), { recursive: true });
      for (const guide of GUIDES) {
        copyFileSync(path.join(language.dir, guide), path.join(folder, language.code, guide));
        wordsByFile.set(`${language.code}/${guide}`, new Set([...wordsOf(textOf(language.code, guide))].map((word) => normaliseWord(word.text))));
      }
    }
    index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'languages-real', embedding: { kind: 'none' } });
    await index.index();
  });
  after(async () => {
    await index?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('each guide’s language is detected and stored', { skip: skipAll }, async () => {
    const items = await index.store.listItems();
    const languages = await index.store.itemLanguages(items.map((item) => item.id));
    for (const item of items) assert.equal(languages.get(item.id), item.path.split('/')[0], item.path);
  });

  test('a Chinese, Japanese or Korean word inside a sentence is found by search', { skip: skipAll }, async (t) => {
    for (const [code, word] of [['zh', '许可证'], ['ja', 'ライセンス'], ['ko', '라이선스']] as const) {
      if (!has(code)) {
        t.diagnostic(`skipped ${code}: its guides are not there`);
        continue;
      }
      const text = textOf(code, 'legal.md');
      assert.ok(new RegExp(`[\\p{L}]${word}|${word}[\\p{L}]`, 'u').test(text), `"${word}" stands inside a run of letters in ${code}/legal.md`);
      const response = await searchWorkspace(index.store, null, word);
      assert.equal(response.results[0]?.path, `${code}/legal.md`, `"${word}" finds ${code}/legal.md first`);
    }
  });

  test('a word with a non-ASCII letter is one word in concepts, query words and highlighting (German, French, Russian)', { skip: skipAll }, () => {
    for (const code of ['de', 'fr', 'ru'].filter(has)) {
      for (const guide of GUIDES) {
        const text = textOf(code, guide);
        const words = wordsByFile.get(`${code}/${guide}`)!;
        // Every word of a concept is a whole word of the guide: never "nnen" of "können".
        for (const phrase of countPhrases(text)) {
          for (const part of wordsOf(phrase.phrase)) {
            assert.ok(words.has(normaliseWord(part.text)), `"${part.text}" of "${phrase.phrase}" is a whole word of ${code}/${guide}`);
          }
        }
        const nonAscii = [...words].filter((word) => /[^\p{ASCII}]/u.test(word) && /^\p{L}+$/u.test(word) && word.length > 3).slice(0, 20);
        assert.ok(nonAscii.length > 0);
        for (const word of nonAscii) {
          assert.deepEqual(queryWords(word), [word], `"${word}" is one query word`);
          // Marked whole, and only whole words ("später" may mark "spät" too, as a form of it; never "sp").
          const marked = wordMatches(text, [word]).map((match) => normaliseWord(text.slice(match.start, match.end)));
          assert.ok(marked.includes(word), `"${word}" is marked whole`);
          for (const form of marked) assert.ok(words.has(form), `"${form}", marked for "${word}", is a whole word`);
        }
      }
    }
  });

  test('stop words never become concepts', { skip: skipAll }, () => {
    for (const language of present) {
      const stops = new Set(language.stops.map(normaliseWord));
      for (const guide of GUIDES) {
        const concepts = countPhrases(textOf(language.code, guide));
        // Each word of the phrase as written between spaces: "nicht-Gewinn-orientierte" is one compound, no "nicht".
        const found = concepts.flatMap((phrase) => phrase.phrase.split(' ').map(normaliseWord)).filter((word) => stops.has(word));
        assert.deepEqual(found, [], `${language.code}/${guide}: no stop word among its concepts`);
      }
    }
  });
});
