// The scenario a person follows on docs/demo, in a real VS Code (code-server) driven through
// chromium: indexing finishes (status bar), Search Knowledge opens a result at its passage, the
// hover shows mentions over a name and related items over the title, the Related view lists the file's relationships
// and then its content neighbours, a proposal is confirmed in the tree and moves to
// Confirmed, the relationship panel shows the signals and the contradiction's figures, and Ask
// shows "Sources used" and "Uncertainty and conflicts"; search rows name their path and what
// matched, a weak match says so, Ask quotes the answering sentences highlighted and keeps its
// conversation; the graph opens on the current file; the Ctrl+K K chord, Pause / Resume
// Indexing, the first-run walkthrough, Ask with no model in the editor saying so above the
// passages, the @relata participant and the agent tools registered, a scripted chat model
// (scripted-model/, a test-only extension) answering Ask and @relata in the chat view, and a settings change that restarts the server on the same
// store with the decisions kept; a slide deck's and a spreadsheet's results open at their slide
// and their sheet's rows; and a two-folder workspace asks both folders. Each step saves a
// screenshot. A step whose
// server side answers "not available yet" is SKIPPED with the reason, never counted as passed.

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { reviewAndSearchSteps } from './reviewAndSearchSteps.mjs';

const { values } = parseArgs({
  options: { url: { type: 'string' }, screenshots: { type: 'string' }, logs: { type: 'string' }, 'multi-root-url': { type: 'string' }, 'guides-url': { type: 'string' } },
});
const screenshots = values.screenshots ?? path.join(import.meta.dirname, 'screenshots');
mkdirSync(screenshots, { recursive: true });

const INDEXING_TIMEOUT_MS = 6 * 60_000;
const results = [];
const started = performance.now();

class Skip extends Error {}
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);

async function step(name, run) {
  const from = performance.now();
  try {
    const detail = await run();
    results.push({ name, outcome: 'PASS', detail: detail ?? '', time: seconds(from) });
  } catch (error) {
    results.push({ name, outcome: error instanceof Skip ? 'SKIPPED' : 'FAIL', detail: error.message.split('\n')[0], time: seconds(from) });
  }
  const last = results.at(-1);
  console.log(`${last.outcome.padEnd(7)} ${name} (${last.time} s)${last.detail ? `: ${last.detail}` : ''}`);
  await shot(name).catch(() => undefined);
}

let page;
let shotNumber = 0;
async function shot(name) {
  shotNumber += 1;
  const file = `${String(shotNumber).padStart(2, '0')}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '')}.png`;
  await page.screenshot({ path: path.join(screenshots, file) });
}

const NOT_AVAILABLE = /not available yet[^\n]*/;

async function runCommand(title) {
  const input = page.locator('.quick-input-widget input');
  // Now and then the palette does not take the keys (a hover or the settings editor holding the
  // keyboard after a settings change: "locator.fill: Timeout" in one CI run): tried again from the
  // editor area, at most three times.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(`>${title}`, { timeout: 15_000 });
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      await page.keyboard.press('Enter');
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
      await page.locator('.editor-group-container.active').first().click({ position: { x: 300, y: 400 } }).catch(() => undefined);
    }
  }
}

/** Opens Search Knowledge with a query and waits for its first row: a result, or the reason there is none. */
async function firstSearchRow(query) {
  await runCommand('Relata: Search Knowledge');
  await page.locator('.quick-input-widget input').fill(query);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: /relevance|Search failed|No matching/ }).first();
  await row.waitFor({ timeout: 60_000 });
  return row;
}

/** Leaves the editor area to the next panel, so its screenshot shows the whole panel. */
async function closeAllEditors() {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('>View: Close All Editors');
  // Not "Close All Editors in Group": the row whose label ends there.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: /Close All Editors(?! in)/ }).first().click({ timeout: 15_000 });
  await page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
}

async function openFile(name) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 15_000 });
}

/** Rests the pointer on the first word of the editor's first line matching `linePattern`, after moving it away so a hover shown before closes. */
async function pointAt(linePattern) {
  await page.keyboard.press('Escape');
  await page.mouse.move(5, 5);
  const line = page.locator('.monaco-editor .view-line', { hasText: linePattern }).first();
  await line.waitFor({ timeout: 15_000 });
  const box = await line.boundingBox();
  await page.mouse.move(box.x + 25, box.y + box.height / 2);
}

/** The frame of a Relata webview whose #app contains `text` (webviews are nested iframes). */
async function webviewFrame(text, timeoutMs = 30_000) {
  // Text is matched case-insensitively, so a page can be found by its heading or its error.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const found = await frame
        .evaluate((wanted) => {
          const app = document.getElementById('app');
          return Boolean(app && app.innerText.toLowerCase().includes(wanted.toLowerCase()));
        }, text)
        .catch(() => false);
      if (found) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview showing ${JSON.stringify(text)} within ${timeoutMs / 1000} s`);
    await page.waitForTimeout(250);
  }
}

async function webviewText(frame) {
  return frame.evaluate(() => document.getElementById('app')?.innerText ?? '');
}

/** Waits until the status bar matches; returns its text. */
async function waitForStatus(pattern, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await statusBarText();
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`the status bar still says "${text}", not ${pattern}`);
    await page.waitForTimeout(500);
  }
}

/** The Relata output channel's log file (a LogOutputChannel writes one under the window's logs). */
function relataLog(logs) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/Relata\.log$/.test(entry.name)) found.push(full);
    }
  };
  walk(path.join(logs, 'user', 'logs'));
  if (found.length === 0) throw new Error(`no Relata log under ${path.join(logs, 'user', 'logs')}`);
  return found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

async function statusBarText() {
  return (await page.locator('.statusbar-item', { hasText: 'Relata' }).first().innerText({ timeout: 2000 }).catch(() => '')).trim();
}

const context = await chromium.launchPersistentContext(path.join(values.logs ?? screenshots, 'chromium-profile'), {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1600, height: 1000 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
page = context.pages()[0] ?? (await context.newPage());

try {
  await step('Open the demo folder', async () => {
    await page.goto(values.url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.statusbar-item', { hasText: 'Relata' }).first().waitFor({ timeout: 60_000 });
    return `status bar: ${await statusBarText()}`;
  });

  await firstStartWalkthroughStep(); // editor round two (h-editor2): see the functions at the end

  await step('Indexing finishes (status bar)', async () => {
    const from = performance.now();
    for (;;) {
      const text = await statusBarText();
      if (/Relata: \d+ indexed/.test(text)) return `"${text}" after ${seconds(from)} s`;
      if (/not running/.test(text)) throw new Error(`the server is not running: ${text}`);
      if (performance.now() - from > INDEXING_TIMEOUT_MS) throw new Error(`still "${text}" after ${INDEXING_TIMEOUT_MS / 60_000} min`);
      await page.waitForTimeout(500);
    }
  });

  await step('Search Knowledge opens a result at its passage', async () => {
    // The first-run walkthrough is open in front of everything on a first start.
    await closeAllEditors();
    const row = await firstSearchRow('gantry crane refurbishment cost');
    const text = await row.innerText();
    const unavailable = text.match(NOT_AVAILABLE);
    if (unavailable) throw new Skip(`relata/search is ${unavailable[0]}`);
    if (!/relevance \d\.\d\d/.test(text)) throw new Error(`unexpected first row: ${text}`);
    await shot('search-results');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'relevance' }).first().click();
    const tab = page.locator('.tab.active');
    await tab.waitFor({ timeout: 15_000 });
    const selection = page.locator('.statusbar-item', { hasText: /selected\)/ }).first();
    await selection.waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error('the file opened without the passage selected');
    });
    return `opened ${(await tab.innerText()).trim()} with the passage selected (${(await selection.innerText()).trim()})`;
  });

  await step('Hover shows mentions over a name and related items over the title', async () => {
    await openFile('gantry-crane-gc2-refurbishment-report.md');
    // A line that starts with the entity, so the pointer lands on it whatever the font.
    const hoverAt = async (linePattern, expected) => {
      await pointAt(linePattern);
      const hover = page.locator('.monaco-hover', { hasText: expected }).first();
      await hover.waitFor({ state: 'visible', timeout: 20_000 });
      await page.waitForTimeout(600);
      return hover.innerText();
    };
    const overName = await hoverAt(/^Example\sLtd\scarried\sout/, /also mentioned in/);
    if (/Relata: this file's relationships/.test(overName)) throw new Error('the hover over a name lists the whole item\u2019s relationships');
    await shot('hover-over-a-name');
    const overTitle = await hoverAt(/^#\sGantry\scrane\sGC-2/, /Relata: this file's relationships/);
    if (/related to Gantry crane/.test(overTitle)) throw new Error('the title hover says the file is related to its own title');
    if (!/strength \d\.\d\d/.test(overTitle)) throw new Error(`the title's hover shows no strengths: ${overTitle.slice(0, 200)}`);
    return 'mentions of Example Ltd over its name; related items over the title';
  });

  await step('The Related view lists the open file’s relationships, then its content neighbours, each with its number', async () => {
    await page.keyboard.press('Escape');
    // Answered by a search thread since 2026-12-07: the view is what shows it still arrives whole.
    // The folder's tree is folded meanwhile so that the view has the sidebar's height for its rows.
    const pane = (title) => page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) }).first();
    const toggle = async (title, expanded) => {
      const header = pane(title).locator('.pane-header').first();
      await header.waitFor({ state: 'visible', timeout: 15_000 });
      if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
    };
    const related = pane(/^related\b/i);
    try {
      await toggle(/^demo\b/i, false);
      await toggle(/^related\b/i, true);
      await related.locator('.monaco-list-row', { hasText: /strength \d\.\d\d/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
      await page.mouse.move(800, 500);
      await page.waitForTimeout(500);
      const rows = (await related.locator('.monaco-list-row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' '));
      const firstNeighbour = rows.findIndex((row) => /similarity \d\.\d\d|similar content/.test(row));
      const lastRelationship = rows.findLastIndex((row) => /strength \d\.\d\d/.test(row));
      if (firstNeighbour >= 0 && firstNeighbour < lastRelationship) throw new Error(`a content neighbour comes before a relationship: ${rows.join(' | ')}`);
      if (!rows.some((row) => /Q2 2025 capital budget review/.test(row))) throw new Error(`the contradicting budget review is not listed: ${rows.join(' | ')}`);
      await shot('related-view');
      return `${rows.length} rows: ${rows.slice(0, 3).map((row) => row.slice(0, 70)).join(' | ')}`;
    } finally {
      await toggle(/^related\b/i, false).catch(() => undefined);
      await toggle(/^demo\b/i, true).catch(() => undefined);
    }
  });

  let proposalLabel = null;
  await step('Confirm a proposal in the tree (it moves to Confirmed)', async () => {
    await page.keyboard.press('Escape');
    await page.locator('.activitybar .action-item a[aria-label^="Relata"]').first().click();
    const view = page.locator('.pane', { hasText: 'Proposals' }).first();
    await view.waitFor({ timeout: 15_000 });
    const deadline = Date.now() + 30_000;
    let proposal;
    for (;;) {
      const message = await view.locator('.message, .welcome-view-content').first().innerText({ timeout: 1000 }).catch(() => '');
      const unavailable = message.match(NOT_AVAILABLE);
      if (unavailable) throw new Skip(`relata/relationships is ${unavailable[0]}`);
      if (/Relationships are not available: (.*)/.test(message)) throw new Error(message);
      const contradiction = view.locator('.monaco-list-row[aria-label^="contradicts,"]').first();
      proposal = (await contradiction.count()) ? contradiction : view.locator('.monaco-list-row', { hasText: '↔' }).first();
      if (await proposal.count()) break;
      if (Date.now() > deadline) throw new Skip(`no proposals in the tree (${message || 'no message'})`);
      await page.waitForTimeout(500);
    }
    // The two names: the label's leading strength (and type, outside a type's group) change when the decision rescores it.
    // Before any decision, the contradiction is the first type under Pending review, with its own icon.
    const firstGroup = view.locator('.monaco-list-row[aria-level="2"]').first();
    const firstGroupText = (await firstGroup.innerText()).trim();
    if (!firstGroupText.startsWith('contradicts')) throw new Error(`the first pending group is "${firstGroupText}", not contradicts`);
    if (!(await firstGroup.locator('.codicon-warning').count())) throw new Error('the contradicts group has no warning icon');
    await shot('proposals-contradiction-first');
    // The label is the pair; the strength (and type) are the description, which the decision changes.
    proposalLabel = (await proposal.locator('.label-name').innerText()).trim();
    await proposal.hover();
    await proposal.locator('.action-label[aria-label="Confirm"]').click();
    await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
    await page.keyboard.type('checked in the e2e scenario');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(1000);
    const notice = await page.locator('.notification-toast').first().innerText({ timeout: 1000 }).catch(() => '');
    const unavailable = notice.match(NOT_AVAILABLE);
    if (unavailable) throw new Skip(`relata/confirm is ${unavailable[0]}`);
    const confirmed = view.locator('.monaco-list-row', { hasText: /^Confirmed/ }).first();
    if ((await confirmed.getAttribute('aria-expanded')) === 'false') await confirmed.click();
    await view.locator('.monaco-list-row[aria-level]', { hasText: proposalLabel }).nth(0).waitFor({ timeout: 15_000 });
    const rows = await view.locator('.monaco-list-row').allInnerTexts();
    const confirmedAt = rows.findIndex((row) => row.startsWith('Confirmed'));
    if (!rows.slice(confirmedAt + 1).some((row) => row.includes(proposalLabel))) throw new Error(`"${proposalLabel}" is not under Confirmed`);
    return `confirmed "${proposalLabel}"`;
  });

  await step('Relationship panel shows the signals and the contradiction', async () => {
    if (!proposalLabel) throw new Skip('no proposal was confirmed in the step above');
    const view = page.locator('.pane', { hasText: 'Proposals' }).first();
    // The tree only renders the rows in view: fold Pending review so Confirmed is on screen.
    const pending = view.locator('.monaco-list-row', { hasText: /^Pending review/ }).first();
    if ((await pending.getAttribute('aria-expanded')) === 'true') await pending.click();
    const row = view.locator('.monaco-list-row', { hasText: proposalLabel }).first();
    await row.waitFor({ timeout: 15_000 });
    await closeAllEditors();
    await row.click();
    const frame = await webviewFrame('Signals');
    const text = await webviewText(frame);
    // Signals by their names in words (shared/wording.ts), never as identifiers.
    for (const expected of ['different figures', 'Sum of contributions', 'Conflicts', 'your confirmation']) {
      if (!text.includes(expected)) throw new Error(`the panel does not show ${expected}`);
    }
    const identifier = text.match(/\b(claim_contradiction|user_confirmation|shared_\w+|semantic_similarity|occurred_\w+|similar_to|derived_from)\b/);
    if (identifier) throw new Error(`the panel shows the identifier ${identifier[0]}`);
    if (!/42,?000/.test(text) || !/51,?500/.test(text)) throw new Error('the panel does not show both figures (42000 and 51500)');
    return 'signals table with the confirmation, both figures and both sources';
  });

  await step('Ask shows Sources used and Uncertainty and conflicts', async () => {
    await closeAllEditors();
    await runCommand('Relata: Ask');
    const frame = await webviewFrame('Ask Relata');
    await frame.locator('textarea').fill('What did the GC-2 refurbishment by Example Ltd cost?');
    await frame.locator('textarea').press('Enter');
    const deadline = Date.now() + 120_000;
    for (;;) {
      const text = await webviewText(frame);
      const unavailable = text.match(NOT_AVAILABLE);
      if (unavailable) throw new Skip(`relata/ask is ${unavailable[0]}`);
      if (text.includes('Sources used') || text.includes('Matching passages')) {
        if (!text.includes('Uncertainty and conflicts')) throw new Error('no "Uncertainty and conflicts" section for a question with a recorded contradiction');
        // The screenshot shows the conflicts (the input box stays pinned over the page's bottom).
        await frame.evaluate(() =>
          [...document.querySelectorAll('#app h3')].find((heading) => heading.textContent === 'Uncertainty and conflicts')?.scrollIntoView({ block: 'center' }),
        );
        return 'answer with Sources used and Uncertainty and conflicts';
      }
      if (Date.now() > deadline) throw new Error(`no answer within 120 s: ${text.slice(-200)}`);
      await page.waitForTimeout(500);
    }
  });

  await step('Scoring model page shows the live weights', async () => {
    await runCommand('Relata: Show Scoring Model');
    const frame = await webviewFrame('scoring model');
    const deadline = Date.now() + 20_000;
    for (;;) {
      const text = await webviewText(frame);
      const unavailable = text.match(NOT_AVAILABLE);
      if (unavailable) throw new Skip(`relata/scoringModel is ${unavailable[0]}`);
      if (text.includes('relationship-score-v2')) return 'weights and thresholds';
      if (Date.now() > deadline) throw new Error(`unexpected page: ${text.slice(0, 200)}`);
      await page.waitForTimeout(250);
    }
  });
  const proposalsView = async () => {
    await page.keyboard.press('Escape');
    const view = page.locator('.pane', { hasText: 'Proposals' }).first();
    if (!(await view.isVisible().catch(() => false))) await page.locator('.activitybar .action-item a[aria-label^="Relata"]').first().click();
    await view.waitFor({ timeout: 15_000 });
    return view;
  };
  /** Each row of the tree as a person sees it: its text, its depth and its icon (a codicon name). */
  const treeRows = (view) =>
    view.locator('.monaco-list-row').evaluateAll((rows) =>
      rows.map((row) => ({
        text: row.innerText.replace(/\s+/g, ' ').trim(),
        level: Number(row.getAttribute('aria-level')),
        expanded: row.getAttribute('aria-expanded'),
        icon: (row.querySelector('.custom-view-tree-node-item-icon')?.className.match(/codicon-([\w-]+)/) ?? [])[1] ?? null,
      })),
    );
  // shared/reviewOrder.ts's order, each type in the words the tree shows (shared/wording.ts's typeName).
  const REVIEW_ORDER = ['contradicts', 'supports', 'derived from', 'supersedes', 'updates', 'same thing', 'may explain', 'links to', 'similar', 'mentions', 'happened before', 'happened after'];

  await step('Proposals tree: an icon per type, contradictions first, a count badge', async () => {
    if (!proposalLabel) throw new Skip('no proposal was confirmed above, so the tree has none to show');
    await closeAllEditors();
    const view = await proposalsView();
    const expand = async (name) => {
      const row = view.locator('.monaco-list-row', { hasText: new RegExp(`^${name}`) }).first();
      if ((await row.getAttribute('aria-expanded')) === 'false') await row.click();
    };
    await expand('Pending review');
    await expand('Confirmed');
    const rows = await treeRows(view);
    const pendingAt = rows.findIndex((row) => row.level === 1 && row.text.startsWith('Pending review'));
    const confirmedAt = rows.findIndex((row) => row.level === 1 && row.text.startsWith('Confirmed'));
    const pendingRows = rows.slice(pendingAt + 1, confirmedAt);
    const groups = pendingRows.filter((row) => row.level === 2).map((row) => row.text.replace(/\s*\d+$/, ''));
    const order = groups.map((group) => REVIEW_ORDER.indexOf(group));
    if (order.some((at, index) => at < 0 || (index > 0 && at < order[index - 1]))) throw new Error(`type groups not in review order: ${groups.join(', ')}`);
    const icons = new Set(rows.filter((row) => row.level >= 2 && row.icon).map((row) => row.icon));
    if (icons.size < 3) throw new Error(`rows share few icons: ${[...icons].join(', ') || 'none'}`);
    const firstPending = pendingRows.find((row) => row.level === 3);
    if (!firstPending || !/^.+ ↔ .+\d\.\d\d/.test(firstPending.text)) throw new Error(`a pending row is not the pair with its strength: "${firstPending?.text}"`);
    // The contradiction confirmed above: first under Confirmed, led by its type and strength, with the warning icon.
    const firstConfirmed = rows[confirmedAt + 1];
    if (!firstConfirmed || !/^.+ ↔ .+contradicts 1\.00/.test(firstConfirmed.text) || firstConfirmed.icon !== 'warning') {
      throw new Error(`the first confirmed row is not the contradiction with its icon: ${JSON.stringify(firstConfirmed)}`);
    }
    if (!/confirmed .*\d/.test(firstConfirmed.text) || /\d{4}-\d\d-\d\dT/.test(firstConfirmed.text)) throw new Error(`the decision's date is not shown in words: ${firstConfirmed.text}`);
    const pendingContradiction = pendingRows.find((row) => row.level === 2 && row.text.startsWith('contradicts'));
    if (pendingContradiction && groups[0] !== 'contradicts') throw new Error('a contradiction is pending but is not the first group');
    const badge = (await page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Relata"]') }).locator('.badge-content').first().innerText({ timeout: 5000 }).catch(() => '')).trim();
    if (!/^\d+$/.test(badge)) throw new Error(`no count badge on the Relata view (${JSON.stringify(badge)})`);
    return `groups ${groups.join(' > ')}; ${icons.size} icons (${[...icons].join(', ')}); first confirmed "${firstConfirmed.text}"; badge ${badge}`;
  });

  await step('One relationship panel for two clicks on the same relationship', async () => {
    if (!proposalLabel) throw new Skip('no proposal was confirmed above');
    await closeAllEditors();
    const view = await proposalsView();
    const pending = view.locator('.monaco-list-row', { hasText: /^Pending review/ }).first();
    if ((await pending.getAttribute('aria-expanded')) === 'true') await pending.click();
    const confirmed = view.locator('.monaco-list-row', { hasText: /^Confirmed/ }).first();
    if ((await confirmed.getAttribute('aria-expanded')) === 'false') await confirmed.click();
    const row = view.locator('.monaco-list-row', { hasText: proposalLabel }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await webviewFrame('Signals');
    await page.waitForTimeout(1000);
    await row.click();
    await page.waitForTimeout(2000);
    const tabs = await page.locator('.editor-group-container .tab').allInnerTexts();
    const groups = await page.locator('.editor-group-container').count();
    if (tabs.length !== 1 || groups !== 1) throw new Error(`two clicks gave ${tabs.length} tabs in ${groups} editor groups: ${tabs.join(' | ')}`);
    if (!tabs[0].includes('↔')) throw new Error(`the tab is not titled with the pair: ${tabs[0]}`);
    const frame = await webviewFrame('Your decision');
    const buttons = await frame.locator('#app button.primary').allInnerTexts();
    if (!buttons.some((text) => text.includes('Undo / change decision'))) throw new Error(`no "Undo / change decision" on a confirmed relationship: ${buttons.join(', ')}`);
    if (buttons.some((text) => /^Confirm$/.test(text.trim()))) throw new Error('"Confirm" is still offered on a confirmed relationship');
    const text = await webviewText(frame);
    if (!/Confirmed by .+ on /.test(text)) throw new Error('the decision (who, when) is not shown');
    await frame.evaluate(() => document.querySelector('section.decision')?.scrollIntoView({ block: 'center' }));
    return `1 tab "${tabs[0].trim()}" in 1 editor group; the decision shown with Undo / change decision`;
  });

  await step('Hover: not over a plain word, shown over a name Relata knows', async () => {
    await closeAllEditors();
    await openFile('gantry-crane-gc2-refurbishment-report.md');
    const relataHover = page.locator('.monaco-hover', { hasText: /Relata|mentioned in|mentions it/ });
    // "Prepared", the first word of a line with no name under it: the hover delay is 300 ms, so 3 s is ample.
    await pointAt(/^Prepared\sby\sMr\./);
    await page.waitForTimeout(3000);
    if (await relataHover.first().isVisible().catch(() => false)) throw new Error(`a Relata hover over a plain word: ${(await relataHover.first().innerText()).slice(0, 120)}`);
    await shot('no-hover-over-a-plain-word');
    await pointAt(/^Example\sLtd\scarried\sout/);
    await relataHover.first().waitFor({ state: 'visible', timeout: 20_000 });
    return 'nothing over "Prepared"; the name hover over "Example Ltd"';
  });

  /** Types a query into Search Knowledge and returns the rows once the results for it are shown. */
  async function searchFor(query, expected) {
    await runCommand('Relata: Search Knowledge');
    const input = page.locator('.quick-input-widget input');
    await input.fill(query);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: expected }).first();
    await row.waitFor({ timeout: 60_000 });
    await page.waitForTimeout(300);
    // textContent: a row's detail line is not always part of its innerText.
    return page.locator('.quick-input-list .monaco-list-row').allTextContents();
  }

  await step('Search rows show the path and name what matched, with the words marked', async () => {
    const rows = await searchFor('gantry crane refurbishment cost', /relevance|Search failed|No matching/);
    const first = rows.find((row) => /relevance/.test(row));
    if (!first) throw new Error(`no result row: ${rows.join(' | ').slice(0, 300)}`);
    if (!/[\w-]+\.(md|txt|docx|pdf|json) · (lines|pages|paragraphs) \d/.test(first)) throw new Error(`the first row shows no path: ${first}`);
    if (!/contains [^·]*"(crane|refurbishment|cost)"/.test(first)) throw new Error(`the first row does not name the words found: ${first}`);
    if (!/«(crane|refurbishment|cost)»/i.test(first)) throw new Error(`the passage has no marked words: ${first}`);
    if (rows.some((row) => /\*\*|\$\(/.test(row))) throw new Error('a row shows markup as text');
    return first.replace(/\s+/g, ' ').slice(0, 160);
  });

  await step('Why in full, from the row button', async () => {
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'relevance' }).first();
    await row.hover();
    await row.locator('.action-label[aria-label^="Why this matched"]').click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10_000 });
    const text = await dialog.innerText();
    if (!/Why it matched:/.test(text) || !/not a probability/.test(text)) throw new Error(`the dialog does not explain the match: ${text.slice(0, 200)}`);
    await shot('search-why-in-full');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    return text.split('\n').find((line) => /contains/.test(line))?.trim() ?? 'reasons and contributions';
  });

  await step('A row button lists the item’s relationships', async () => {
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'relevance' }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.hover();
    await row.locator('.action-label[aria-label^="Show this item"]').click();
    const related = page.locator('.quick-input-list .monaco-list-row', { hasText: /strength \d\.\d\d \(not a probability\)/ }).first();
    await related.waitFor({ timeout: 20_000 });
    const texts = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    return `${texts.length} relationships, e.g. ${texts[0].replace(/\s+/g, ' ').slice(0, 100)}`;
  });

  await step('A weak match says so', async () => {
    // Of four words only "budget" is in the demo folder, and nothing is close in meaning.
    const rows = await searchFor('zebra savannah migration budget', /No strong match|No matching|relevance/);
    if (!rows.some((row) => row.includes('No strong match; these are the closest items.'))) throw new Error(`no weak-match notice: ${rows.join(' | ').slice(0, 200)}`);
    if (!rows.some((row) => /relevance 1\.00/.test(row))) throw new Error('the closest items are not listed under the notice');
    return rows[0].split('\n')[0];
  });

  await step('Ask without a model shows the passages with the answering sentences highlighted, and keeps the conversation', async () => {
    await page.keyboard.press('Escape');
    await closeAllEditors();
    await runCommand('Relata: Ask');
    const question = 'What was the final cost of the GC-2 refurbishment?';
    let frame = await webviewFrame('Ask Relata');
    await frame.locator('textarea').fill(question);
    await frame.locator('textarea').press('Enter');
    const deadline = Date.now() + 120_000;
    // The newest turn is this question's, answered (the page may first redraw the earlier conversation).
    const newest = () => frame.locator('.turn').last();
    while (!(await newest().innerText().catch(() => '')).includes(question) || (await newest().innerText()).includes('Retrieving')) {
      if (Date.now() > deadline) throw new Error('no answer within 120 s');
      await page.waitForTimeout(500);
    }
    const before = await frame.locator('.turn').count();
    const last = newest();
    const highlighted = await last.locator('mark.hit').count();
    if (highlighted === 0) throw new Error('no sentence is highlighted in the sources');
    const marked = await last.locator('mark.hit strong').allInnerTexts();
    if (!marked.some((text) => /42,000|51,500|cost/i.test(text))) throw new Error(`the marked words are ${marked.join(', ')}`);
    const paths = await last.locator('.source-path').allInnerTexts();
    if (paths.length === 0 || !paths.every((text) => /\.(md|txt|docx|pdf|json) · (lines?|pages?|paragraphs?) \d/.test(text))) throw new Error(`sources without paths: ${paths.join(' | ')}`);
    if ((await last.locator('.gap').count()) === 0) throw new Error('every passage is quoted whole');
    const top = await last.evaluate((element) => element.getBoundingClientRect().top);
    if (top < -5 || top > 200) throw new Error(`the new answer is not scrolled into view (its top is at ${top}px)`);
    await shot('ask-highlighted-passages');
    // Closed and reopened in the same window, the conversation is still there.
    await closeAllEditors();
    await runCommand('Relata: Ask');
    frame = await webviewFrame(question);
    const turns = await frame.locator('.turn').count();
    if (turns < before) throw new Error(`reopened with ${turns} turn(s)`);
    return `${highlighted} highlighted sentence(s), marked: ${[...new Set(marked)].slice(0, 5).join(', ')}; ${paths.length} sources with paths; ${turns} turns after reopening`;
  });

  await step('Graph view shows the current file and its relationships; a click on an edge opens the relationship', async () => {
    await closeAllEditors();
    await openFile('gantry-crane-gc2-refurbishment-report.md');
    await runCommand('Relata: Show Graph');
    const frame = await webviewFrame('relationships');
    await frame.waitForFunction(() => document.body.dataset.graph === 'rendered', undefined, { timeout: 60_000 });
    const status = await frame.locator('.graph-status').innerText();
    const drawn = status.match(/^(\d+) items?, (\d+) relationships? · around (\S+)/);
    if (!drawn) throw new Error(`the graph does not show the current file's neighbourhood: ${status}`);
    if (Number(drawn[2]) < 1) throw new Error(`no relationships drawn: ${status}`);
    await shot('graph-view');
    // Cytoscape keeps its instance on the container: the longest edge on screen, clicked at its middle.
    const target = await frame.evaluate(() => {
      const cy = document.getElementById('graph')._cyreg.cy;
      const length = (edge) => Math.hypot(edge.source().renderedPosition('x') - edge.target().renderedPosition('x'), edge.source().renderedPosition('y') - edge.target().renderedPosition('y'));
      const edge = cy.edges().sort((a, b) => length(b) - length(a))[0];
      return { ...edge.renderedMidpoint(), pair: `${edge.source().data('label')} → ${edge.target().data('label')}` };
    });
    const canvas = await frame.locator('#graph').boundingBox();
    await page.mouse.move(canvas.x + target.x, canvas.y + target.y);
    const tip = await frame.locator('.graph-tooltip').innerText({ timeout: 5000 }).catch(() => '');
    if (!/strength \d\.\d\d \(relationship strength 0-1 from weighted signals; not a probability\)/.test(tip)) throw new Error(`the edge's tooltip does not give its strength as a strength: ${tip}`);
    await shot('graph-edge-tooltip');
    await page.mouse.click(canvas.x + target.x, canvas.y + target.y);
    // The graph's own tooltip speaks of signals too: the panel is the page with the signals table's total.
    await webviewFrame('Sum of contributions').catch(() => {
      throw new Error('no relationship panel with its signals opened');
    });
    return `${drawn[1]} items and ${drawn[2]} relationships around ${drawn[3]}; the edge ${target.pair} opened its relationship panel`;
  });

  await step('Ctrl+K K opens Search Knowledge', async () => {
    await closeAllEditors();
    await page.keyboard.press('Escape');
    await page.locator('.monaco-workbench').click({ position: { x: 800, y: 500 } });
    await page.keyboard.press('Control+K');
    await page.keyboard.press('K');
    const title = page.locator('.quick-input-widget .quick-input-title', { hasText: 'Search Knowledge' });
    await title.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Escape');
    return 'the chord opened the Search Knowledge box';
  });

  await step('Pause and resume indexing (status bar)', async () => {
    await runCommand('Relata: Pause Indexing');
    await waitForStatus(/Relata: paused/, 20_000);
    await shot('indexing-paused');
    await runCommand('Relata: Resume Indexing');
    const text = await waitForStatus(/Relata: \d+ indexed/, INDEXING_TIMEOUT_MS);
    return `paused, then "${text}" after resuming`;
  });

  await step('The walkthrough opens; a step is ticked once its button is used', async () => {
    await closeAllEditors();
    await runCommand('Welcome: Open Walkthrough...');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Relata' }).first().click({ timeout: 15_000 });
    const steps = page.locator('.getting-started-step');
    await steps.filter({ hasText: 'What Relata does' }).first().waitFor({ timeout: 15_000 });
    const titles = await steps.allInnerTexts();
    for (const expected of ['What Relata does', 'See the indexing status', 'Try a search', 'Review a proposal', 'Choose the model for answers']) {
      if (!titles.some((title) => title.includes(expected))) throw new Error(`no step "${expected}" in ${JSON.stringify(titles)}`);
    }
    // VS Code counts a step's events from the moment the walkthrough service starts, so a search
    // run earlier in the scenario may or may not have ticked it: the step's own button is used.
    const ticked = () => page.locator('.getting-started-step[data-step-id$="#trySearch"] .codicon.complete').count();
    const trySearch = steps.filter({ hasText: 'Try a search' }).first();
    // The title toggles the step: clicked only when it is not open already.
    if (!(await trySearch.evaluate((element) => element.classList.contains('expanded')))) await trySearch.click();
    // Clicked again (at most three times) when the picker does not open: in one CI run the first
    // click went unheard, as keys sometimes do after a step that moved the focus (runCommand).
    for (let attempt = 1; ; attempt += 1) {
      await trySearch.getByRole('button', { name: 'Search Knowledge' }).click({ timeout: 10_000 });
      const opened = await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
      if (opened) break;
      if (attempt === 3) throw new Error('the Search Knowledge picker did not open after three clicks on the step\'s button');
    }
    await page.keyboard.press('Escape');
    const deadline = Date.now() + 10_000;
    while (!(await ticked())) {
      if (Date.now() > deadline) throw new Error('"Try a search" is not ticked after its button ran Search Knowledge');
      await page.waitForTimeout(250);
    }
    // The step's picture, beside the list, for the screenshot.
    await page.locator('.getting-started-media img, .getting-started-media iframe').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    await page.waitForTimeout(1000);
    return '5 steps; "Try a search" ticked by its button';
  });

  /** Asks in a freshly opened Ask panel and returns the newest turn's locator once it is answered. */
  async function askInPanel(question) {
    await closeAllEditors();
    await runCommand('Relata: Ask');
    const frame = await webviewFrame('Ask Relata');
    await frame.locator('textarea').fill(question);
    await frame.locator('textarea').press('Enter');
    const newest = () => frame.locator('.turn').last();
    const deadline = Date.now() + 120_000;
    while (!(await newest().innerText().catch(() => '')).includes(question) || (await newest().innerText()).includes('Retrieving')) {
      if (Date.now() > deadline) throw new Error(`no answer to "${question}" within 120 s`);
      await page.waitForTimeout(500);
    }
    return newest();
  }

  await step('Ask with relata.answers.provider "auto" and no model in the editor says so above the passages', async () => {
    // code-server has no chat model (no Copilot), and this window configures no local model or endpoint.
    const turn = await askInPanel('Who refurbished the GC-2 crane?');
    const note = (await turn.locator('.model-note').innerText({ timeout: 5000 }).catch(() => '')).trim();
    if (!/No language model is available in the editor/.test(note)) throw new Error(`the note says "${note}"`);
    if (!/Showing the matching passages only/.test(note)) throw new Error(`the note does not say the passages are shown: "${note}"`);
    const order = await turn.evaluate((element) => {
      const noteAt = [...element.querySelectorAll('*')].findIndex((node) => node.classList.contains('model-note'));
      // With no answer written the passages are headed as what was found, not as sources used.
      const sourcesAt = [...element.querySelectorAll('*')].findIndex((node) => node.tagName === 'H3' && node.textContent === 'Matching passages');
      return { noteAt, sourcesAt };
    });
    if (order.sourcesAt < 0) throw new Error('no "Matching passages": the retrieval is missing');
    if (order.noteAt > order.sourcesAt) throw new Error('the note is below the sources');
    const sources = await turn.locator('.source-path').count();
    if (sources === 0) throw new Error('no source is listed');
    return `"${note.slice(0, 90)}…" above ${sources} source(s)`;
  });

  /** Runs "Relata: Show Editor Model Status" and returns its dialog's text (the dialog is left open for the screenshot). */
  async function editorModelStatus() {
    await closeAllEditors();
    await runCommand('Relata: Show Editor Model Status');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    await page.locator('.monaco-dialog-box', { hasText: 'Agent tools' }).waitFor({ timeout: 15_000 });
    return (await dialog.innerText()).replace(/[ \t]+/g, ' ');
  }

  async function closeDialog() {
    await page.keyboard.press('Escape');
    await page.locator('.monaco-dialog-box').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  }

  await step('The @relata chat participant and the four agent tools are registered', async () => {
    // The tools are read back from the editor's own registry (vscode.lm.tools), not from the extension's word.
    const text = await editorModelStatus();
    await shot('editor-model-status');
    await closeDialog();
    if (!text.includes('Chat participant @relata: registered')) throw new Error(`the participant is not registered: ${text}`);
    for (const tool of ['relata_search', 'relata_relationships', 'relata_conflicts', 'relata_item']) {
      if (!text.includes(tool)) throw new Error(`${tool} is not among the editor's tools: ${text}`);
    }
    if (!/The editor has no language model/.test(text)) throw new Error(`expected no chat model in code-server: ${text}`);
    return text.split('\n').filter((line) => /Chat participant|Agent tools/.test(line)).join(' ');
  });

  await step('With a scripted chat model in the editor, Ask is answered by it through the extension (vscode.lm)', async () => {
    // test/e2e/scripted-model: a test-only extension offering a chat model through the proposed chatProvider API.
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>E2E Test: Offer a Scripted Chat Model');
    const offer = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Offer a Scripted Chat Model' }).first();
    if (!(await offer.waitFor({ timeout: 10_000 }).then(() => true, () => false))) throw new Skip('the scripted-model test extension is not installed');
    await page.keyboard.press('Enter');
    const status = await editorModelStatus();
    await closeDialog();
    if (!/Scripted Model \(relata-e2e\)/.test(status)) throw new Skip(`the editor lists no scripted model (proposed API not enabled?): ${status.split('\n').find((line) => /model/.test(line))}`);
    const turn = await askInPanel('What was the final cost of the GC-2 refurbishment?');
    const answer = (await turn.locator('.answer').innerText({ timeout: 5000 }).catch(() => '')).trim();
    const text = await turn.innerText();
    if (!/^Scripted answer/.test(answer)) throw new Error(`no answer from the scripted model: ${text.slice(0, 300)}`);
    if (!/Model: editor:Scripted Model \(relata-e2e\)/.test(text)) throw new Error(`the answer does not name the editor's model: ${text.slice(0, 300)}`);
    if ((await turn.locator('.model-note').count()) > 0) throw new Error(`a model note with an answer: ${await turn.locator('.model-note').innerText()}`);
    if (!text.includes('Sources used')) throw new Error('the sources are missing');
    return `"${answer.slice(0, 80)}" · ${text.match(/Model: [^\n]+/)[0]}`;
  });

  /** Runs a command of the scripted-model test extension; false when it is not installed. */
  async function testCommand(title) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill(`>E2E Test: ${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    if (!(await row.waitFor({ timeout: 10_000 }).then(() => true, () => false))) return false;
    await page.keyboard.press('Enter');
    return true;
  }

  const chatResponses = page.locator('.interactive-item-container.interactive-response');

  /** The chat response after the `before`th once it contains `pattern`. */
  async function chatResponse(before, pattern, name) {
    const chat = page.locator('.interactive-session');
    if (!(await chat.waitFor({ timeout: 15_000 }).then(() => true, () => false))) throw new Skip('code-server shows no chat view');
    const response = chatResponses.nth(before);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const text = (await response.innerText({ timeout: 1000 }).catch(() => '')).replace(/\s+/g, ' ');
      if (pattern.test(text)) return { response, text };
      if (Date.now() > deadline) {
        await shot(name);
        throw new Error(`no @relata response matching ${pattern} within 60 s: "${(await chat.innerText()).replace(/\s+/g, ' ').slice(-300)}"`);
      }
      await page.waitForTimeout(500);
    }
  }

  await step('@relata in the chat view answers with the chat\'s model, its sources and Uncertainty and conflicts', async () => {
    // The test extension also registers a default chat participant (proposed defaultChatParticipant API): that is what makes code-server show its chat view.
    await closeAllEditors();
    const before = await chatResponses.count();
    if (!(await testCommand('Open the Chat with a Question for the Participant'))) throw new Skip('the scripted-model test extension is not installed');
    const { response, text } = await chatResponse(before, /Uncertainty and conflicts/, 'chat-answer');
    await response.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shot('chat-answer');
    if (!/Scripted answer/.test(text)) throw new Error(`the answer is not the chat model's: ${text.slice(0, 300)}`);
    if (!/Sources used/.test(text)) throw new Error(`no "Sources used": ${text.slice(0, 300)}`);
    const anchors = await response.locator('.chat-inline-anchor-widget, a[data-href]').count();
    if (anchors === 0) throw new Error('no source opens at its passage (no anchor in the response)');
    for (const button of ['Show the relationship', 'Open both sources']) {
      if ((await response.getByRole('button', { name: button }).count()) === 0) throw new Error(`no "${button}" button`);
    }
    return `${text.slice(text.indexOf('Scripted answer'), text.indexOf('Scripted answer') + 80)}…; ${anchors} source anchors; buttons "Show the relationship", "Open both sources"`;
  });

  await step('@relata /conflicts lists the contradiction; its button opens the relationship panel, where a person decides', async () => {
    const before = await chatResponses.count();
    if (!(await testCommand('Open the Chat with the Participant\'s Conflicts Command'))) throw new Skip('the scripted-model test extension is not installed');
    const { response, text } = await chatResponse(before, /says .*(42,?000|51,?500)/, 'chat-conflicts');
    if (!/42,?000/.test(text) || !/51,?500/.test(text)) throw new Error(`both figures are not shown: ${text.slice(0, 300)}`);
    await shot('chat-conflicts');
    await response.getByRole('button', { name: 'Show the relationship' }).first().click();
    const frame = await webviewFrame('Signals');
    const panel = await webviewText(frame);
    if (!panel.includes('different figures')) throw new Error('the relationship panel that opened is not the contradiction\'s');
    return 'both figures with their sentences; "Show the relationship" opened the contradiction\'s panel, where its decision controls are';
  });

  await step('An agent\'s call to relata_search through the editor returns the search JSON, marked untrusted', async () => {
    if (!values.logs) throw new Skip('no --logs folder: the tool result file is not known');
    const resultFile = path.join(values.logs, 'tmp', 'relata-e2e-tool-result.txt');
    rmSync(resultFile, { force: true });
    await closeAllEditors();
    if (!(await testCommand('Invoke the Knowledge Search Tool'))) throw new Skip('the scripted-model test extension is not installed');
    const deadline = Date.now() + 30_000;
    while (!existsSync(resultFile)) {
      if (Date.now() > deadline) throw new Error('the tool call did not finish within 30 s');
      await page.waitForTimeout(250);
    }
    const text = readFileSync(resultFile, 'utf8');
    if (/^tool failed/.test(text)) throw new Error(text.slice(0, 300));
    const [first, ...json] = text.split('\n');
    if (!/^Relata knowledge tool result\..*untrusted content/.test(first)) throw new Error(`the first line does not say document text is untrusted: ${first}`);
    const { folders } = JSON.parse(json.join('\n'));
    const results = folders[0]?.result?.results ?? [];
    if (results.length === 0 || results.length > 3) throw new Error(`${results.length} results for limit 3`);
    if (!results.every((result) => result.why_matched.length > 0 && /not a probability/.test(result.relevance.meaning))) throw new Error('a result without why_matched or a labelled relevance');
    if (!results.some((result) => typeof result.passage?.untrusted_document_text === 'string')) throw new Error('no passage marked untrusted_document_text');
    await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    return `${results.length} results (${results.map((result) => result.path).join(', ')}), the first line marks document text untrusted`;
  });

  await step('A settings change restarts the server on the same store (decisions kept)', async () => {
    if (!proposalLabel) throw new Skip('no decision was made in the steps above to look for');
    if (!values.logs) throw new Skip('no --logs folder: the user settings and the output log are not known');
    const settingsFile = path.join(values.logs, 'user', 'User', 'settings.json');
    const dataLocation = JSON.parse(readFileSync(settingsFile, 'utf8'))['relata.store.dataLocation'];
    const log = relataLog(values.logs);
    const startsBefore = (readFileSync(log, 'utf8').match(/server started in/g) ?? []).length;
    // As a person does it, in the Settings editor: a Relata setting that restarts the server and changes nothing else.
    await closeAllEditors();
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Preferences: Open User Settings');
    // The Settings editor, not "… (JSON)".
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open User Settings' }).filter({ hasNotText: 'JSON' }).first().click({ timeout: 15_000 });
    await page.locator('.settings-editor').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1000);
    await page.keyboard.type('relata.index.maxFileMb');
    // Once the search has filtered the list down to the setting (before that, the first number is another's).
    const input = page.locator('.settings-editor .setting-item-number', { hasText: 'Max File Mb' }).locator('input').first();
    await input.waitFor({ timeout: 15_000 });
    await input.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('51');
    await input.press('Tab');
    await shot('settings-change');
    const deadline = Date.now() + 60_000;
    while ((readFileSync(log, 'utf8').match(/server started in/g) ?? []).length <= startsBefore) {
      if (Date.now() > deadline) throw new Error('the server did not restart within 60 s of the settings change');
      await page.waitForTimeout(500);
    }
    await waitForStatus(/Relata: \d+ indexed/, INDEXING_TIMEOUT_MS);
    const logText = readFileSync(log, 'utf8');
    const moved = logText.match(/the store changed from .*/);
    if (moved) throw new Error(moved[0]);
    const stores = [...logText.matchAll(/: store sqlite, (.*)/g)].map((match) => match[1]);
    if (!stores.length || !stores.every((where) => where.startsWith(dataLocation))) throw new Error(`the store is not under ${dataLocation}: ${stores.join(', ')}`);
    // The Proposals view is usually still in the side bar; only when it is not is it focused by
    // command (not by its activity bar icon: a click on the active container's icon hides the side
    // bar). The palette is not opened needlessly: with the focus on the Settings editor's gear
    // button it did not always open within 30 s.
    const view = page.locator('.pane', { hasText: 'Proposals' }).first();
    if (!(await view.isVisible().catch(() => false))) await runCommand('Focus on Proposals View');
    // The tree is refreshed by the restarted server (relata/relationshipsChanged after its first pass), from its store.
    const confirmed = view.locator('.monaco-list-row', { hasText: /^Confirmed/ }).first();
    await confirmed.waitFor({ timeout: 15_000 });
    const pending = view.locator('.monaco-list-row', { hasText: /^Pending review/ }).first();
    if ((await pending.getAttribute('aria-expanded')) === 'true') await pending.click();
    if ((await confirmed.getAttribute('aria-expanded')) === 'false') await confirmed.click();
    await view.locator('.monaco-list-row', { hasText: proposalLabel }).first().waitFor({ timeout: 15_000 }).catch(() => {
      throw new Error(`"${proposalLabel}" is no longer under Confirmed after the restart`);
    });
    return `restarted on ${stores.at(-1)}; "${proposalLabel}" still confirmed`;
  });

  await slideAndSheetResultsOpenAtTheirPassage();
  await editorRoundTwoSteps(); // editor round two (h-editor2): see the functions at the end

  await step('Multi-root: Ask asks every folder and says which', async () => {
    if (!values['multi-root-url']) throw new Skip('no --multi-root-url given');
    // Under load code-server has once opened the workspace with none of its folders ("Relata: no
    // folder"); a reload reads the workspace file again.
    const explorerShowsBoth = () =>
      page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'second-site' }).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
    await page.goto(values['multi-root-url']);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    if (!(await explorerShowsBoth())) {
      await page.reload();
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      if (!(await explorerShowsBoth())) throw new Error(`the workspace opened without its folders: ${await statusBarText()}`);
    }
    const from = performance.now();
    for (;;) {
      const text = await statusBarText();
      if (/Relata: \d+ indexed/.test(text)) break;
      if (performance.now() - from > INDEXING_TIMEOUT_MS) throw new Error(`still "${text}"`);
      await page.waitForTimeout(500);
    }
    await runCommand('Relata: Ask');
    const frame = await webviewFrame('Ask Relata');
    const options = await frame.locator('select option').allInnerTexts();
    if (!options.includes('All folders (2)')) throw new Error(`no choice of folders: ${options.join(', ')}`);
    await frame.locator('textarea').fill('Who refurbished the gantry crane and what did it cost?');
    await frame.locator('textarea').press('Enter');
    const deadline = Date.now() + 120_000;
    let text = '';
    for (;;) {
      text = await webviewText(frame);
      if (/Asked all folders: .+, .+/.test(text) && !text.includes('Retrieving')) break;
      if (Date.now() > deadline) throw new Error(`no answer from both folders within 120 s: ${text.slice(-300)}`);
      await page.waitForTimeout(500);
    }
    const headings = await frame.locator('.folder-answer h2').allInnerTexts();
    if (headings.length !== 2) throw new Error(`answers shown: ${headings.join(', ')}`);
    await frame.evaluate(() => document.querySelector('.folder-answer:last-child h2')?.scrollIntoView({ block: 'start' }));
    await shot('ask-multi-root');
    return `${text.match(/Asked all folders: [^\n]+/)[0]}; ${headings.join(', ')}`;
  });

  // ---- Issue 31 points 1, 2, 3 and 6 (h-editor1): steps in reviewAndSearchSteps.mjs ----
  await reviewAndSearchSteps({ page, step, shot, Skip, runCommand, closeAllEditors, openFile, webviewFrame, statusBarText, guidesUrl: values['guides-url'], indexingTimeoutMs: INDEXING_TIMEOUT_MS });
  // ---- end of issue 31 points 1, 2, 3 and 6 ----
  await multiRootGraphStep(); // editor round two (h-editor2): see the functions at the end
} finally {
  await context.close();
}

// ── Slides and spreadsheets: a result opens at its passage (issue 30) ─────────────────────────
// A slide deck and a workbook from the evaluation set (copied at run time, never committed) are
// dropped into the open folder; the watcher indexes them. Their search rows say where the passage
// is as the file counts it ("slides 1-3", "Feuil1, rows 1-22"), and a click opens the file's
// parsed text (VS Code cannot show the file as text) at that passage, its label in sight, its
// lines highlighted and selected; "Open original" above it opens the file itself.
async function slideAndSheetResultsOpenAtTheirPassage() {
  const documentsMore = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'eval', 'documents-more');
  const folder = new URL(values.url).searchParams.get('folder');
  const cases = [
    { name: 'A slide deck\u2019s search result opens at its slide', from: 'pptx/testPPT.pptx', file: 'testPPT.pptx', query: 'Attachment Test Rajiv', where: /slides? \d+(-\d+)?/ },
    { name: 'A spreadsheet\u2019s search result opens at its sheet and rows', from: 'xlsx/testEXCEL.xlsx', file: 'testEXCEL.xlsx', query: 'Sample Excel Worksheet Numbers and their Squares', where: /Feuil1, rows? \d+(-\d+)?/ },
  ];
  // The step before leaves the settings editor with its gear button focused under a hover, where F1 is not heard: click its empty page first.
  await page.locator('.editor-group-container.active').first().click({ position: { x: 300, y: 400 } }).catch(() => undefined);
  for (const { name, from, file, query, where } of cases) {
    await step(name, async () => {
      if (!folder) throw new Skip('no folder in --url');
      if (!existsSync(path.join(documentsMore, from))) throw new Skip(`${path.join(documentsMore, from)} is not on this machine`);
      mkdirSync(path.join(folder, 'office'), { recursive: true });
      if (!existsSync(path.join(folder, 'office', file))) copyFileSync(path.join(documentsMore, from), path.join(folder, 'office', file));
      const input = page.locator('.quick-input-widget input');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first();
      // The watcher indexes the new file in the background: search again until it is found.
      const deadline = Date.now() + 3 * 60_000;
      for (;;) {
        await runCommand('Relata: Search Knowledge');
        await input.fill(query);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: /relevance|No matching|Search failed/ }).first().waitFor({ timeout: 60_000 });
        if (await row.isVisible().catch(() => false)) break;
        if (Date.now() > deadline) throw new Error(`office/${file} was not found by "${query}" within 3 min`);
        await page.keyboard.press('Escape');
        await page.waitForTimeout(3000);
      }
      const text = (await row.textContent()) ?? '';
      const place = text.match(where)?.[0];
      if (!place) throw new Error(`the row does not say where the passage is as the file counts it: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
      if (/paragraph/.test(text)) throw new Error(`the row counts paragraphs: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
      await shot(`${file}-search-row`);
      await row.click();
      // VS Code cannot show the file as text: its parsed text opens, at the passage.
      const tab = page.locator('.tab.active', { hasText: `${file} (parsed text)` });
      await tab.waitFor({ timeout: 15_000 }).catch(() => {
        throw new Error(`${file}'s result did not open its parsed text`);
      });
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      const label = editor.locator('.view-line', { hasText: `\u2500\u2500 ${place}` }).first();
      await label.waitFor({ timeout: 15_000 }).catch(() => {
        throw new Error(`the passage's label "\u2500\u2500 ${place}" is not in sight in the parsed text`);
      });
      const selection = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
      await selection.waitFor({ timeout: 10_000 });
      await page.waitForTimeout(500);
      const cursor = (await selection.innerText()).trim();
      const selected = cursor.match(/\((\d+) selected\)/)?.[1];
      if (!selected) throw new Error(`nothing of the passage is selected (${cursor})`);
      const highlighted = await editor.locator('.view-overlays [class*="ced-"]').count();
      if (highlighted === 0) throw new Error('the passage\u2019s lines are not highlighted');
      const header = ((await editor.locator('.view-line', { hasText: 'Parsed text of' }).first().innerText().catch(() => '')) || '').replace(/\u00a0/g, ' ');
      if (!header.includes(`office/${file}`)) throw new Error(`the view does not name the file it shows: "${header.slice(0, 120)}"`);
      await shot(`${file}-parsed-text-at-passage`);
      // "Open original" (the code lens on the first line) opens the file itself.
      const lens = editor.locator('.codelens-decoration a', { hasText: 'Open original' }).first();
      await lens.waitFor({ timeout: 10_000 }).catch(() => {
        throw new Error('no "Open original" above the parsed text');
      });
      await lens.click();
      await page.locator('.tab.active', { hasText: file }).filter({ hasNotText: 'parsed text' }).waitFor({ timeout: 15_000 }).catch(() => {
        throw new Error(`"Open original" did not open office/${file}`);
      });
      await shot(`${file}-original`);
      await closeAllEditors();
      return `row says "${place}"; opened "${file} (parsed text)" at "\u2500\u2500 ${place}", ${cursor}, ${highlighted} highlighted line(s); "Open original" opened ${file}`;
    });
  }
}

const count = (outcome) => results.filter((result) => result.outcome === outcome).length;
console.log(`\n${count('PASS')} passed, ${count('SKIPPED')} skipped, ${count('FAIL')} failed in ${seconds(started)} s; screenshots in ${screenshots}`);
process.exitCode = count('FAIL') > 0 ? 1 : 0;

// ---------------------------------------------------------------------------------------------
// Editor round two (issue 31, points 4, 5 and 11; h-editor2): the walkthrough shown on first
// start, a misspelt query finding its document first, the graph filling its canvas with no two
// labels overlapping (bounding boxes read from Cytoscape on the page), its empty state, and one
// colour per folder in multi-root. Declared here, called from the flow above.

async function firstStartWalkthroughStep() {
  await step('First start opens Relata\'s walkthrough, not the editor\'s', async () => {
    const title = page.locator('.getting-started-container, .gettingStartedContainer').getByText('Get started with Relata').first();
    await title.waitFor({ timeout: 30_000 }).catch(() => {
      throw new Error('no walkthrough "Get started with Relata" open after the first start');
    });
    const model = await page.locator('.getting-started-step', { hasText: 'Choose the model for answers' }).count();
    return `"Get started with Relata" open on first start${model ? ', with its step "Choose the model for answers"' : ''}`;
  });
}

/** The rendered boxes of every node's label (Cytoscape's own measure), and of the canvas. */
async function graphBoxes(frame) {
  return frame.evaluate(() => {
    const cy = document.getElementById('graph')._cyreg.cy;
    const canvas = document.getElementById('graph').getBoundingClientRect();
    const labels = cy.nodes().map((node) => {
      const box = node.renderedBoundingBox({ includeNodes: false, includeEdges: false, includeLabels: true });
      return { id: node.data('label'), x1: box.x1, x2: box.x2, y1: box.y1, y2: box.y2, colour: node.style('background-color') };
    });
    return { width: canvas.width, height: canvas.height, labels };
  });
}

async function editorRoundTwoSteps() {
  await step('A misspelt query finds its document first', async () => {
    await closeAllEditors();
    // Words of the report's text ("forklift" is only in its file name, which the item index does not hold).
    await firstSearchRow('reach truck colision');
    await page.waitForTimeout(500);
    const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    // Notice rows (a weak match, what was also searched) carry no file; the first result row does.
    const first = rows.find((text) => /\.(md|txt|pdf|docx|json)\b/.test(text)) ?? '';
    if (!/forklift-collision/.test(first)) throw new Error(`the first result is not the forklift incident: ${first.slice(0, 200)}`);
    // The list opens with what was searched beside the misspelt word, marked as the passages mark it, and the passage marks it too.
    const also = rows.find((text) => /also searched/i.test(text));
    if (!also) throw new Error('the list does not say what was also searched');
    if (!also.includes('«collision»')) throw new Error(`the also-searched line does not mark the corrected word: ${also}`);
    if (rows.indexOf(also) > rows.indexOf(first)) throw new Error('the also-searched line stands below the results');
    if (!first.includes('«collision»')) throw new Error(`the first result's passage does not mark the corrected word: ${first.slice(0, 200)}`);
    if (rows.some((text) => /No strong match/.test(text))) throw new Error('the corrected query is called a weak match');
    await shot('search-misspelt');
    await page.keyboard.press('Escape');
    return `${also.replace(/\s+/g, ' ')}; first: ${first.split('\n')[0]}`;
  });

  await step('The graph with no file open says what to do', async () => {
    await closeAllEditors();
    await runCommand('Relata: Show Graph');
    const frame = await webviewFrame('Open a file');
    const text = await frame.locator('.graph-empty').innerText();
    if (/0 items, 0 relationships/.test(await webviewText(frame))) throw new Error('the empty graph still counts zeros');
    return text.replace(/\s+/g, ' ');
  });

  await step('The graph fills its canvas and no two labels overlap', async () => {
    const frame = await webviewFrame('Open a file');
    await frame.locator('.graph-empty button', { hasText: 'Show all items' }).click();
    await frame.waitForFunction(() => document.body.dataset.graph === 'rendered', undefined, { timeout: 60_000 });
    const { width, height, labels } = await graphBoxes(frame);
    if (labels.length < 3) throw new Error(`only ${labels.length} items drawn`);
    const overlapping = [];
    for (let i = 0; i < labels.length; i += 1) {
      for (let j = i + 1; j < labels.length; j += 1) {
        const a = labels[i];
        const b = labels[j];
        if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlapping.push(`${a.id} / ${b.id}`);
      }
    }
    const spanX = Math.max(...labels.map((l) => l.x2)) - Math.min(...labels.map((l) => l.x1));
    const spanY = Math.max(...labels.map((l) => l.y2)) - Math.min(...labels.map((l) => l.y1));
    await shot('graph-all-items');
    if (overlapping.length > 0) throw new Error(`${overlapping.length} label pairs overlap: ${overlapping.slice(0, 3).join('; ')}`);
    if (spanX < width * 0.6 || spanY < height * 0.5) throw new Error(`the graph spans ${Math.round(spanX)}×${Math.round(spanY)} of a ${Math.round(width)}×${Math.round(height)} canvas`);
    return `${labels.length} labels, none overlapping; the graph spans ${Math.round(spanX)}×${Math.round(spanY)} of ${Math.round(width)}×${Math.round(height)}`;
  });
}

async function multiRootGraphStep() {
  await step('Multi-root: the graph gives each folder its colour', async () => {
    if (!values['multi-root-url']) throw new Skip('no --multi-root-url given');
    await closeAllEditors();
    await runCommand('Relata: Show Graph');
    const frame = await webviewFrame('Open a file');
    await frame.locator('.graph-empty button', { hasText: 'Show all items' }).click();
    await frame.waitForFunction(() => document.body.dataset.graph === 'rendered', undefined, { timeout: 60_000 });
    const { labels } = await graphBoxes(frame);
    const colours = new Set(labels.map((label) => label.colour));
    const legend = await frame.locator('.graph-folders').innerText().catch(() => '');
    await shot('graph-multi-root');
    if (colours.size < 2) throw new Error(`one colour for ${labels.length} items of two folders`);
    return `${colours.size} colours; legend: ${legend.replace(/\s+/g, ' ')}`;
  });
}
