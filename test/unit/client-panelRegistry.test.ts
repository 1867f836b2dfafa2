// Relationship panels: by default one panel for every relationship, each opened in turn shown in
// it; with relata.relationshipPanel.reuse off, one per relationship; the same relationship
// opened twice is one panel, revealed; a closed panel is made anew. The panel here stands for a VS
// Code WebviewPanel (reveal, onDidDispose), which needs a running editor; the e2e scenario counts
// the real tabs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PanelRegistry, relationshipPanelKey, relationshipTitle, type RegisteredPanel } from '../../client/src/webviews/panelRegistry.ts';

class StandInPanel implements RegisteredPanel<string> {
  shown: string[] = [];
  private closedListeners: (() => void)[] = [];
  constructor(first: string) {
    this.shown.push(first);
  }
  reveal(target: string): void {
    this.shown.push(target);
  }
  onClosed(listener: () => void): void {
    this.closedListeners.push(listener);
  }
  close(): void {
    for (const listener of this.closedListeners) listener();
  }
}

function open(registry: PanelRegistry<string, StandInPanel>, reuse: boolean, id: string, made: StandInPanel[]): StandInPanel {
  return registry.show(relationshipPanelKey(reuse, 'file:///demo', id), id, (target) => {
    const panel = new StandInPanel(target);
    made.push(panel);
    return panel;
  });
}

test('by default three relationships opened in turn share one panel, which shows each in turn', () => {
  const registry = new PanelRegistry<string, StandInPanel>();
  const made: StandInPanel[] = [];
  for (const id of ['r1', 'r2', 'r3']) open(registry, true, id, made);
  assert.equal(made.length, 1);
  assert.deepEqual(made[0]!.shown, ['r1', 'r2', 'r3']);
  assert.equal(registry.size, 1);
});

test('with reuse off, each relationship has its own panel; the same one opened twice is revealed, not stacked', () => {
  const registry = new PanelRegistry<string, StandInPanel>();
  const made: StandInPanel[] = [];
  const first = open(registry, false, 'r1', made);
  const again = open(registry, false, 'r1', made);
  assert.equal(again, first);
  assert.deepEqual(first.shown, ['r1', 'r1']);
  open(registry, false, 'r2', made);
  assert.equal(made.length, 2, 'another relationship has its own panel');
  assert.equal(registry.size, 2);
});

test('a closed panel is forgotten, so opening a relationship again makes a new one', () => {
  const registry = new PanelRegistry<string, StandInPanel>();
  const made: StandInPanel[] = [];
  const first = open(registry, true, 'r1', made);
  first.close();
  assert.equal(registry.size, 0);
  const second = open(registry, true, 'r2', made);
  assert.notEqual(second, first);
  assert.deepEqual(second.shown, ['r2']);
});

test('the tab is titled with the pair, each name cut to fit', () => {
  assert.equal(relationshipTitle({ title: 'GC-2 refurbishment', path: 'a.md' }, { title: null, path: 'finance/q2-budget.md' }), 'GC-2 refurbishment ↔ q2-budget.md');
  const title = relationshipTitle({ title: 'A very long maintenance report title indeed', path: 'a.md' }, { title: 'B', path: 'b.md' });
  const [first, second] = title.split(' ↔ ');
  assert.ok(first!.endsWith('…') && first!.length <= 24 && 'A very long maintenance report title indeed'.startsWith(first!.slice(0, -1)), first);
  assert.equal(second, 'B');
});
