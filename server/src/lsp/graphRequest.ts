// Answers the graph request: which folders and which item the view is centred on, each folder's
// live items and relationships read from its own store (the whole folder, or only the focus's
// neighbourhood: engine/graphReads.ts), then the pure graph builder (engine/relationshipGraph.ts).
// A folder whose index is not open is named with its reason, not drawn.

import { DEFAULT_GRAPH_STATUSES, DEFAULT_NEIGHBOURHOOD_DEPTH, type RelationshipGraph } from '../../../shared/graph.ts';
import type { GraphParams, GraphResult } from '../../../shared/protocol.ts';
import { neighbourhoodGraphInput, wholeFolderGraphInput } from '../engine/graphReads.ts';
import { viewedItem } from '../engine/itemViews.ts';
import { buildRelationshipGraph, type FolderGraphInput, type GraphOptions } from '../engine/relationshipGraph.ts';
import type { Thresholds } from '../scoring/model.ts';
import type { FolderSession } from './folderSession.ts';
import type { FolderSessions } from './folderSessions.ts';

export async function relationshipGraph(sessions: FolderSessions, params: GraphParams, thresholds: Thresholds): Promise<GraphResult> {
  const filter = { types: params.types, statuses: params.statuses ?? DEFAULT_GRAPH_STATUSES, minStrength: params.minStrength ?? 0 };
  const depth = params.depth ?? DEFAULT_NEIGHBOURHOOD_DEPTH;
  const empty = (notice: string, folders: GraphResult['folders'] = []): GraphResult => ({ folders, graph: emptyGraph, notice });

  let chosen: FolderSession[];
  let focus: GraphOptions['focus'];
  if (params.focus) {
    // A neighbourhood never leaves its folder: relationships are within one folder's store.
    const found = sessions.byFile(params.focus);
    if (!found) return empty('The current file is not in an open folder.');
    chosen = [found.session];
    const index = await found.session.ready();
    if (!index) return empty(`${found.session.name}: ${found.session.reason ?? 'the index is not open yet'}`, [unavailable(found.session)]);
    const atPath = await index.store.getItemByPath(found.relative);
    const item = atPath && (await viewedItem(index.store, atPath)).item;
    if (!item || item.status !== 'indexed') {
      return empty(`${found.relative} is not an indexed item${item ? ` (${item.status})` : ' yet'}, so it has no relationships to draw.`, [named(found.session)]);
    }
    focus = { folder: found.session.uri, itemId: item.id, depth };
  } else {
    chosen = params.folders ? params.folders.map((folder) => sessions.byFolder(folder)) : sessions.all();
  }

  const folders: GraphResult['folders'] = [];
  const inputs: FolderGraphInput[] = [];
  for (const session of chosen) {
    const index = await session.ready();
    if (!index) {
      folders.push(unavailable(session));
      continue;
    }
    folders.push(named(session));
    inputs.push(
      focus
        ? await neighbourhoodGraphInput(index.store, session.uri, focus, filter, thresholds)
        : await wholeFolderGraphInput(index.store, session.uri, thresholds),
    );
  }
  return { folders, graph: buildRelationshipGraph(inputs, { filter, focus }), notice: null };
}

const emptyGraph: RelationshipGraph = { nodes: [], edges: [], scope: { kind: 'all' }, leftOut: null };
const named = (session: FolderSession) => ({ folder: session.uri, name: session.name });
const unavailable = (session: FolderSession) => ({ ...named(session), error: session.reason ?? 'the index is not open yet' });
