// The browser half of `npm run bench:graph`: the built graph bundle (dist/webview/graph.js) in the
// same CSP'd shell as in VS Code (webviewHtml.ts), served from 127.0.0.1, in Debian's chromium
// through playwright-core. `acquireVsCodeApi` is the one stand-in: it stands for VS Code's webview
// host, which only relays messages. Times the page's own marks (graph received, laid out, first
// full render) and the frame intervals while zooming and panning; reports CSP violations.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { webviewHtml } from '../../client/src/webviews/webviewHtml.ts';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function measureGraphRender({ playwright, chromium: executablePath, bundleDir, message }) {
  const { chromium } = createRequire(import.meta.url)(playwright);
  const files = { '/graph.js': 'text/javascript', '/webview.css': 'text/css' };
  const server = createServer((request, response) => {
    const type = files[request.url ?? ''];
    if (!type) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': type }).end(readFileSync(path.join(bundleDir, request.url)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const html = webviewHtml({ title: 'Relata: Graph', cspSource: origin, scriptUri: `${origin}/graph.js`, styleUri: `${origin}/webview.css` });
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = [];
    page.on('console', (entry) => {
      if (/Content Security Policy|Refused to/i.test(entry.text())) problems.push(entry.text());
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.route(`${origin}/graph`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    // tsx may compile the functions handed to page.evaluate with esbuild's name-keeping helper, which the page must then have.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target; globalThis.acquireVsCodeApi = () => ({ postMessage: () => undefined });' });
    await page.goto(`${origin}/graph`);
    await page.waitForSelector('.graph-canvas', { state: 'attached', timeout: 60_000 }).catch((error) => {
      throw new Error(`the graph page did not start: ${problems.join('; ') || error.message}`);
    });

    await page.evaluate((posted) => window.postMessage(posted, '*'), message);
    await page.waitForFunction(() => document.body.dataset.graph === 'rendered', undefined, { timeout: 600_000 });
    const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime])));
    const received = marks['relata-graph-received'];
    const laidOut = marks['relata-graph-laid-out'];
    const rendered = marks['relata-graph-rendered'];
    const screenshot = path.join(tmpdir(), 'relata-graph-bench.png');
    await page.screenshot({ path: screenshot });

    // Frame intervals while a person zooms and pans, recorded by a requestAnimationFrame loop.
    const frames = async (gesture) => {
      await page.evaluate(() => {
        const intervals = [];
        globalThis.relataFrames = intervals;
        let last = performance.now();
        const tick = (now) => {
          intervals.push(now - last);
          last = now;
          if (intervals.length < 100_000) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await gesture();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const intervals = await page.evaluate(() => globalThis.relataFrames.splice(0));
      return { median: median(intervals), worst: Math.max(...intervals), count: intervals.length };
    };
    const box = await page.locator('.graph-canvas').boundingBox();
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
    return { layout: laidOut - received, render: rendered - laidOut, onScreen: rendered - received, zoom, pan, screenshot, problems };
  } finally {
    await browser.close();
    server.close();
  }
}
