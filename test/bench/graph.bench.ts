// `npm run bench:graph`: the relationship graph at the size it must stay responsive at (2,000
// items, 10,000 relationships). Prints the time to build the graph's data (the pure builder the
// language server runs), to lay it out (ForceAtlas2, the webview's own layout code, here in Node),
// and, in a real browser (Debian's chromium through playwright-core, installed with the e2e
// scenario), the time from the graph reaching the page to the first full render, plus the frame
// times while zooming and panning. The page is the built bundle dist/webview/graph.js in the same
// CSP'd shell as in VS Code; `acquireVsCodeApi` is the one stand-in: it stands for VS Code's
// webview host, which only relays messages. Prints figures; asserts nothing about speed.

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { webviewHtml } from '../../client/src/webviews/webviewHtml.ts';
import { buildRelationshipGraph, type FolderGraphInput } from '../../server/src/engine/relationshipGraph.ts';
import { DEFAULT_GRAPH_STATUSES, GRAPH_TYPES } from '../../shared/graph.ts';
import type { GraphResult } from '../../shared/protocol.ts';
import type { HostMessage } from '../../shared/webviewMessages.ts';
import type { ItemRef, RelationshipStatus, RelationshipView } from '../../shared/types.ts';
import { layoutNow } from '../../webview-ui/src/graphLayout.ts';

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
    relationships.push({
      id: `rel-${relationships.length}`,
      from: items[a]!,
      to: items[b]!,
      type: GRAPH_TYPES[Math.floor(random() * GRAPH_TYPES.length)]!,
      score: 0.25 + random() * 0.75,
      score_version: 'relationship-score-v1',
      status,
      near_duplicate: false,
      signals: [],
      produced_by: 'bench',
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
      decided_by: null,
      decided_at: null,
      note: null,
      changed_since_decision: null,
    });
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

const { chromium } = createRequire(import.meta.url)(PLAYWRIGHT) as typeof import('playwright-core');
const files: Record<string, string> = { '/graph.js': 'text/javascript', '/webview.css': 'text/css' };
const server = createServer((request, response) => {
  const type = files[request.url ?? ''];
  if (!type) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': type }).end(readFileSync(path.join(ROOT, 'dist/webview', request.url!)));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const html = webviewHtml({ title: 'Relata: Graph', cspSource: origin, scriptUri: `${origin}/graph.js`, styleUri: `${origin}/webview.css` });

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  await page.route(`${origin}/graph`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  // tsx compiles the functions handed to page.evaluate with esbuild's name-keeping helper, which the page must have.
  await page.addInitScript({ content: 'globalThis.__name = (target) => target; globalThis.acquireVsCodeApi = () => ({ postMessage: () => undefined });' });
  await page.goto(`${origin}/graph`);
  await page.waitForSelector('.graph-canvas', { state: 'attached', timeout: 60_000 }).catch((error: Error) => {
    throw new Error(`the graph page did not start: ${violations.join('; ') || error.message}`);
  });

  const result: GraphResult = { folders: [{ folder: FOLDER, name: 'folder' }], graph, notice: null };
  const message: HostMessage = { kind: 'graph', query: { scope: 'all', ...filter, statuses: [...filter.statuses] }, result, focusPath: null, folders: [{ folder: FOLDER, name: 'folder' }] };
  await page.evaluate((posted) => window.postMessage(posted, '*'), message);
  await page.waitForFunction(() => document.body.dataset['graph'] === 'rendered', undefined, { timeout: 600_000 });
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime])));
  const received = marks['relata-graph-received']!;
  const laidOut = marks['relata-graph-laid-out']!;
  const rendered = marks['relata-graph-rendered']!;
  console.log(`browser (chromium, software rendering, 1400×900): layout ${ms(laidOut - received)} (in steps, the page answering between them), first full render ${ms(rendered - laidOut)}, graph on screen ${ms(rendered - received)} after it reached the page`);
  const screenshot = path.join(tmpdir(), 'relata-graph-bench.png');
  await page.screenshot({ path: screenshot });
  console.log(`screenshot: ${screenshot}`);

  // Frame times while a person zooms and pans: a rAF loop records each frame's interval.
  const frames = async (gesture: () => Promise<void>) => {
    await page.evaluate(() => {
      const intervals: number[] = [];
      (globalThis as unknown as { relataFrames: number[] }).relataFrames = intervals;
      let last = performance.now();
      const tick = (now: number) => {
        intervals.push(now - last);
        last = now;
        if (intervals.length < 100_000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await gesture();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const intervals = await page.evaluate(() => (globalThis as unknown as { relataFrames: number[] }).relataFrames.splice(0));
    return { median: median(intervals), worst: Math.max(...intervals), count: intervals.length };
  };
  const box = (await page.locator('.graph-canvas').boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(centre.x, centre.y);
  const zoom = await frames(async () => {
    for (let step = 0; step < 10; step++) await page.mouse.wheel(0, -120);
  });
  const pan = await frames(async () => {
    await page.mouse.down();
    for (let step = 1; step <= 20; step++) await page.mouse.move(centre.x + step * 10, centre.y + step * 5);
    await page.mouse.up();
  });
  console.log(`zoom (10 wheel steps): frame median ${ms(zoom.median)}, worst ${ms(zoom.worst)} over ${zoom.count} frames`);
  console.log(`pan (20 drag steps): frame median ${ms(pan.median)}, worst ${ms(pan.worst)} over ${pan.count} frames`);
  console.log(violations.length === 0 ? 'CSP: no violations, no page errors' : `CSP / page problems:\n  ${violations.join('\n  ')}`);
} finally {
  await browser.close();
  server.close();
}
