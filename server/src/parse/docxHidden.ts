// Word can hide a run of text from the reader: marked hidden (w:vanish), coloured like the page
// behind it, or set at one point. mammoth converts such runs like any other, so before it reads a
// part, each hidden run's text is swapped for a marker ("\uE000<n>\uE001"). The block walker
// strips the markers, which says where each hidden run was, and the run's text is reported as
// hidden rather than indexed. Only the text of the runs is touched; the rest of the XML is
// passed on byte for byte.
//
// Best effort: direct run properties, the run's character style, its paragraph's style and the
// document defaults are read; style inheritance (basedOn), themes and text boxes drawn over
// text are not.

import { DomUtils, parseDocument } from 'htmlparser2';
import type { HiddenTextKind } from './types.ts';

type XmlElement = Parameters<typeof DomUtils.getAttributeValue>[0];

/** w:sz is in half-points: 4 is 2 pt, too small for anyone to read. */
const MAX_TINY_HALF_POINTS = 4;
/** How close (per RGB channel, of 255) a run's colour must be to what is behind it to be unreadable. */
const SAME_COLOUR_TOLERANCE = 16;
const PAGE_WHITE = 'FFFFFF';

export const HIDDEN_MARKER = /\uE000(\d+)\uE001/g;

export function hiddenMarker(index: number): string {
  return `\uE000${index}\uE001`;
}

export interface HiddenRun {
  kind: HiddenTextKind;
  text: string;
}

/** The run properties that decide visibility; undefined where a level does not set them. */
interface RunLook {
  vanish?: boolean;
  colour?: string;
  halfPoints?: number;
  fill?: string;
}

/** Character and paragraph styles by id, plus the document defaults under the key ''. */
export type RunStyles = ReadonlyMap<string, RunLook>;

function xml(source: string) {
  return parseDocument(source, { xmlMode: true, withStartIndices: true, withEndIndices: true });
}

function attribute(element: XmlElement | undefined, name: string): string | undefined {
  return element === undefined ? undefined : DomUtils.getAttributeValue(element, name);
}

function child(element: XmlElement | null | undefined, name: string): XmlElement | undefined {
  return element?.children.find((node): node is XmlElement => DomUtils.isTag(node) && node.name === name);
}

function on(element: XmlElement | undefined): boolean | undefined {
  if (element === undefined) return undefined;
  const value = DomUtils.getAttributeValue(element, 'w:val');
  return value !== 'false' && value !== '0' && value !== 'off';
}

function hex(value: string | undefined): string | undefined {
  return value !== undefined && /^[0-9a-f]{6}$/i.test(value) ? value.toUpperCase() : undefined;
}

function look(rPr: XmlElement | undefined): RunLook {
  if (rPr === undefined) return {};
  const vanish = [on(child(rPr, 'w:vanish')), on(child(rPr, 'w:specVanish')), on(child(rPr, 'w:webHidden'))];
  const size = attribute(child(rPr, 'w:sz'), 'w:val');
  const highlight = attribute(child(rPr, 'w:highlight'), 'w:val');
  return {
    vanish: vanish.some((value) => value === true) ? true : vanish.some((value) => value === false) ? false : undefined,
    colour: hex(attribute(child(rPr, 'w:color'), 'w:val')),
    halfPoints: size !== undefined && /^\d+$/.test(size) ? Number(size) : undefined,
    fill: shading(rPr) ?? (highlight !== undefined && highlight !== 'none' ? highlight : undefined),
  };
}

function shading(properties: XmlElement | undefined): string | undefined {
  return hex(attribute(child(properties, 'w:shd'), 'w:fill'));
}

/** Reads word/styles.xml for the run properties that can hide text. */
export function readRunStyles(stylesXml: string | null): RunStyles {
  const styles = new Map<string, RunLook>();
  if (stylesXml === null) return styles;
  const document = xml(stylesXml);
  const defaults = DomUtils.findOne((el) => el.name === 'w:rPrDefault', document.children);
  if (defaults) styles.set('', look(child(defaults, 'w:rPr')));
  for (const style of DomUtils.findAll((el) => el.name === 'w:style', document.children)) {
    const id = DomUtils.getAttributeValue(style, 'w:styleId');
    if (id) styles.set(id, look(child(style, 'w:rPr')));
  }
  return styles;
}

function closest(element: XmlElement, name: string): XmlElement | null {
  let parent = element.parent;
  while (parent !== null) {
    if (DomUtils.isTag(parent) && parent.name === name) return parent;
    parent = parent.parent;
  }
  return null;
}

function channelsClose(a: string, b: string): boolean {
  for (let i = 0; i < 6; i += 2) {
    if (Math.abs(parseInt(a.slice(i, i + 2), 16) - parseInt(b.slice(i, i + 2), 16)) > SAME_COLOUR_TOLERANCE) return false;
  }
  return true;
}

function hiddenKind(run: XmlElement, styles: RunStyles, page: string): HiddenTextKind | null {
  const paragraph = closest(run, 'w:p');
  const pPr = child(paragraph, 'w:pPr');
  const direct = look(child(run, 'w:rPr'));
  const runStyle = styles.get(attribute(child(child(run, 'w:rPr'), 'w:rStyle'), 'w:val') ?? '\0');
  const paragraphStyle = styles.get(attribute(child(pPr, 'w:pStyle'), 'w:val') ?? '\0');
  const levels = [direct, runStyle ?? {}, paragraphStyle ?? {}, styles.get('') ?? {}];
  const pick = <K extends keyof RunLook>(key: K): RunLook[K] => levels.find((level) => level[key] !== undefined)?.[key];

  if (pick('vanish') === true) return 'vanish_run';
  const colour = pick('colour');
  if (colour !== undefined) {
    const cell = closest(run, 'w:tc');
    const behind = direct.fill ?? runStyle?.fill ?? shading(pPr) ?? shading(child(cell ?? undefined, 'w:tcPr')) ?? page;
    if (channelsClose(colour, behind)) return 'white_text';
  }
  const halfPoints = pick('halfPoints');
  if (halfPoints !== undefined && halfPoints <= MAX_TINY_HALF_POINTS) return 'tiny_text';
  return null;
}

/**
 * Replaces the text of every hidden run in one WordprocessingML part with a marker numbered from
 * `firstIndex`; consecutive hidden runs of the same kind in one paragraph share one marker.
 */
export function markHiddenRuns(partXml: string, styles: RunStyles, firstIndex: number): { xml: string; runs: HiddenRun[] } {
  const document = xml(partXml);
  const background = DomUtils.findOne((el) => el.name === 'w:background', document.children);
  const page = hex(background ? DomUtils.getAttributeValue(background, 'w:color') : undefined) ?? PAGE_WHITE;
  const runs: HiddenRun[] = [];
  const edits: { start: number; end: number; text: string }[] = [];
  let previous: { paragraph: XmlElement | null; kind: HiddenTextKind } | null = null;
  for (const run of DomUtils.findAll((el) => el.name === 'w:r', document.children)) {
    const texts = run.children.filter((node): node is XmlElement => DomUtils.isTag(node) && node.name === 'w:t');
    const text = texts.map((t) => DomUtils.textContent(t)).join('');
    if (text === '') continue;
    const kind = hiddenKind(run, styles, page);
    const paragraph = closest(run, 'w:p');
    if (kind === null) {
      previous = null;
      continue;
    }
    const continues = previous !== null && previous.paragraph === paragraph && previous.kind === kind;
    if (continues) runs[runs.length - 1]!.text += text;
    else runs.push({ kind, text });
    let marker = continues ? '' : hiddenMarker(firstIndex + runs.length - 1);
    for (const t of texts) {
      const content = t.children[0];
      if (content === undefined || content.startIndex === null || content.endIndex === null) continue;
      edits.push({ start: content.startIndex, end: content.endIndex + 1, text: marker });
      marker = '';
    }
    previous = { paragraph, kind };
  }
  let rewritten = partXml;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    rewritten = rewritten.slice(0, edit.start) + edit.text + rewritten.slice(edit.end);
  }
  return { xml: rewritten, runs };
}
