// How the graph looks: one colour per relationship type (contradictions stand out in red), edge
// width from the relationship's strength, the review status as the line's pattern (pending
// dashed, confirmed solid, rejected dotted and faint), and the theme's own colours for the rest.
// A link the documents state (`links_to`) is drawn in its own style: an arrow from the linking
// file, on a curve, so it reads as "A refers to B" and never as a mutual likeness.

import type cytoscape from 'cytoscape';
import type { RelationshipType } from '../../shared/types.ts';

export const TYPE_COLOURS: Record<RelationshipType, string> = {
  contradicts: '#e5484d',
  supports: '#30a46c',
  supersedes: '#8e4ec6',
  updates: '#0090ff',
  derived_from: '#ad7f58',
  same_entity_as: '#f76b15',
  possibly_explains: '#d6409f',
  links_to: '#3e63dd',
  similar_to: '#8d8d8d',
  mentions: '#12a594',
  occurred_before: '#e2a336',
  occurred_after: '#978365',
};

export { typeName as typeLabel } from '../../shared/wording.ts';

/** Above this many edges, labels wait for a closer zoom and edges are drawn without arrows, which keeps pan and zoom smooth. */
export const LARGE_GRAPH_EDGES = 2000;

function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

/** Each folder's colour in a multi-root graph (theme chart colours, so every theme renders them); one folder keeps the theme's blue. */
const FOLDER_COLOURS: readonly [string, string][] = [
  ['--vscode-charts-blue', '#3794ff'],
  ['--vscode-charts-orange', '#d18616'],
  ['--vscode-charts-purple', '#b180d7'],
  ['--vscode-charts-green', '#89d185'],
  ['--vscode-charts-yellow', '#cca700'],
  ['--vscode-charts-red', '#f14c4c'],
];

export function folderColour(index: number): string {
  const [name, fallback] = FOLDER_COLOURS[index % FOLDER_COLOURS.length]!;
  return themeColour(name, fallback);
}

/**
 * `large`: edges drawn plainly for speed. `labelled`: every item's label drawn (the layout kept
 * them apart); otherwise the graph is laid out wider than the canvas and a label shows on hover
 * and once zoomed in to where the labels have room.
 */
export function graphStylesheet(large: boolean, labelled: boolean): cytoscape.StylesheetJson {
  const foreground = themeColour('--vscode-foreground', '#cccccc');
  const focus = themeColour('--vscode-focusBorder', '#f9c74f');
  const background = themeColour('--vscode-editor-background', '#1e1e1e');
  return [
    {
      selector: 'node',
      style: {
        'background-color': 'data(colour)',
        width: 'data(size)',
        height: 'data(size)',
        label: 'data(label)',
        color: foreground,
        'font-size': 10,
        'text-valign': 'bottom',
        'text-margin-y': 3,
        'text-outline-color': background,
        'text-outline-width': 2,
        // Long titles are cut at the label's width; the tooltip has the whole title and the path.
        'text-wrap': 'ellipsis',
        'text-max-width': '160px',
        'min-zoomed-font-size': labelled ? 6 : 9,
      },
    },
    { selector: 'node.hovered, node.focus', style: { label: 'data(label)', 'min-zoomed-font-size': 0, 'z-index': 10 } },
    { selector: 'node.focus', style: { 'border-width': 3, 'border-color': focus, 'font-weight': 'bold' } },
    { selector: 'node:selected', style: { 'border-width': 3, 'border-color': focus } },
    {
      selector: 'edge',
      style: {
        'line-color': 'data(colour)',
        width: 'mapData(strength, 0, 1, 0.5, 6)',
        'curve-style': large ? 'haystack' : 'straight',
        opacity: 0.85,
      },
    },
    { selector: 'edge.pending', style: { 'line-style': 'dashed', 'line-dash-pattern': [6, 4] } },
    { selector: 'edge.confirmed', style: { 'line-style': 'solid' } },
    { selector: 'edge.rejected', style: { 'line-style': 'dotted', opacity: 0.35 } },
    {
      selector: 'edge.link',
      style: {
        'curve-style': 'bezier',
        'target-arrow-shape': 'triangle',
        'target-arrow-color': 'data(colour)',
        'arrow-scale': 0.9,
      },
    },
    { selector: 'edge:selected', style: { opacity: 1, 'underlay-color': focus, 'underlay-opacity': 0.4, 'underlay-padding': 3 } },
  ];
}
