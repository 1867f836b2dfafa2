// The graph as drawn (webview-ui/src/graphArrange.ts): a layout fills the canvas whatever its own
// scale and however far out a few items were pushed, and no item's label box overlaps another's,
// even when the layout put items on top of each other.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arrangeForCanvas, boxOf, dotSize, fillCanvas, LABELLED_ITEMS_LIMIT, overlap, type LabelledItem } from '../../webview-ui/src/graphArrange.ts';
import type { Position } from '../../webview-ui/src/graphLayout.ts';

const CANVAS = { width: 1200, height: 700 };
const item = (id: string, label = `Guide to ${id}: how a project is run`): LabelledItem => ({ id, label, size: dotSize(2) });

function extent(positions: Map<string, Position>) {
  const xs = [...positions.values()].map((p) => p.x);
  const ys = [...positions.values()].map((p) => p.y);
  return { width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
}

test('a small clump with one item pushed far out fills the canvas, the far item just beyond it, not the clump in a corner', () => {
  const clump = new Map<string, Position>();
  for (let i = 0; i < 40; i += 1) clump.set(`n${i}`, { x: (i % 7) * 0.5, y: Math.floor(i / 7) * 0.5 });
  clump.set('far', { x: 5000, y: -5000 });
  const filled = fillCanvas(clump, CANVAS);
  const inner = new Map([...filled].filter(([id]) => id !== 'far'));
  const size = extent(inner);
  assert.ok(size.width > CANVAS.width * 0.6, `the clump spans ${size.width} of ${CANVAS.width}`);
  assert.ok(size.height > CANVAS.height * 0.55, `the clump spans ${size.height} of ${CANVAS.height}`);
  const far = filled.get('far')!;
  assert.ok(far.x <= CANVAS.width && far.y >= 0, 'the far item is within the canvas');
});

test('no two label boxes overlap once arranged, even for items laid on one spot', () => {
  const items = Array.from({ length: 60 }, (_, i) => item(`n${i}`));
  const stacked = new Map(items.map((one, i) => [one.id, { x: i < 30 ? 0 : 1, y: 0 }]));
  const arranged = arrangeForCanvas(items, stacked, CANVAS);
  for (let i = 0; i < items.length; i += 1) {
    for (let j = i + 1; j < items.length; j += 1) {
      const a = boxOf(items[i]!, arranged.get(items[i]!.id)!);
      const b = boxOf(items[j]!, arranged.get(items[j]!.id)!);
      assert.ok(!overlap(a, b), `${items[i]!.id} and ${items[j]!.id} overlap`);
    }
  }
});

test('the same layout is arranged the same way every time', () => {
  const items = Array.from({ length: 12 }, (_, i) => item(`n${i}`));
  const layout = () => new Map(items.map((one, i) => [one.id, { x: i % 3, y: Math.floor(i / 3) }]));
  assert.deepEqual(arrangeForCanvas(items, layout(), CANVAS), arrangeForCanvas(items, layout(), CANVAS));
});

test('a graph too large to label every item is spread wider than the canvas, so it is fitted zoomed out and labelled on zoom', () => {
  const count = LABELLED_ITEMS_LIMIT * 4;
  const items = Array.from({ length: count }, (_, i) => item(`n${i}`));
  const layout = new Map(items.map((one, i) => [one.id, { x: Math.cos(i) * i, y: Math.sin(i) * i }]));
  const size = extent(arrangeForCanvas(items, layout, CANVAS));
  assert.ok(size.width > CANVAS.width * 2, `${size.width}`);
});

test('a lone item sits in the middle of the canvas', () => {
  const one = fillCanvas(new Map([['a', { x: 123, y: 456 }]]), CANVAS);
  assert.ok(Math.abs(one.get('a')!.x - (CANVAS.width - 60) / 2) < 1);
});
