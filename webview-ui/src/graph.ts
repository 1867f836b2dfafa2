// The graph view: items as nodes, relationships as edges (colour by type, width by strength,
// pattern by review status), drawn by Cytoscape.js on a canvas after graphLayout.ts has placed the
// items. Filters (type, status, minimum strength, folder) and the scope (the current file's
// neighbourhood, or everything) go to the extension as a query; the extension answers with the
// graph. Clicking an item opens its file; clicking a relationship opens its panel.

import cytoscape from 'cytoscape';
import { DEFAULT_GRAPH_STATUSES, GRAPH_STATUSES, GRAPH_TYPES, type GraphEdge, type GraphNode, type RelationshipGraph } from '../../shared/graph.ts';
import type { GraphQuery, HostMessage } from '../../shared/webviewMessages.ts';
import type { RelationshipStatus, RelationshipType } from '../../shared/types.ts';
import { action, figure, h, render } from './dom.ts';
import { arrangeForCanvas, dotSize, LABELLED_ITEMS_LIMIT } from './graphArrange.ts';
import { layoutSteps, type Position } from './graphLayout.ts';
import { folderColour, graphStylesheet, LARGE_GRAPH_EDGES, TYPE_COLOURS, typeLabel } from './graphStyle.ts';
import { onHostMessage, send } from './host.ts';

type GraphMessage = Extract<HostMessage, { kind: 'graph' }>;

const STATUS_WORDS: Record<RelationshipStatus, string> = { pending: 'pending review', confirmed: 'confirmed', rejected: 'rejected' };

let query: GraphQuery = { scope: 'neighbourhood', statuses: [...DEFAULT_GRAPH_STATUSES], minStrength: 0 };
/** Where each item was last placed: the next layout starts from there. */
const placed = new Map<string, Position>();
let cy: cytoscape.Core | null = null;
/** Each new answer cancels the layout of the one before. */
let drawing = 0;

const status = h('p', { class: 'muted graph-status', role: 'status' }, 'Loading…');
const folderLegend = h('div', { class: 'graph-row graph-folders', role: 'group', 'aria-label': 'Folders' });
/** Shown in place of the canvas when there is nothing to draw: what to do instead. */
const emptyState = h('div', { class: 'graph-empty' });
const tooltip = h('div', { class: 'graph-tooltip', role: 'tooltip' });
const canvas = h('div', { id: 'graph', class: 'graph-canvas' });
const folderChoice = h('select', { 'aria-label': 'Folder' });
const scopeButton = h('button', { type: 'button', class: 'secondary' });
const strengthInput = h('input', { type: 'range', min: '0', max: '1', step: '0.05', value: '0', 'aria-label': 'Minimum strength' });
const strengthValue = h('span', { class: 'num' }, '0.00');

function ask(change: Partial<GraphQuery>): void {
  query = { ...query, ...change };
  scopeButton.textContent = query.scope === 'neighbourhood' ? 'Show all items' : 'Show current file only';
  // A neighbourhood stays in its file's folder; the choice applies to the whole view.
  folderChoice.disabled = query.scope === 'neighbourhood';
  send({ kind: 'graphQuery', ...query });
}

function checkbox(label: string, checked: boolean, onChange: (checked: boolean) => void, swatch?: string): HTMLElement {
  const input = h('input', { type: 'checkbox' });
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  const mark = h('span', { class: 'swatch' });
  if (swatch) mark.style.setProperty('background', swatch);
  return h('label', { class: 'graph-check' }, input, swatch ? mark : null, label);
}

function controls(): HTMLElement {
  const types = new Set<RelationshipType>(GRAPH_TYPES);
  const typeBoxes = GRAPH_TYPES.map((type) =>
    checkbox(typeLabel(type), true, (checked) => {
      if (checked) types.add(type);
      else types.delete(type);
      ask({ types: types.size === GRAPH_TYPES.length ? undefined : [...types] });
    }, TYPE_COLOURS[type]),
  );
  const statuses = new Set<RelationshipStatus>(query.statuses);
  const statusBoxes = GRAPH_STATUSES.map((value) =>
    checkbox(value, statuses.has(value), (checked) => {
      if (checked) statuses.add(value);
      else statuses.delete(value);
      ask({ statuses: GRAPH_STATUSES.filter((candidate) => statuses.has(candidate)) });
    }),
  );
  strengthInput.addEventListener('input', () => (strengthValue.textContent = figure(Number(strengthInput.value))));
  strengthInput.addEventListener('change', () => ask({ minStrength: Number(strengthInput.value) }));
  folderChoice.addEventListener('change', () => ask({ folder: folderChoice.value || undefined }));
  scopeButton.addEventListener('click', () => ask({ scope: query.scope === 'neighbourhood' ? 'all' : 'neighbourhood' }));
  return h(
    'div',
    { class: 'graph-controls' },
    h('div', { class: 'graph-row' }, scopeButton, folderChoice, h('label', { class: 'graph-check' }, 'Minimum strength ', strengthInput, ' ', strengthValue)),
    h('div', { class: 'graph-row', role: 'group', 'aria-label': 'Status' }, h('span', { class: 'muted' }, 'Status:'), ...statusBoxes, h('span', { class: 'muted' }, 'pending dashed, confirmed solid, rejected dotted; a link the documents state is an arrow from the linking file')),
    h('div', { class: 'graph-row', role: 'group', 'aria-label': 'Relationship types' }, h('span', { class: 'muted' }, 'Types:'), ...typeBoxes),
  );
}

function showFolders(folders: GraphMessage['folders']): void {
  folderChoice.hidden = folders.length < 2;
  if (folderChoice.options.length === folders.length + 1) return;
  folderChoice.replaceChildren(h('option', { value: '' }, 'All folders'), ...folders.map((folder) => h('option', { value: folder.folder }, folder.name)));
}

const nodeName = (node: GraphNode) => node.title ?? node.path;

const counted = (count: number, noun: string) => `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;

/** Why there is nothing to draw, and what to do: a neighbourhood needs a file, a folder needs indexed items. */
function emptyWords(message: GraphMessage): string {
  const { notice } = message.result;
  if (message.query.scope === 'neighbourhood' && message.focusPath === null) return 'Open a file of this folder to see its neighbourhood here, or show every item.';
  if (notice) return notice;
  if (message.query.scope === 'neighbourhood') return `${message.focusPath} has no relationships with the filters chosen: widen the filters, or show every item.`;
  return 'No item has a relationship with the filters chosen yet: widen the filters, or wait for indexing to find relationships.';
}

function showEmpty(message: GraphMessage): void {
  const showAll = message.query.scope === 'neighbourhood' ? action('Show all items', () => ask({ scope: 'all' }), 'primary') : null;
  emptyState.replaceChildren(h('p', {}, emptyWords(message)), showAll ?? '');
  emptyState.hidden = false;
}

/** In a multi-root graph each folder has its colour, named here. */
function showFolderLegend(graph: RelationshipGraph, colours: Map<string, string>, folders: GraphMessage['folders']): void {
  const shown = folders.filter((folder) => colours.has(folder.folder));
  folderLegend.hidden = shown.length < 2;
  folderLegend.replaceChildren(
    h('span', { class: 'muted' }, 'Folders:'),
    ...shown.map((folder) => {
      const dot = h('span', { class: 'swatch dot' });
      dot.style.setProperty('background', colours.get(folder.folder)!);
      const count = graph.nodes.filter((node) => node.folder === folder.folder).length;
      return h('span', { class: 'graph-check' }, dot, `${folder.name} (${counted(count, 'item')})`);
    }),
  );
}

function describe(message: GraphMessage): string {
  const { graph, notice, folders } = message.result;
  const parts = [`${counted(graph.nodes.length, 'item')}, ${counted(graph.edges.length, 'relationship')}`];
  if (graph.scope.kind === 'neighbourhood') parts.push(`around ${message.focusPath ?? 'the current file'} (${graph.scope.depth} steps)`);
  else parts.push('all items');
  if (graph.leftOut) parts.push(`${graph.leftOut.items.toLocaleString()} items and ${graph.leftOut.relationships.toLocaleString()} relationships left out to stay responsive (the weakest first): narrow the filters to see them`);
  for (const folder of folders) if (folder.error) parts.push(`${folder.name}: ${folder.error}`);
  if (notice) parts.push(notice);
  return parts.join(' · ');
}

function edgeTip(edge: GraphEdge, nodes: Map<string, GraphNode>): string {
  const from = nodes.get(edge.source)!;
  const to = nodes.get(edge.target)!;
  return `${typeLabel(edge.type)}: ${nodeName(from)} → ${nodeName(to)}\nstrength ${figure(edge.strength)} (relationship strength 0-1 from weighted signals; not a probability)\n${STATUS_WORDS[edge.status]} · click to open the relationship`;
}

function nodeTip(node: GraphNode): string {
  return `${nodeName(node)}\n${node.path}\n${node.degree} relationship${node.degree === 1 ? '' : 's'} shown · click to open the file`;
}

/** One colour per folder drawn, in the order the folders are listed. */
function folderColours(graph: RelationshipGraph, folders: GraphMessage['folders']): Map<string, string> {
  const drawn = new Set(graph.nodes.map((node) => node.folder));
  const order = [...folders.map((folder) => folder.folder).filter((folder) => drawn.has(folder)), ...drawn];
  return new Map([...new Set(order)].map((folder, index) => [folder, folderColour(index)]));
}

function elements(graph: RelationshipGraph, positions: Map<string, Position>, colours: Map<string, string>): cytoscape.ElementDefinition[] {
  const focus = graph.scope.kind === 'neighbourhood' ? graph.scope.node : null;
  return [
    ...graph.nodes.map((node) => ({
      group: 'nodes' as const,
      data: { id: node.id, label: nodeName(node), degree: node.degree, size: dotSize(node.degree), colour: colours.get(node.folder) },
      position: positions.get(node.id) ?? { x: 0, y: 0 },
      classes: node.id === focus ? 'focus' : '',
    })),
    ...graph.edges.map((edge) => ({
      group: 'edges' as const,
      data: { id: edge.id, source: edge.source, target: edge.target, strength: edge.strength, colour: TYPE_COLOURS[edge.type] },
      classes: edge.type === 'links_to' ? `${edge.status} link` : edge.status,
    })),
  ];
}

function showTip(text: string, event: cytoscape.EventObject): void {
  tooltip.textContent = text;
  tooltip.style.setProperty('left', `${event.renderedPosition.x + 12}px`);
  tooltip.style.setProperty('top', `${event.renderedPosition.y + 12}px`);
  tooltip.hidden = false;
}

function draw(message: GraphMessage, positions: Map<string, Position>): void {
  const { graph } = message.result;
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const edges = new Map(graph.edges.map((edge) => [edge.id, edge]));
  const large = graph.edges.length > LARGE_GRAPH_EDGES;
  const colours = folderColours(graph, message.folders);
  showFolderLegend(graph, colours, message.folders);
  cy?.destroy();
  tooltip.hidden = true;
  const core = cytoscape({
    container: canvas,
    elements: elements(graph, positions, colours),
    style: graphStylesheet(large, graph.nodes.length <= LABELLED_ITEMS_LIMIT),
    layout: { name: 'preset', fit: true, padding: 30 },
    minZoom: 0.02,
    maxZoom: 6,
    // Large graphs: one plain pixel per canvas pixel and no edges mid-gesture keep pan and zoom at frame rate.
    pixelRatio: large ? 1 : 'auto',
    hideEdgesOnViewport: large,
    boxSelectionEnabled: false,
  });
  cy = core;
  core.on('tap', 'node', (event) => {
    const node = nodes.get(event.target.id());
    if (node) send({ kind: 'open', folder: node.folder, path: node.path });
  });
  core.on('tap', 'edge', (event) => {
    const edge = edges.get(event.target.id());
    if (edge) send({ kind: 'openRelationship', folder: edge.folder, id: edge.relationship_id });
  });
  core.on('mouseover', 'node', (event) => {
    event.target.addClass('hovered');
    showTip(nodeTip(nodes.get(event.target.id())!), event);
  });
  core.on('mouseout', 'node', (event) => event.target.removeClass('hovered'));
  core.on('mouseover', 'edge', (event) => showTip(edgeTip(edges.get(event.target.id())!, nodes), event));
  core.on('mouseout viewport', () => (tooltip.hidden = true));
  core.one('render', () =>
    requestAnimationFrame(() => {
      performance.mark('relata-graph-rendered');
      document.body.dataset['graph'] = 'rendered';
    }),
  );
}

/** Places the items a few iterations per frame, saying how far it is, then draws. */
function layoutAndDraw(message: GraphMessage): void {
  const turn = ++drawing;
  const { graph } = message.result;
  status.className = 'muted graph-status';
  document.body.dataset['graph'] = 'laying-out';
  performance.mark('relata-graph-received');
  if (graph.nodes.length === 0) {
    cy?.destroy();
    cy = null;
    folderLegend.hidden = true;
    status.textContent = message.result.folders.flatMap((folder) => (folder.error ? [`${folder.name}: ${folder.error}`] : [])).join(' · ');
    showEmpty(message);
    document.body.dataset['graph'] = 'empty';
    return;
  }
  emptyState.hidden = true;
  const steps = layoutSteps(graph, placed);
  const summary = describe(message);
  const step = () => {
    if (turn !== drawing) return;
    const next = steps.next();
    if (!next.done) {
      status.textContent = `Placing ${graph.nodes.length.toLocaleString()} items… ${Math.round(next.value * 100)}%`;
      setTimeout(step, 0);
      return;
    }
    performance.mark('relata-graph-laid-out');
    for (const [id, position] of next.value) placed.set(id, { ...position });
    status.textContent = summary;
    const items = graph.nodes.map((node) => ({ id: node.id, label: nodeName(node), size: dotSize(node.degree) }));
    draw(message, arrangeForCanvas(items, next.value, { width: canvas.clientWidth, height: canvas.clientHeight }));
  };
  step();
}

function start(): void {
  document.body.classList.add('graph-body');
  // Cytoscape adds an inline <style> (its container's position) unless an element with this id
  // exists; the CSP refuses inline styles, and webview.css positions the container already.
  document.head.append(h('meta', { id: '__________cytoscape_stylesheet', name: 'relata-graph' }));
  render(h('div', { class: 'graph-page' }, controls(), folderLegend, status, h('div', { class: 'graph-frame' }, canvas, emptyState, tooltip)));
  folderLegend.hidden = true;
  emptyState.hidden = true;
  tooltip.hidden = true;
  folderChoice.hidden = true;
  ask({});
}

onHostMessage((message) => {
  if (message.kind === 'graph') {
    query = message.query;
    showFolders(message.folders);
    layoutAndDraw(message);
  } else if (message.kind === 'error') {
    status.textContent = message.message;
    status.className = 'error graph-status';
  }
});
start();
