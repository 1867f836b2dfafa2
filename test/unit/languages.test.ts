// Every language a folder is written in (issue 28), on real sentences in German, French, Russian,
// Japanese, Chinese and Korean: a word with a non-ASCII letter is one word everywhere, scripts
// written without spaces are cut into words, stop words never become concepts, each text's
// language is told, and a pair in a language the embedding model does not read gets no similarity.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectLanguage } from '../../shared/languages.ts';
import { namedWords, queryWords, wordMatches } from '../../shared/queryWords.ts';
import { wordsOf } from '../../shared/words.ts';
import { pairEvidence, type Frequencies } from '../../server/src/discover/evidence.ts';
import type { ItemProfile } from '../../server/src/discover/profile.ts';
import { modelReadsLanguage } from '../../server/src/embed/languages.ts';
import { findFigures } from '../../server/src/extract/claims/figures.ts';
import { findDates } from '../../server/src/extract/entities/dates.ts';
import { tokenize } from '../../server/src/extract/claims/tokens.ts';
import { countPhrases } from '../../server/src/extract/concepts.ts';
import { extractEntities } from '../../server/src/extract/entities/index.ts';
import { RELATIONSHIP_SCORE_V1, signalsFor } from '../../server/src/scoring/index.ts';
import type { ItemRecord } from '../../server/src/store/contract.ts';

const GERMAN =
  'Wenn Sie zu einem Projekt beitragen möchten, können Sie mit kleinen Beiträgen anfangen. Die Unterstützung der Gemeinschaft ist wichtig, ' +
  'und Beiträge werden von den Maintainern geprüft. Sie haben die Möglichkeit, Unterstützung zu bekommen, wenn Beiträge abgelehnt werden. ' +
  'Die Gemeinschaft hilft bei der Unterstützung neuer Mitwirkender, und Beiträge sind immer willkommen.';
const FRENCH =
  "Vous pouvez contribuer à un projet open source de nombreuses façons. La communauté est au cœur du projet, et nous avons besoin " +
  "de contributions régulières. Les contributions des bénévoles sont examinées par les mainteneurs, qui sont responsables de la communauté.";
const RUSSIAN =
  'Если вы хотите внести вклад в проект с открытым исходным кодом, это можно сделать многими способами. Сообщество проекта ' +
  'всегда радо новым участникам, и вклад каждого участника важен для сообщества. Это не так сложно, как кажется.';
const JAPANESE =
  'オープンソースのプロジェクトにコントリビュートするには、まずドキュメントを読みましょう。プロジェクトのコミュニティは、新しいコントリビューターを歓迎しています。' +
  'ライセンスを確認してから、プロジェクトにイシューを作成しましょう。';
const CHINESE = '如果你想为开源项目做贡献，我们可以从阅读文档开始。项目的社区欢迎新的贡献者，你可以在项目中提交问题。我们的社区非常重视许可证。';
const KOREAN =
  '오픈소스 프로젝트에 기여하고 싶다면 먼저 문서를 읽어보세요. 프로젝트의 커뮤니티는 새로운 기여자를 환영합니다. 프로젝트를 시작하기 전에 라이선스를 확인하는 것이 좋습니다.';

const keys = (text: string) => countPhrases(text).map((phrase) => phrase.key);

test('a word with a non-ASCII letter is one word in concepts, query words, highlighting and claim tokens', () => {
  // A concept is shown as written and keyed by its German stem ("beiträge" and "beiträgen" are "beitrag").
  const concepts = countPhrases(GERMAN).map((phrase) => phrase.phrase.toLowerCase());
  assert.ok(concepts.includes('unterstützung'), `whole "Unterstützung" among ${concepts.join(', ')}`);
  assert.ok(concepts.includes('beiträge'), `whole "Beiträge" among ${concepts.join(', ')}`);
  for (const piece of ['nnen', 'beitr', 'unterst', 'chten']) assert.ok(!concepts.some((phrase) => phrase.split(' ').includes(piece)), `no piece "${piece}"`);
  assert.ok(keys(GERMAN).includes('beitrag'), `"Beiträge" and "Beiträgen" share the key "beitrag": ${keys(GERMAN).join(', ')}`);
  assert.deepEqual(queryWords('Unterstützung können'), ['unterstützung']);
  const marked = wordMatches(GERMAN, ['beiträge']).map((match) => GERMAN.slice(match.start, match.end));
  assert.deepEqual([...new Set(marked)], ['Beiträge']);
  assert.deepEqual(
    tokenize('Die Größe des Lagers beträgt 500 m²', []).filter((token) => token.kind === 'word').map((token) => token.text),
    ['Die', 'Größe', 'des', 'Lagers', 'beträgt', 'm²'],
  );
  assert.ok(countPhrases(FRENCH).some((phrase) => phrase.phrase === 'communauté'));
  assert.ok(keys(RUSSIAN).includes('сообществ'), `"сообщества" and "сообщество" share a key: ${keys(RUSSIAN).join(', ')}`);
  assert.ok(keys(KOREAN).includes('프로젝트'), `Korean nouns without their particles: ${keys(KOREAN).join(', ')}`);
});

test('Japanese and Chinese sentences are cut into words, and a query word is found inside a sentence', () => {
  const japanese = [...wordsOf(JAPANESE)].map((word) => word.text);
  assert.ok(japanese.includes('プロジェクト') && japanese.includes('ドキュメント'), japanese.join('|'));
  const chinese = [...wordsOf(CHINESE)].map((word) => word.text);
  assert.ok(chinese.includes('项目') && chinese.includes('社区'), chinese.join('|'));
  assert.deepEqual(namedWords('项目的社区'), ['项目', '社区']);
  assert.equal(wordMatches(CHINESE, ['社区']).length, 2);
  assert.ok(keys(JAPANESE).includes('プロジェクト'));
  assert.ok(keys(CHINESE).includes('项目'));
});

test('stop words never become concepts, in any of the six languages', () => {
  const never: [string, string[]][] = [
    [GERMAN, ['sie', 'ist', 'haben', 'werden', 'können', 'die']],
    [FRENCH, ['vous', 'nous', 'est', 'les', 'sont']],
    [RUSSIAN, ['это', 'если', 'вы', 'не', 'так']],
    [JAPANESE, ['の', 'に', 'しょう', 'しま', 'まず']],
    [CHINESE, ['的', '我们', '可以', '如果', '你']],
    [KOREAN, ['합니다', '좋습니다', '것이']],
  ];
  for (const [text, stops] of never) {
    const words = countPhrases(text).flatMap((phrase) => [...phrase.key.split(' '), ...phrase.phrase.toLowerCase().split(' ')]);
    for (const stop of stops) assert.ok(!words.includes(stop), `"${stop}" is no concept (${words.join(', ')})`);
  }
});

test('each text’s language is told from its script or its function words, and a list of figures is undetermined', () => {
  const told: [string, string][] = [[GERMAN, 'de'], [FRENCH, 'fr'], [RUSSIAN, 'ru'], [JAPANESE, 'ja'], [CHINESE, 'zh'], [KOREAN, 'ko']];
  for (const [text, language] of told) assert.equal(detectLanguage(text).language, language);
  assert.equal(detectLanguage('The project welcomes contributions from everyone who wants to help, and the maintainers review them.').language, 'en');
  assert.equal(detectLanguage('GC-2 4C-12 2025-03-14 €42,000 PO-2025-0412').language, 'und');
});

function profile(path: string, language: string, readByModel: boolean): ItemProfile {
  const item: ItemRecord = {
    id: path, path, title: path, status: 'indexed', reason: null, duplicateOf: null, contentHash: `hash-${path}`, size: 1, version: 1,
    parserVersion: 'test', flags: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', deletedAt: null, forgottenAt: null,
  };
  const vector = new Float32Array([0.6, 0.8]);
  return { item, entities: [], claims: [], phrases: [], date: null, eventDate: null, vectors: [vector], metadata: [], language, readByModel };
}

const NO_FREQUENCIES: Frequencies = { entityItems: new Map(), phraseItems: new Map(), metadataItems: new Map(), cap: 1000 };
const similarityOf = (a: ItemProfile, b: ItemProfile) =>
  pairEvidence(a, b, NO_FREQUENCIES, { rules: RELATIONSHIP_SCORE_V1.rules, signals: signalsFor(RELATIONSHIP_SCORE_V1) }).signals.filter(
    (signal) => signal.type === 'semantic_similarity',
  );

test('a pair outside the model’s languages gets no similarity signal, however close its vectors', () => {
  for (const language of ['de', 'fr', 'ru', 'ja', 'zh', 'ko']) {
    assert.equal(modelReadsLanguage('use-lite@0.2.0', language), false, `USE-lite does not read ${language}`);
    assert.equal(modelReadsLanguage('onnx:paraphrase-multilingual-MiniLM-L12-v2#0123abcd', language), true, `a multilingual model reads ${language}`);
  }
  assert.equal(modelReadsLanguage('use-lite@0.2.0', 'en'), true);
  assert.equal(modelReadsLanguage('use-lite@0.2.0', 'und'), true, 'an undetermined language keeps the benefit of the doubt');
  assert.equal(modelReadsLanguage('onnx:all-MiniLM-L6-v2#0123abcd', 'de'), false);

  const english = similarityOf(profile('a.md', 'en', true), profile('b.md', 'en', true));
  assert.equal(english.length, 1, 'identical vectors in English are similar');
  assert.deepEqual(similarityOf(profile('a.md', 'de', false), profile('b.md', 'de', false)), []);
  assert.deepEqual(similarityOf(profile('a.md', 'en', true), profile('b.md', 'ja', false)), [], 'one side unread is enough');
});

test('money in German, French and English formats parses to the right figure', () => {
  const money = (text: string) => findFigures(text).filter((figure) => figure.kind === 'money').map((figure) => [figure.value, figure.unit]);
  assert.deepEqual(money('Die Kosten der Überholung betragen 42.000,00 € netto.'), [[42000, 'EUR']]);
  assert.deepEqual(money('Le coût de la révision est de 1 234,50 € par mois.'), [[1234.5, 'EUR']]);
  assert.deepEqual(money('Le coût est de 1\u202f234,50 € par mois.'), [[1234.5, 'EUR']]);
  assert.deepEqual(money('The invoice total is 1,234.50 USD.'), [[1234.5, 'USD']]);
  assert.deepEqual(money('Стоимость составила 1 234,50 €.'), [[1234.5, 'EUR']]);
});

test('German, French and Spanish honorifics name people, and GmbH, SARL and S.A. name organisations', () => {
  const named = (text: string) => extractEntities(text).map((entity) => [entity.type, entity.surface]);
  assert.deepEqual(named('Laut Herr Tomasz Wieczorek ist die Prüfung abgeschlossen.'), [['person', 'Herr Tomasz Wieczorek']]);
  assert.deepEqual(named('Frau Die Stadt hat nichts gesagt.'), [], 'a capitalised article after Frau is no name');
  assert.deepEqual(named('Selon Mme Claire Dubois, la révision est terminée.'), [['person', 'Mme Claire Dubois']]);
  assert.deepEqual(named('Según la Sra. Lucía García, la revisión terminó.'), [['person', 'Sra. Lucía García']]);
  const organisations = named('Der Vertrag zwischen Nordhafen Logistik GmbH und Transports Martin SARL wurde mit Hierro Norte S.A. verlängert.')
    .filter(([type]) => type === 'organisation')
    .map(([, surface]) => surface);
  assert.deepEqual(organisations, ['Nordhafen Logistik GmbH', 'Transports Martin SARL', 'Hierro Norte S.A.']);
});

test('dates are read in the document’s language: a German dotted date is day first, Japanese, Russian and French month words are read', () => {
  const dates = (text: string, language?: string) => findDates(text, language).map((date) => [date.surface, date.value]);
  assert.deepEqual(dates('Die Prüfung fand am 12. Mai 2025 statt, die nächste am 03.06.2025.', 'de'), [
    ['12. Mai 2025', '2025-05-12'],
    ['03.06.2025', '2025-06-03'],
  ]);
  assert.deepEqual(dates('Die nächste Prüfung am 03.06.2025.'), [['03.06.2025', '2025-03-06']], 'without the language, as English reads it');
  assert.deepEqual(dates('点検は2025年5月12日に行われた。', 'ja'), [['2025年5月12日', '2025-05-12']]);
  assert.deepEqual(dates('Проверка прошла 12 мая 2025 года.', 'ru').map(([, value]) => value), ['2025-05-12']);
  assert.deepEqual(dates('La révision a eu lieu le 3 juin 2025.', 'fr'), [['3 juin 2025', '2025-06-03']]);
  assert.deepEqual(dates('Die Lieferung kommt in 3 Tagen.', 'de'), [], 'a relative date is not pinned down by the text');
});
