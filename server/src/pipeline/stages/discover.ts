// Discover: propose relationships between this item and a bounded set of candidates, scored under
// the settings' relationship-score version (server/src/discover, server/src/scoring). Runs once the queue is idle, so
// every item it weighs against has been extracted and embedded. In the language server it runs in
// discovery threads of its own (threads/discoveryLanes.ts), several items at once, unless a
// classifier, which lives on this thread, is asked about pairs.

import { discoverItem, DISCOVER_VERSION } from '../../discover/discoverItem.ts';
import { extractionVersions } from '../../extract/versions.ts';
import type { StageContext } from './context.ts';

/** Discover jobs that may run at the same time: one per discovery lane, one when discovery runs on this thread. */
export function discoveryCapacity(context: StageContext): number {
  return context.discoveryLanes && !context.classifier ? context.discoveryLanes.lanes : 1;
}

export async function discover(context: StageContext, itemId: string): Promise<void> {
  const { store } = context;
  const item = await store.getItem(itemId);
  if (!item || item.deletedAt || !item.contentHash) return;
  const modelId = await currentModelId(context);
  const options = { modelId, thresholds: context.settings.thresholds, version: context.settings.scoreVersion };
  if (context.discoveryLanes && !context.classifier) await context.discoveryLanes.discover(itemId, options);
  else await discoverItem(store, itemId, { ...options, classifier: context.classifier ?? null });
  await store.recordDiscovery(itemId, item.contentHash, discoveryBasis(modelId, extractionVersions(context.modelExtractor?.version)));
}

async function currentModelId(context: StageContext): Promise<string | null> {
  if (!context.embedder.enabled) return null;
  return (await context.embedder.get())?.descriptor.id ?? null;
}

/**
 * What a discovery result depends on besides the item's bytes: the discovery rules, the
 * extractors (with the model stage, when it runs) and the embedding model. When one changes, items are discovered again. The score
 * version is deliberately not part of it: new weights rescore nothing until `relata reprocess`.
 */
export function discoveryBasis(modelId: string | null, extractors: string): string {
  return `${DISCOVER_VERSION}|${extractors}|${modelId ?? 'none'}`;
}

export async function currentDiscoveryBasis(context: StageContext): Promise<string> {
  return discoveryBasis(await currentModelId(context), extractionVersions(context.modelExtractor?.version));
}
