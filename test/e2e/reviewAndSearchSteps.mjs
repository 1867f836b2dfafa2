// Issue 31, points 1, 2, 3 and 6, in a real VS Code on the demo beside the English Open Source
// Guides (a folder Relata was not built for; run.sh copies it at run time): the Proposals tree at
// the default sidebar width with both names of every label in sight and group counts that match
// the rows under them; Search Knowledge grouped by folder, each folder named, its weak-match notice
// named, the folder on the row's first line in sight; a result opened at its passage (the cursor on
// the passage's lines, a few words selected, the lines highlighted); one relationship panel for
// three relationships opened in turn, in a narrow column, its decision buttons in sight and its
// signals table not cut sideways. Kept in its own module so the scenario's other steps merge
// around it; scenario.mjs passes its helpers in.

/** Every row of a list (a tree view, a quick pick), scrolled through since a list renders only the rows in sight: `read` maps the row elements in sight to what is kept (run in the page, so self-contained). */
async function allRows(page, list, read) {
  const rows = new Map();
  await list.hover();
  for (let pass = 0; pass < 40; pass += 1) {
    const seen = await list.locator('.monaco-list-row').evaluateAll(read);
    const before = rows.size;
    for (const row of seen) rows.set(row.index, row);
    if (pass > 0 && rows.size === before) break;
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(250);
  }
  // Back to the top, a wheel turn at a time as it came down (one large turn is cut short), for what follows and the screenshot.
  for (let turn = 0; turn < 40 && !(await list.locator('.monaco-list-row[data-index="0"]').isVisible().catch(() => false)); turn += 1) {
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(100);
  }
  return [...rows.values()].sort((a, b) => a.index - b.index);
}

/** Tree rows: text, depth, and whether the label and description fit. */
function treeRows(elements) {
  return elements.map((row) => {
    const container = row.querySelector('.monaco-icon-label-container');
    const name = row.querySelector('.label-name');
    const description = row.querySelector('.label-description');
    const right = container ? container.getBoundingClientRect().right : Infinity;
    return {
      level: Number(row.getAttribute('aria-level')),
      expanded: row.getAttribute('aria-expanded'),
      label: name?.textContent ?? '',
      description: description?.textContent ?? '',
      labelFits: name ? name.getBoundingClientRect().right <= right + 0.5 : true,
      index: Number(row.getAttribute('data-index')),
      descriptionFits: description ? description.getBoundingClientRect().right <= right + 0.5 : true,
    };
  });
}

/** Quick-pick rows: label, description, detail, whether each is a folder header, and whether "relevance … in <folder>" is in sight. */
function pickRows(elements) {
  return elements.map((row) => {
    const label = row.querySelector('.label-name')?.textContent ?? '';
    const descriptionElement = row.querySelector('.label-description');
    const description = descriptionElement?.textContent ?? '';
    const detail = row.querySelector('.quick-input-list-label-meta, .quick-input-list-detail')?.textContent ?? '';
    const container = row.querySelector('.monaco-icon-label-container');
    let folderInSight = null;
    const match = description.match(/relevance \d\.\d\d in [^·]+/);
    if (match && container) {
      // The text node holding the words, and their box on screen.
      const walker = document.createTreeWalker(descriptionElement, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent.indexOf(match[0].trimEnd());
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + match[0].trimEnd().length);
        folderInSight = range.getBoundingClientRect().right <= container.getBoundingClientRect().right + 0.5;
        break;
      }
    }
    return { index: Number(row.getAttribute('data-index')), label, description, detail, header: row.querySelector('.codicon-root-folder') !== null, folderInSight };
  });
}

export async function reviewAndSearchSteps({ page, step, shot, Skip, runCommand, closeAllEditors, openFile, webviewFrame, statusBarText, guidesUrl, indexingTimeoutMs }) {
  const GUIDES = 'opensource-guide-en';
  let opened = false;

  await step('Demo and Open Source Guides workspace opens and is indexed', async () => {
    if (!guidesUrl) throw new Skip('no --guides-url (the Open Source Guides are not on this machine)');
    await page.goto(guidesUrl);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const explorerShowsGuides = () =>
      page.locator('.explorer-folders-view .monaco-list-row', { hasText: GUIDES }).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
    if (!(await explorerShowsGuides())) {
      await page.reload();
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      if (!(await explorerShowsGuides())) throw new Error(`the workspace opened without the guides: ${await statusBarText()}`);
    }
    const from = Date.now();
    for (;;) {
      const text = await statusBarText();
      if (/Relata: \d+ indexed/.test(text)) {
        opened = true;
        return `"${text}" after ${((Date.now() - from) / 1000).toFixed(1)} s`;
      }
      if (Date.now() - from > indexingTimeoutMs) throw new Error(`still "${text}"`);
      await page.waitForTimeout(500);
    }
  });

  const proposalsView = async () => {
    await page.keyboard.press('Escape');
    const view = page.locator('.pane', { hasText: 'Proposals' }).first();
    if (!(await view.isVisible().catch(() => false))) await page.locator('.activitybar .action-item a[aria-label^="Relata"]').first().click();
    await view.waitFor({ timeout: 15_000 });
    await view.locator('.monaco-list-row', { hasText: '↔' }).first().waitFor({ timeout: 30_000 });
    return view;
  };

  await step('Proposals tree at the default sidebar width, two folders: every label shows both names, counts match the rows', async () => {
    if (!opened) throw new Skip('the demo and guides workspace did not open');
    await closeAllEditors();
    const view = await proposalsView();
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    const rows = await allRows(page, view.locator('.monaco-list').first(), treeRows);
    const pairs = rows.filter((row) => row.label.includes('↔'));
    if (pairs.length === 0) throw new Error('no proposal rows');
    const cut = pairs.filter((row) => !row.labelFits);
    if (cut.length > 0) throw new Error(`${cut.length} of ${pairs.length} labels cut at ${sidebar.width}px: ${cut.slice(0, 3).map((row) => row.label).join(' | ')}`);
    const twice = pairs.filter((row) => new Set(row.label.split(' ↔ ')).size < 2);
    if (twice.length > 0) throw new Error(`a label names one document twice: ${twice[0].label}`);
    // A group's or section's count is the number of rows under it (copies folded under a row, collapsed, said apart).
    const wrong = [];
    rows.forEach((row, at) => {
      const count = row.description.match(/^(\d+)/);
      if (!count || row.label.includes('↔') || row.expanded !== 'true') return;
      const end = rows.findIndex((next, index) => index > at && next.level <= row.level);
      const inside = rows.slice(at + 1, end < 0 ? undefined : end).filter((next) => next.label.includes('↔'));
      const top = Math.min(...inside.map((next) => next.level));
      const under = inside.filter((next) => next.level === top).length;
      if (under !== Number(count[1])) wrong.push(`${row.label} ${row.description} over ${under} rows`);
    });
    if (wrong.length > 0) throw new Error(`counts that do not match the rows: ${wrong.join('; ')}`);
    const strengths = pairs.filter((row) => row.descriptionFits).length;
    const folders = rows.filter((row) => row.level === 1).map((row) => row.label);
    return `${pairs.length} labels, every one with both names in sight at a ${Math.round(sidebar.width)}px sidebar (folders ${folders.join(', ')}); strength in sight on ${strengths}; counts match the rows`;
  });

  let guideResult = null;
  await step('Multi-root search is grouped by folder: each folder named, its weak-match notice named, the folder in sight on each row', async () => {
    if (!opened) throw new Skip('the demo and guides workspace did not open');
    await closeAllEditors();
    await runCommand('Relata: Search Knowledge');
    await page.locator('.quick-input-widget input').fill('choosing an open source license');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: /relevance \d\.\d\d in / }).first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
    const rows = await allRows(page, page.locator('.quick-input-list').first(), pickRows);
    const headers = rows.filter((row) => row.header).map((row) => row.label.trim());
    if (headers.length !== 2) throw new Error(`folder headers: ${JSON.stringify(headers)} in ${rows.map((row) => row.label.slice(0, 30)).join(' | ')}`);
    // Each result row sits under its own folder's header; a weak-match notice names its folder.
    let current = null;
    for (const row of rows) {
      if (row.header) current = row.label.trim();
      const inFolder = row.description.match(/relevance \d\.\d\d in (\S+)/);
      if (inFolder && inFolder[1] !== current) throw new Error(`a row of ${inFolder[1]} under ${current}: ${row.label}`);
      if (/No strong match/.test(row.label) && !row.label.includes(`${current}: No strong match`)) throw new Error(`a weak-match notice not named with its folder: ${row.label}`);
    }
    const results = rows.filter((row) => /relevance \d\.\d\d in /.test(row.description));
    const hidden = results.filter((row) => row.folderInSight !== true);
    if (hidden.length > 0) throw new Error(`the folder is not in sight on ${hidden.length} row(s): ${hidden[0].label} ${hidden[0].description.slice(0, 80)}`);
    const first = results[0];
    if (!first || !first.description.includes(`in ${GUIDES}`)) throw new Error(`the first result is not a guide: ${first?.label}`);
    const lines = first.description.match(/lines? (\d+)(?:-(\d+))?/);
    if (lines) guideResult = { index: first.index, start: Number(lines[1]), end: Number(lines[2] ?? lines[1]), label: first.label };
    const notice = rows.find((row) => /No strong match/.test(row.label));
    return `headers ${headers.join(' then ')}; ${results.length} results each under its folder with the folder in sight${notice ? `; notice "${notice.label.trim()}"` : ''}`;
  });

  await step('A search result opens at its passage: its first line in sight, a few words selected, its lines highlighted', async () => {
    if (!guideResult) throw new Skip('no guide result in the step above');
    // By its place in the list: the list reuses its row elements, so their order in the page is not the order shown.
    const row = page.locator(`.quick-input-list .monaco-list-row[data-index="${guideResult.index}"]`);
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await page.locator('.tab.active').waitFor({ timeout: 15_000 });
    const selection = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
    await selection.waitFor({ timeout: 10_000 });
    await page.waitForTimeout(500);
    const text = (await selection.innerText()).trim();
    const [, line, , selected] = text.match(/Ln (\d+), Col (\d+)(?: \((\d+) selected\))?/) ?? [];
    const { start, end } = guideResult;
    if (!(Number(line) >= start && Number(line) <= end)) throw new Error(`the cursor is on line ${line}, not in the passage's lines ${start}-${end}`);
    if (!selected || Number(selected) > 200) throw new Error(`the selection is ${selected ?? 'empty'} characters, not the query's words (${text})`);
    const highlighted = await page.locator('.editor-group-container.active .monaco-editor .view-overlays [class*="ced-"]').count();
    if (highlighted === 0) throw new Error('the passage\u2019s lines are not highlighted');
    const firstLineShown = await page.locator('.editor-group-container.active .monaco-editor .line-numbers', { hasText: new RegExp(`^${start}$`) }).count();
    if (firstLineShown === 0) throw new Error(`the passage's first line (${start}) is not in sight`);
    return `"${guideResult.label}": ${(await page.locator('.tab.active').innerText()).trim()} at ${text}; passage lines ${start}-${end}, first line in sight, ${highlighted} highlighted line(s)`;
  });

  await step('One relationship panel for three relationships opened in turn, in a narrow column: decision in sight, table not cut', async () => {
    if (!opened) throw new Skip('the demo and guides workspace did not open');
    await closeAllEditors();
    // A narrow column: three editor groups side by side, the last one active.
    await openFile('asset-register.json');
    await runCommand('View: Split Editor Right');
    await runCommand('View: Split Editor Right');
    await page.waitForTimeout(500);
    const view = await proposalsView();
    const labels = [...new Set(await view.locator('.monaco-list-row .label-name', { hasText: '↔' }).allInnerTexts())].slice(0, 3);
    if (labels.length < 3) throw new Error(`only ${labels.length} proposals in sight`);
    let previous = '';
    for (const label of labels) {
      await view.locator('.monaco-list-row', { hasText: label }).first().click();
      const deadline = Date.now() + 20_000;
      for (;;) {
        const titles = await page.locator('.editor-group-container .tab', { hasText: '↔' }).allInnerTexts();
        if (titles.length === 1 && titles[0] !== previous) {
          previous = titles[0];
          break;
        }
        if (Date.now() > deadline) throw new Error(`after opening "${label}": relationship tabs ${JSON.stringify(titles)}`);
        await page.waitForTimeout(250);
      }
    }
    const tabs = await page.locator('.editor-group-container .tab', { hasText: '↔' }).count();
    if (tabs !== 1) throw new Error(`${tabs} relationship tabs after three relationships`);
    const frame = await webviewFrame('Signals');
    await page.waitForTimeout(500);
    const layout = await frame.evaluate(() => {
      const buttons = [...document.querySelectorAll('#app section.decision button')].filter((button) => !button.closest('[hidden]'));
      const cells = [...document.querySelectorAll('table.signals td')];
      return {
        width: window.innerWidth,
        buttons: buttons.map((button) => ({ text: button.textContent, bottom: button.getBoundingClientRect().bottom })),
        height: window.innerHeight,
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        cut: cells.filter((cell) => cell.getBoundingClientRect().right > window.innerWidth + 1).length,
      };
    });
    if (layout.buttons.length === 0) throw new Error('no decision button');
    const below = layout.buttons.filter((button) => button.bottom > layout.height);
    if (below.length > 0) throw new Error(`decision buttons below the fold: ${below.map((button) => button.text).join(', ')}`);
    if (layout.sideways > 1 || layout.cut > 0) throw new Error(`the panel is cut sideways at ${layout.width}px (${layout.sideways}px wider, ${layout.cut} cells past the edge)`);
    return `3 relationships shown in turn in 1 panel ("${previous.trim()}"); at ${layout.width}px the buttons (${layout.buttons.map((button) => button.text).join(', ')}) are in sight and nothing is cut sideways`;
  });
}
