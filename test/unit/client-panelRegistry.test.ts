// One panel per relationship: opening the same relationship again reveals its panel rather than
// stacking another tab; another relationship gets its own; a closed panel is made anew. The
// panel here stands for a VS Code WebviewPanel (reveal, onDidDispose), which needs a running editor;
// the e2e scenario counts the real tabs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PanelRegistry, relationshipTitle, type RegisteredPanel } from '../../client/src/webviews/panelRegistry.ts';

class StandInPanel implements RegisteredPanel {
  revealed = 0;
  private closedListeners: (() => void)[] = [];
  reveal(): void {
    this.revealed += 1;
  }
  onClosed(listener: () => void): void {
    this.closedListeners.push(listener);
  }
  close(): void {
    for (const listener of this.closedListeners) listener();
  }
}

test('the same relationship opened twice is one panel, revealed the second time', () => {
  const registry = new PanelRegistry<StandInPanel>();
  let created = 0;
  const make = () => (created += 1, new StandInPanel());
  const first = registry.show('file:///demo|r1', make);
  const again = registry.show('file:///demo|r1', make);
  assert.equal(again, first);
  assert.equal(created, 1);
  assert.equal(first.revealed, 1);
  registry.show('file:///demo|r2', make);
  assert.equal(created, 2, 'another relationship has its own panel');
  assert.equal(registry.size, 2);
});

test('a closed panel is forgotten, so opening the relationship again makes a new one', () => {
  const registry = new PanelRegistry<StandInPanel>();
  const first = registry.show('k', () => new StandInPanel());
  first.close();
  assert.equal(registry.size, 0);
  const second = registry.show('k', () => new StandInPanel());
  assert.notEqual(second, first);
});

test('the tab is titled with the pair, each name cut to fit', () => {
  assert.equal(relationshipTitle({ title: 'GC-2 refurbishment', path: 'a.md' }, { title: null, path: 'finance/q2-budget.md' }), 'GC-2 refurbishment ↔ q2-budget.md');
  const title = relationshipTitle({ title: 'A very long maintenance report title indeed', path: 'a.md' }, { title: 'B', path: 'b.md' });
  const [first, second] = title.split(' ↔ ');
  assert.ok(first!.endsWith('…') && first!.length <= 24 && 'A very long maintenance report title indeed'.startsWith(first!.slice(0, -1)), first);
  assert.equal(second, 'B');
});
