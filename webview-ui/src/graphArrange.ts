// Fits a finished layout to the canvas it is drawn on and keeps labels apart. ForceAtlas2 leaves
// a graph in its own shape and scale, often a clump with a few items far out (unconnected ones
// pushed away), which the view then fits as a small clump in an empty canvas with labels on top
// of each other. Here the empty bands far-out items leave are closed (they sit just beyond the
// rest) and the layout is stretched to the canvas's proportions, then each item's box, its dot and its
// label below it, is pushed apart from every box it overlaps. Labels are drawn in the graph's own
// units (they grow and shrink with the zoom), so boxes apart here are apart at any zoom.
// No DOM: tested in Node (test/unit/graphArrange.test.ts).

import type { Position } from './graphLayout.ts';

export interface Canvas {
  width: number;
  height: number;
}

/** What a box is made of: the label's text and the dot's size, as graphStyle.ts draws them. */
export interface LabelledItem {
  id: string;
  label: string;
  /** The dot's diameter, in graph units. */
  size: number;
}

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Above this many items labels are not all drawn (they show on hover and when zoomed in), and are not kept apart. */
export const LABELLED_ITEMS_LIMIT = 300;

/** As graphStyle.ts sets them: the label's font size, its widest line, its gap below the dot. */
export const LABEL_FONT = 10;
export const LABEL_MAX_WIDTH = 160;
const LABEL_GAP = 3;
/** A generous average glyph width for a 10-unit sans-serif font, so an estimate is never narrower than the drawing. */
const GLYPH_WIDTH = 6.2;
/** Space kept between boxes. */
const MARGIN = 4;
const PADDING = 30;

/** A dot's diameter by the relationships drawn at it, as graphStyle.ts draws it: 8 to 28 units. */
export const dotSize = (degree: number) => 8 + Math.min(Math.max(degree, 0), 20);

/** Where an item's dot and label lie when its dot is at `at`. */
export function boxOf(item: LabelledItem, at: Position): Box {
  const labelWidth = Math.min(LABEL_MAX_WIDTH, item.label.length * GLYPH_WIDTH);
  const half = Math.max(labelWidth, item.size) / 2;
  return { left: at.x - half, right: at.x + half, top: at.y - item.size / 2, bottom: at.y + item.size / 2 + LABEL_GAP + LABEL_FONT * 1.3 };
}

export const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** A gap between neighbouring items along an axis is at most this many times the typical (median) gap. */
const MAX_GAP = 3;

/**
 * One axis with its empty bands closed: sorted, every gap between neighbouring values is capped at
 * MAX_GAP times the median gap, so an item pushed far out (an unconnected item, another folder's
 * lone item) sits just beyond the rest instead of leaving the rest a clump in a corner. Order is kept.
 */
function closeGaps(values: readonly number[]): (value: number) => number {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((value, index) => value - sorted[index]!);
  const typical = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 0;
  const closed = new Map<number, number>();
  let at = 0;
  sorted.forEach((value, index) => {
    if (index > 0) at += Math.min(gaps[index - 1]!, MAX_GAP * typical);
    closed.set(value, at);
  });
  return (value) => closed.get(value)!;
}

/**
 * Stretches the layout to the canvas (less its padding), each axis on its own, so the graph fills
 * it, after closing the empty bands far-out items leave (closeGaps).
 */
export function fillCanvas(positions: ReadonlyMap<string, Position>, canvas: Canvas): Map<string, Position> {
  const out = new Map<string, Position>();
  const width = Math.max(canvas.width - 2 * PADDING, 50);
  const height = Math.max(canvas.height - 2 * PADDING, 50);
  if (positions.size === 1) {
    for (const id of positions.keys()) out.set(id, { x: width / 2, y: height / 2 });
    return out;
  }
  const axis = (pick: (position: Position) => number, extent: number) => {
    const closed = closeGaps([...positions.values()].map(pick));
    const span = Math.max(...[...positions.values()].map((position) => closed(pick(position))));
    return (value: number) => (span <= 1e-9 ? extent / 2 : closed(value) * (extent / span));
  };
  const x = axis((position) => position.x, width);
  const y = axis((position) => position.y, height);
  for (const [id, position] of positions) out.set(id, { x: x(position.x), y: y(position.y) });
  return out;
}

/**
 * Pushes overlapping boxes apart, each pair along the axis where they overlap least, half each,
 * until none overlaps (or a generous number of rounds). Deterministic: the same input gives the
 * same places.
 */
export function separateLabels(items: readonly LabelledItem[], positions: Map<string, Position>, rounds = 400): Map<string, Position> {
  const placed = items.filter((item) => positions.has(item.id));
  for (let round = 0; round < rounds; round += 1) {
    let moved = false;
    const boxes = placed.map((item) => boxOf(item, positions.get(item.id)!));
    for (let i = 0; i < placed.length; i += 1) {
      for (let j = i + 1; j < placed.length; j += 1) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (!overlap(a, b)) continue;
        moved = true;
        const p = positions.get(placed[i]!.id)!;
        const q = positions.get(placed[j]!.id)!;
        const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left) + MARGIN;
        const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) + MARGIN;
        // Labels are wide and short: moving up or down usually frees a pair with less travel.
        if (dy <= dx) {
          const down = q.y > p.y || (q.y === p.y && j > i) ? 1 : -1;
          p.y -= (down * dy) / 2;
          q.y += (down * dy) / 2;
        } else {
          const right = q.x > p.x || (q.x === p.x && j > i) ? 1 : -1;
          p.x -= (right * dx) / 2;
          q.x += (right * dx) / 2;
        }
        boxes[i] = boxOf(placed[i]!, p);
        boxes[j] = boxOf(placed[j]!, q);
      }
    }
    if (!moved) break;
  }
  return positions;
}

/**
 * The layout as drawn: filling the canvas, with its labels apart when there are few enough to
 * draw them all; a larger graph is spread wider than the canvas, so the view fits it zoomed out,
 * where labels are not drawn, and zooming in gives them room.
 */
export function arrangeForCanvas(items: readonly LabelledItem[], positions: ReadonlyMap<string, Position>, canvas: Canvas): Map<string, Position> {
  if (items.length <= LABELLED_ITEMS_LIMIT) return separateLabels(items, fillCanvas(positions, canvas));
  const wider = 1.5 * Math.sqrt(items.length / LABELLED_ITEMS_LIMIT);
  return fillCanvas(positions, { width: canvas.width * wider, height: canvas.height * wider });
}
