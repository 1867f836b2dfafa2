// A folder in several languages, indexed for real (SQLite, the pipeline's threads; no embedding
// model, which the unit tests and eval:languages cover): each item's language is detected and
// stored, shown by the item view and carried by an export; a Chinese or Japanese word inside a
// sentence is found by search (issue 28).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { itemDetail } from '../../server/src/engine/itemViews.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import { FileBlobStore } from '../../server/src/store/blobs.ts';
import { exportToDirectory } from '../../server/src/store/exchange/exportDir.ts';
import { writeFiles } from '../support/tempFolder.ts';

const FILES = {
  'beitragen.md':
    '# Beitragen\n\nWenn Sie zu einem Projekt beitragen möchten, können Sie mit kleinen Beiträgen anfangen. Die Unterstützung der Gemeinschaft ist wichtig, und Beiträge werden von den Maintainern geprüft.\n',
  'contribuer.md':
    "# Contribuer\n\nVous pouvez contribuer à un projet open source de nombreuses façons. La communauté est au cœur du projet, et nous avons besoin de contributions régulières.\n",
  'вклад.md': '# Вклад\n\nЕсли вы хотите внести вклад в проект с открытым исходным кодом, это можно сделать многими способами. Сообщество проекта всегда радо новым участникам.\n',
  'kouken.md': '# 貢献\n\nオープンソースのプロジェクトにコントリビュートするには、まずドキュメントを読みましょう。プロジェクトのコミュニティは、新しいコントリビューターを歓迎しています。\n',
  'gongxian.md': '# 贡献\n\n如果你想为开源项目做贡献，我们可以从阅读文档开始。项目的社区欢迎新的贡献者，你可以在项目中提交问题。\n',
  'gigo.md': '# 기여\n\n오픈소스 프로젝트에 기여하고 싶다면 먼저 문서를 읽어보세요. 프로젝트의 커뮤니티는 새로운 기여자를 환영합니다.\n',
};
const EXPECTED: Record<string, string> = { 'beitragen.md': 'de', 'contribuer.md': 'fr', 'вклад.md': 'ru', 'kouken.md': 'ja', 'gongxian.md': 'zh', 'gigo.md': 'ko' };

describe('a folder in six languages', { timeout: 5 * 60_000 }, () => {
  let root: string;
  let index: FolderIndex;

  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'relata-languages-'));
    const folder = writeFiles(path.join(root, 'folder'), FILES);
    index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'languages', embedding: { kind: 'none' } });
    await index.index();
  });
  after(async () => {
    await index.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('each item’s language is detected, stored and shown by the item view', async () => {
    const items = await index.store.listItems();
    const languages = await index.store.itemLanguages(items.map((item) => item.id));
    for (const item of items) {
      assert.equal(languages.get(item.id), EXPECTED[item.path], item.path);
      assert.equal((await itemDetail(index.store, item)).language, EXPECTED[item.path], `${item.path} in the item view`);
    }
  });

  test('an export carries each item’s language', async () => {
    const out = path.join(root, 'export');
    const blobs = new FileBlobStore(path.join(root, 'data', 'blobs'));
    await exportToDirectory({ store: index.store, blobs, dir: out, source: { backend: 'sqlite', location: path.join(root, 'data') } });
    const file = readdirSync(out).find((name) => name.startsWith('extractions'))!;
    const records = readFileSync(path.join(out, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { language?: string });
    assert.deepEqual(records.map((record) => record.language).sort(), Object.values(EXPECTED).sort());
  });

  test('a Chinese, a Japanese and a Korean word inside a sentence is found by search', async () => {
    for (const [query, expected] of [['社区', 'gongxian.md'], ['ドキュメント', 'kouken.md'], ['커뮤니티', 'gigo.md'], ['Gemeinschaft', 'beitragen.md'], ['communauté', 'contribuer.md'], ['сообщество', 'вклад.md']]) {
      const response = await searchWorkspace(index.store, null, query!);
      assert.equal(response.results[0]?.path, expected, `"${query}" finds ${expected}`);
    }
  });
});
