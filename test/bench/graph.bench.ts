// `npm run bench:graph`: the relationship graph at the size it must stay responsive at (2,000
// items, 10,000 relationships). Prints the time to build the graph's data (the pure builder the
// language server runs), to lay it out (ForceAtlas2, the webview's own layout code, here in Node),
// and, in a real browser (Debian's chromium through playwright-core, installed with the e2e
// scenario), the time from the graph reaching the page to the first full render, plus the frame
// times while zooming and panning (graphRender.mjs, plain JavaScript like the e2e scenario, since
// it drives a page). Prints figures; asserts nothing about speed.

import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildRelationshipGraph, type FolderGraphInput } from '../../server/src/engine/relationshipGraph.ts';
import { DEFAULT_GRAPH_STATUSES, GRAPH_TYPES } from '../../shared/graph.ts';
import type { GraphResult } from '../../shared/protocol.ts';
import type { HostMessage } from '../../shared/webviewMessages.ts';
import type { ItemRef, RelationshipStatus, RelationshipView } from '../../shared/types.ts';
import { layoutNow } from '../../webview-ui/src/graphLayout.ts';
import { relationshipView } from '../support/relationshipViews.ts';

const ITEMS = Number(process.env['RELATA_BENCH_GRAPH_ITEMS'] ?? 2000);
const RELATIONSHIPS = Number(process.env['RELATA_BENCH_GRAPH_RELATIONSHIPS'] ?? 10_000);
const FOLDER = 'file:///bench/folder';
const ROOT = path.resolve(import.meta.dirname, '../..');
const CHROMIUM = '/usr/bin/chromium';
const PLAYWRIGHT = path.join(ROOT, 'test/e2e/node_modules/playwright-core');

/** A seeded generator, so every run draws the same graph. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A folder shaped like real ones: topics of related items (four in five relationships stay within a topic). */
function syntheticFolder(): FolderGraphInput {
  const random = seeded(16);
  const items: ItemRef[] = Array.from({ length: ITEMS }, (_, index) => ({ item_id: `item-${index}`, path: `topic-${index % 40}/note-${index}.md`, title: `Note ${index}` }));
  const topicOf = (index: number) => index % 40;
  const seen = new Set<string>();
  const relationships: RelationshipView[] = [];
  while (relationships.length < RELATIONSHIPS) {
    const a = Math.floor(random() * ITEMS);
    let b = Math.floor(random() * ITEMS);
    if (random() < 0.8) b = (Math.floor(random() * (ITEMS / 40)) * 40 + topicOf(a)) % ITEMS;
    const key = a < b ? `${a}-${b}` : `${b}-${a}`;
    if (a === b || seen.has(key)) continue;
    seen.add(key);
    const roll = random();
    const status: RelationshipStatus = roll < 0.8 ? 'pending' : roll < 0.95 ? 'confirmed' : 'rejected';
    relationships.push(
      relationshipView({
        id: `rel-${relationships.length}`,
        from: items[a]!,
        to: items[b]!,
        type: GRAPH_TYPES[Math.floor(random() * GRAPH_TYPES.length)]!,
        score: 0.25 + random() * 0.75,
        status,
        produced_by: 'bench',
      }),
    );
  }
  return { folder: FOLDER, items, relationships };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

const folder = syntheticFolder();
const filter = { statuses: DEFAULT_GRAPH_STATUSES, minStrength: 0 };
const buildTimes: number[] = [];
let graph = buildRelationshipGraph([folder], { filter });
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  graph = buildRelationshipGraph([folder], { filter });
  buildTimes.push(performance.now() - started);
}
const neighbourhoodTimes: number[] = [];
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  buildRelationshipGraph([folder], { filter, focus: { folder: FOLDER, itemId: `item-${(run * 97) % ITEMS}`, depth: 2 } });
  neighbourhoodTimes.push(performance.now() - started);
}
const neighbourhood = buildRelationshipGraph([folder], { filter, focus: { folder: FOLDER, itemId: 'item-0', depth: 2 } });

console.log(`machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, Node ${process.version}, load ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
console.log(`input: ${ITEMS.toLocaleString()} items, ${RELATIONSHIPS.toLocaleString()} relationships (pending, confirmed, rejected 80/15/5 %); drawn (rejected hidden): ${graph.nodes.length.toLocaleString()} items, ${graph.edges.length.toLocaleString()} relationships`);
console.log(`data: whole graph built in ${ms(median(buildTimes))} (median of 5); a neighbourhood (2 steps, ${neighbourhood.nodes.length} items, ${neighbourhood.edges.length} relationships) in ${ms(median(neighbourhoodTimes))}`);

const layoutStarted = performance.now();
layoutNow(graph);
console.log(`layout (Node, ForceAtlas2 as in the webview): whole graph ${ms(performance.now() - layoutStarted)}`);
const smallStarted = performance.now();
layoutNow(neighbourhood);
console.log(`layout (Node): the neighbourhood ${ms(performance.now() - smallStarted)}`);

if (!existsSync(CHROMIUM) || !existsSync(PLAYWRIGHT)) {
  console.log(`render: not measured: needs ${CHROMIUM} and playwright-core in test/e2e/node_modules (bash test/e2e/install.sh)`);
  process.exit(0);
}

const renderer = path.join(import.meta.dirname, 'graphRender.mjs');
const { measureGraphRender } = (await import(pathToFileURL(renderer).href)) as {
  measureGraphRender(options: { playwright: string; chromium: string; bundleDir: string; message: HostMessage }): Promise<{
    layout: number;
    render: number;
    onScreen: number;
    zoom: { median: number; worst: number; count: number };
    pan: { median: number; worst: number; count: number };
    screenshot: string;
    problems: string[];
  }>;
};
const result: GraphResult = { folders: [{ folder: FOLDER, name: 'folder' }], graph, notice: null };
const figures = await measureGraphRender({
  playwright: PLAYWRIGHT,
  chromium: CHROMIUM,
  bundleDir: path.join(ROOT, 'dist/webview'),
  message: { kind: 'graph', query: { scope: 'all', ...filter, statuses: [...filter.statuses] }, result, focusPath: null, folders: [{ folder: FOLDER, name: 'folder' }] },
});
console.log(`browser (chromium, software rendering, 1400×900): layout ${ms(figures.layout)} (in steps, the page answering between them), first full render ${ms(figures.render)}, graph on screen ${ms(figures.onScreen)} after it reached the page`);
console.log(`zoom (10 wheel steps): frame median ${ms(figures.zoom.median)}, worst ${ms(figures.zoom.worst)} over ${figures.zoom.count} frames`);
console.log(`pan (20 drag steps): frame median ${ms(figures.pan.median)}, worst ${ms(figures.pan.worst)} over ${figures.pan.count} frames`);
console.log(`screenshot: ${figures.screenshot}`);
console.log(figures.problems.length === 0 ? 'CSP: no violations, no page errors' : `CSP / page problems:\n  ${figures.problems.join('\n  ')}`);
