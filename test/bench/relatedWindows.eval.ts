// npm run eval:related-windows — which window aggregation Related's vector side should use
// (engine/related.ts, WindowAggregation), measured on SciFact's TRAIN claims only (the test claims
// stay unseen for the shared eval): 150 claim/abstract pairs, each claim and each abstract one .txt
// file, indexed with the default embedding model. For each claim, Related@5: is its labelled
// abstract among its 5 related items? Also Related@5 with words alone (no vectors), and the
// vector side alone (the aggregation's own ranking, before fusion). Prints figures; asserts nothing.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spreadOver } from '../../server/src/discover/itemCosine.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { aggregateWindows, relatedTo, type RelatedOptions, type WindowAggregation } from '../../server/src/engine/related.ts';
import { EVAL_ROOT, writeFiles } from '../support/tempFolder.ts';
import { loadAbstracts, scifactAvailable } from '../support/scifact.ts';

const PAIRS = 150;

interface Pair { claim_id: string; claim: string; doc_id: string; split: string }

function trainPairs(): Pair[] {
  const lines = readFileSync(path.join(EVAL_ROOT, 'scifact-claims', 'claim_evidence_pairs.jsonl'), 'utf8').split('\n').filter(Boolean);
  const claims = new Set<string>();
  const docs = new Set<string>();
  const pairs: Pair[] = [];
  for (const pair of lines.map((line) => JSON.parse(line) as Pair)) {
    if (pair.split !== 'train' || claims.has(pair.claim_id) || docs.has(pair.doc_id)) continue;
    claims.add(pair.claim_id);
    docs.add(pair.doc_id);
    pairs.push(pair);
    if (pairs.length === PAIRS) break;
  }
  return pairs;
}

async function main(): Promise<void> {
  if (!scifactAvailable()) {
    console.log('skipped: ../shared/eval/scifact is not here');
    return;
  }
  const pairs = trainPairs();
  const abstracts = new Map(loadAbstracts().map((abstract) => [abstract.id, abstract]));
  const files: Record<string, string> = {};
  for (const pair of pairs) {
    const abstract = abstracts.get(pair.doc_id)!;
    files[`claims/claim-${pair.claim_id}.txt`] = `${pair.claim}\n`;
    files[`abstracts/${pair.doc_id}.txt`] = `${abstract.title}\n\n${abstract.text}\n`;
  }
  const folder = writeFiles(mkdtempSync(path.join(tmpdir(), 'relata-eval-related-')), files);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'relata-eval-related-data-'));
  const started = performance.now();
  const index = await FolderIndex.open({ folder, dataDir, workspace: 'eval', embedding: { kind: 'use-lite', threads: 1 } });
  try {
    await index.index();
    const store = index.store;
    const modelId = (await store.modelUsage())[0]?.id ?? null;
    console.log(`${pairs.length} train pairs indexed in ${((performance.now() - started) / 1000).toFixed(0)} s with ${modelId}`);
    const variants: [string, RelatedOptions][] = [
      ['fused, best window pair', { aggregation: 'best' }],
      ['fused, mean of the two best pairs', { aggregation: 'mean_top2' }],
      ...[0.75, 0.5, 0.25].map((weight): [string, RelatedOptions] => [`fused, best pair, vector weight ${weight}`, { aggregation: 'best', vectorWeight: weight }]),
      ['words alone (no vectors)', { modelId: null }],
    ];
    for (const [label, options] of variants) {
      let found = 0;
      let asRelationship = 0;
      for (const pair of pairs) {
        const view = await relatedTo(store, `claims/claim-${pair.claim_id}.txt`, { ...options, limit: 5 });
        const entry = view.entries.find((candidate) => candidate.item.path === `abstracts/${pair.doc_id}.txt`);
        if (entry) found += 1;
        if (entry?.kind === 'relationship') asRelationship += 1;
      }
      console.log(`Related@5, ${label}: ${(found / pairs.length).toFixed(3)} (${found} of ${pairs.length}; ${asRelationship} as a stored relationship)`);
    }
    for (const aggregation of ['best', 'mean_top2'] as WindowAggregation[]) {
      let found = 0;
      for (const pair of pairs) {
        const item = (await store.getItemByPath(`claims/claim-${pair.claim_id}.txt`))!;
        const facts = (await store.discoveryFacts([item.id], modelId, 0)).get(item.id)!;
        const hits = await store.searchVectorsMany(modelId!, spreadOver(facts.vectors, 8), 30);
        const ranked = aggregateWindows(hits, new Set([item.id]), aggregation).slice(0, 5);
        const target = (await store.getItemByPath(`abstracts/${pair.doc_id}.txt`))!.id;
        if (ranked.some((entry) => entry.itemId === target)) found += 1;
      }
      console.log(`vector side alone@5, ${aggregation}: ${(found / pairs.length).toFixed(3)} (${found} of ${pairs.length})`);
    }
  } finally {
    await index.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
