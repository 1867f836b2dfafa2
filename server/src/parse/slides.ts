// A slide deck reads as one section per slide: the slide's title as its heading (or "Slide 4"
// when it has none), then its text boxes in reading order (top to bottom, then left to right:
// the order the XML keeps is the order shapes were drawn, not read), its tables row by row and
// its speaker notes, labelled as notes. Blocks are located by the slide's number, counted as the
// deck counts them (hidden slides included), so "page 4" is the fourth slide. A hidden slide is
// left out and reported. Shared by the PPTX and ODP readers, which differ only in their XML.

import type { Location } from '../../../shared/types.ts';
import type { Outline } from './outline.ts';

export interface SlideBox {
  /** Position on the slide (any unit, the same for all boxes of a deck); null when the XML gives none. */
  top: number | null;
  left: number | null;
  /** Paragraphs of a text box, or rows of a table (cells joined by " | "). */
  paragraphs: string[];
  table: boolean;
}

export interface SlideContent {
  title: string | null;
  boxes: SlideBox[];
  notes: string[];
  links: { target: string; text: string }[];
}

/** Shapes whose tops differ by less than this share of the slide's height sit on one line: left before right. */
const SAME_LINE = 0.02;

export function writeSlide(outline: Outline, number: number, slide: SlideContent, hidden: boolean, slideHeight: number): void {
  const location: Location = { kind: 'pages', start: number, end: number };
  const boxes = readingOrder(slide.boxes, slideHeight);
  if (hidden) {
    const text = [slide.title ?? '', ...boxes.flatMap((box) => box.paragraphs), ...slide.notes].join(' ');
    outline.conceal('hidden_slide', `Slide ${number}: ${text}`, location);
    return;
  }
  outline.resetSections();
  outline.heading(1, slide.title ?? `Slide ${number}`, location);
  for (const box of boxes) {
    if (box.table) {
      for (const row of box.paragraphs) outline.add('table_row', row, location);
      if (box.paragraphs.length > 0) outline.table(box.paragraphs.length, Math.max(...box.paragraphs.map((row) => row.split(' | ').length)), location);
    } else {
      const text = box.paragraphs.filter((paragraph) => paragraph.trim() !== '').join('\n');
      outline.add('paragraph', text, location);
    }
  }
  const notes = slide.notes.filter((note) => note.trim() !== '').join('\n');
  if (notes !== '') outline.add('paragraph', `Speaker notes: ${notes}`, location);
  for (const link of slide.links) outline.link(link.target, link.text, location);
}

/** Boxes top to bottom, left to right within a line; boxes without a position keep their place after the title. */
function readingOrder(boxes: readonly SlideBox[], slideHeight: number): SlideBox[] {
  const band = Math.max(1, slideHeight * SAME_LINE);
  return boxes
    .map((box, index) => ({ box, index }))
    .sort((a, b) => {
      const ay = a.box.top ?? -1;
      const by = b.box.top ?? -1;
      if (Math.abs(ay - by) >= band) return ay - by;
      const ax = a.box.left ?? -1;
      const bx = b.box.left ?? -1;
      return ax !== bx ? ax - bx : a.index - b.index;
    })
    .map(({ box }) => box);
}
