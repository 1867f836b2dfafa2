// npm run eval:languages — what Relata does with the same folder in nine languages (issue 28):
// the Open Source Guides (CC BY 4.0) in English, German, French, Spanish, Portuguese, Russian,
// Japanese, Korean and Simplified Chinese, the same 12-13 guides each.
//
// Per language:
// - known-item search: the queries are each guide's front-matter `title:` and the text of its
//   first two `## ` section headings as a reader sees them (Markdown links and emphasis removed;
//   in both, HTML character references such as "C&oacute;digo" decoded), each expected to find
//   that guide; MRR over the top 10 (a guide not in the top 10 counts 0);
// - proposals whose shared_concept evidence includes a stop word of the guide's language (the
//   `stopword` package's list for it) or a piece of a word (a concept word that occurs in the
//   folder's passages only inside longer words, Unicode words, CJK segmented by Intl.Segmenter); goal 0;
// - semantic_similarity signals on a pair where either guide is in a language the model does not
//   read (each guide's `lang:` front matter; USE-lite reads English); goal 0.
//
// The script uses only what the build had before issue 28 (FolderIndex, searchWorkspace,
// listRelationshipViews), so the same file run in a checkout of the commit before gives the
// "before" column: docs/EVALUATION.md has both. Vectors are cached by text under
// .relata-eval/languages (embedding is the slow part). LANGUAGES=de,ja limits the run;
// MISSES=1 prints each query whose guide is not first (to standard error);
// RELATA_SCORE_VERSION=v1 discovers under relationship-score-v1 (the default is the build's).

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as stopword from 'stopword';
import { createEmbedder, DEFAULT_EMBEDDING } from '../../server/src/embed/choice.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { listRelationshipViews } from '../../server/src/engine/relationships.ts';
import { decodeCharacterReferences } from '../../server/src/parse/characterReferences.ts';
import { defaultPipelineSettings } from '../../server/src/pipeline/settings.ts';
import { embed } from '../../server/src/pipeline/stages/embed.ts';
import { StageThreads } from '../../server/src/pipeline/threads/stageThreads.ts';
import { searchWorkspace } from '../../server/src/ranking/search.ts';
import * as scoring from '../../server/src/scoring/index.ts';
import { FileBlobStore } from '../../server/src/store/blobs.ts';
import { FolderRules } from '../../server/src/workspace/folderRules.ts';
import { CachedEmbedder, GivenEmbedder } from '../support/cachedEmbedder.ts';
import { EVAL_ROOT, REPO_ROOT } from '../support/tempFolder.ts';

const EVAL = EVAL_ROOT;
const FOLDERS: Record<string, string> = {
  en: path.join(EVAL, 'knowledge-bases', 'opensource-guide-en'),
  de: path.join(EVAL, 'knowledge-bases', 'opensource-guide-de'),
  ...Object.fromEntries(['fr', 'es', 'pt', 'ru', 'ja', 'ko', 'zh-hans'].map((lang) => [lang, path.join(EVAL, 'languages', `opensource-guide-${lang}`)])),
};
const STOP_LISTS: Record<string, readonly string[]> = {
  en: stopword.eng, de: stopword.deu, fr: stopword.fra, es: stopword.spa, pt: stopword.por, ru: stopword.rus, ja: stopword.jpn, ko: stopword.kor, zh: stopword.zho,
};
/** The languages the default model (USE-lite) reads. */
const MODEL_LANGUAGES = new Set(['en']);
const WORKSPACE = 'languages-eval';
const SHOW_MISSES = process.env.MISSES === '1';
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

function words(text: string): string[] {
  const out: string[] = [];
  for (const run of text.normalize('NFC').toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(run)) {
      for (const segment of segmenter.segment(run)) if (segment.isWordLike) out.push(segment.segment);
    } else out.push(run);
  }
  return out;
}

function frontMatter(text: string, key: string): string | null {
  const match = /^---\n([\s\S]*?)\n---/.exec(text);
  const line = match?.[1]!.split('\n').find((entry) => entry.startsWith(`${key}:`));
  return line ? line.slice(key.length + 1).trim().replace(/^["']|["']$/g, '') : null;
}

/** A heading or title as a reader sees it, so as a person would type it: links, emphasis and character references ("C&oacute;digo") rendered. */
function plain(heading: string): string {
  return decodeCharacterReferences(heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '')).trim();
}

interface Guide {
  file: string;
  lang: string;
  queries: string[];
  text: string;
}

function guides(folder: string): Guide[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(folder, file), 'utf8');
      const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => plain(match[1]!)).slice(0, 2);
      const title = frontMatter(text, 'title');
      return { file, lang: frontMatter(text, 'lang') ?? 'und', queries: [title === null ? null : decodeCharacterReferences(title), ...headings].filter((q): q is string => !!q), text };
    });
}

async function indexFolder(folder: string, dataDir: string, embedder: CachedEmbedder): Promise<void> {
  const index = await FolderIndex.open({ folder, dataDir, workspace: WORKSPACE, embedding: { kind: 'none' } });
  try {
    await index.index();
    const context = {
      store: index.store,
      blobs: new FileBlobStore(path.join(dataDir, 'blobs')),
      folder,
      rules: new FolderRules(folder, []),
      settings: defaultPipelineSettings(),
      embedder: new GivenEmbedder(embedder),
      threads: new StageThreads({ lanes: 1, memoryMb: 512, timeoutMs: 60_000 }), // never started: this context only embeds
    };
    for (const itemId of await index.store.itemsNeedingVectors(embedder.descriptor.id)) await embed(context, itemId);
  } finally {
    await index.close();
  }
}

interface Row {
  lang: string;
  guides: number;
  queries: number;
  mrr: number;
  proposals: number;
  badConcepts: number;
  unreadSimilarity: number;
  examples: string[];
}

async function measure(lang: string, folder: string, embedder: CachedEmbedder): Promise<Row> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `relata-lang-${lang}-`));
  await indexFolder(folder, dataDir, embedder);
  const index = await FolderIndex.open({ folder, dataDir, workspace: WORKSPACE, embedding: DEFAULT_EMBEDDING, settings: {} });
  try {
    await index.reprocess(null);
    const list = guides(folder);
    let reciprocal = 0;
    let queries = 0;
    for (const guide of list) {
      for (const query of guide.queries) {
        const response = await searchWorkspace(index.store, embedder, query, { limit: 10 });
        const rank = response.results.findIndex((result) => result.path === guide.file);
        reciprocal += rank >= 0 ? 1 / (rank + 1) : 0;
        queries++;
        if (SHOW_MISSES && rank !== 0) {
          process.stderr.write(`  ${lang} miss: «${query}» wants ${guide.file} at ${rank >= 0 ? rank + 1 : '>10'}; first ${response.results[0]?.path ?? 'none'}\n`);
        }
      }
    }
    const language = new Map(list.map((guide) => [guide.file, guide.lang]));
    // The folder's words as the parser gave them (HTML entities decoded: "contribuci&oacute;n" is a whole word).
    const folderWords = new Set<string>();
    for (const item of await index.store.listItems()) {
      for (const chunk of await index.store.listChunks(item.id)) for (const word of words(chunk.text)) folderWords.add(word);
      for (const word of words(item.title ?? '')) folderWords.add(word);
    }
    const stops = new Set((STOP_LISTS[lang.split('-')[0]!] ?? []).map((word) => word.normalize('NFC').toLowerCase()));
    const views = await listRelationshipViews(index.store, scoring.thresholdsFromEnv());
    let badConcepts = 0;
    let unreadSimilarity = 0;
    const examples = new Set<string>();
    for (const view of views) {
      const concepts = view.signals.filter((signal) => signal.type === 'shared_concept');
      // The concept's words as the folder's text is cut (so "l'open" is "l" and "open").
      const bad = concepts.flatMap((signal) => words(signal.value)).filter((word) => stops.has(word) || !folderWords.has(word));
      if (bad.length > 0) {
        badConcepts++;
        for (const word of bad) if (examples.size < 8) examples.add(word);
      }
      const unread = [view.from.path, view.to.path].some((file) => !MODEL_LANGUAGES.has(language.get(file) ?? 'und'));
      if (unread) unreadSimilarity += view.signals.filter((signal) => signal.type === 'semantic_similarity').length;
    }
    return { lang, guides: list.length, queries, mrr: reciprocal / Math.max(queries, 1), proposals: views.length, badConcepts, unreadSimilarity, examples: [...examples] };
  } finally {
    await index.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const only = process.env.LANGUAGES?.split(',');
const cacheDir = path.join(REPO_ROOT, '.relata-eval', 'languages');
const embedder = new CachedEmbedder((await createEmbedder(DEFAULT_EMBEDDING))!, cacheDir);
try {
  const rows: Row[] = [];
  for (const [lang, folder] of Object.entries(FOLDERS)) {
    if (only && !only.includes(lang)) continue;
    if (!existsSync(folder)) {
      console.log(`${lang}: skipped: ${folder} is not there`);
      continue;
    }
    const started = performance.now();
    const row = await measure(lang, folder, embedder);
    rows.push(row);
    process.stderr.write(`  ${lang}: ${((performance.now() - started) / 1000).toFixed(0)} s (${embedder.embedded} passages embedded so far)\n`);
  }
  console.log(`scoring ${scoring.scoreVersionFromEnv().version}, model ${embedder.descriptor.id}, machine: 2 shared cores, Node ${process.version}`);
  console.log('language  guides  queries  MRR@10  proposals  with stop word or piece of word  similarity on unread language  examples');
  for (const row of rows) {
    console.log(
      `${row.lang.padEnd(8)}  ${String(row.guides).padStart(6)}  ${String(row.queries).padStart(7)}  ${row.mrr.toFixed(3).padStart(6)}  ${String(row.proposals).padStart(9)}  ${String(row.badConcepts).padStart(32)}  ${String(row.unreadSimilarity).padStart(29)}  ${row.examples.join(', ')}`,
    );
  }
} finally {
  await embedder.close();
}
