// `relata/knowledgeTool`: the editor's agent mode calls the same read-only tools `relata mcp`
// offers (knowledge/knowledgeTools.ts), so an agent in the editor and one outside it read the same
// answers, with the same labels on every number and the same marks on document text.

import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import type { KnowledgeToolAnswer, KnowledgeToolParams } from '../../../shared/protocol.ts';
import {
  conflictsOf,
  itemKnowledge,
  itemRelationships,
  KnowledgeRequestError,
  relatedKnowledge,
  searchKnowledge,
  type KnowledgeContext,
} from '../knowledge/knowledgeTools.ts';
import type { Thresholds } from '../scoring/index.ts';
import type { FolderSession } from './folderSession.ts';
import type { FolderSessions } from './folderSessions.ts';

const DEFAULT_SEARCH_LIMIT = 10;

/** The folders a call reads: the one named, the one holding an absolute path, or (search, conflicts without a path) every folder. */
function foldersFor(sessions: FolderSessions, params: KnowledgeToolParams): FolderSession[] {
  if (params.folder) return [sessions.byFolder(params.folder)];
  const given = params.input.path;
  if (given === undefined) return sessions.all();
  const uri = given.startsWith('file:') ? given : path.isAbsolute(given) ? pathToFileURL(given).href : null;
  const holding = uri ? sessions.byFile(uri)?.session : undefined;
  return [holding ?? sessions.all()[0]].filter((session): session is FolderSession => session !== undefined);
}

function pathOf(params: KnowledgeToolParams): string {
  const given = params.input.path;
  if (given === undefined) throw new KnowledgeRequestError(`${params.tool} needs a path: the item's path relative to its folder, as search results give it`);
  return given.startsWith('file:') ? fileURLToPath(given) : given;
}

function run(context: KnowledgeContext, params: KnowledgeToolParams): Promise<unknown> {
  switch (params.tool) {
    case 'search':
      if (params.input.query === undefined) throw new KnowledgeRequestError('search needs a query: say what to search for');
      return searchKnowledge(context, params.input.query, params.input.limit ?? DEFAULT_SEARCH_LIMIT);
    case 'relationships':
      return itemRelationships(context, pathOf(params));
    case 'related':
      return relatedKnowledge(context, pathOf(params), params.input.limit ?? DEFAULT_SEARCH_LIMIT, params.input.onlyUnlinked ?? false);
    case 'conflicts':
      return conflictsOf(context, params.input.path === undefined ? undefined : pathOf(params));
    case 'item':
      return itemKnowledge(context, pathOf(params));
  }
}

/** Each folder answers on its own: one that cannot (no such item, store not open) says why, and the others still answer. */
export async function answerKnowledgeTool(
  sessions: FolderSessions,
  params: KnowledgeToolParams,
  thresholds: Thresholds,
): Promise<{ folders: KnowledgeToolAnswer[] }> {
  const folders = foldersFor(sessions, params);
  return {
    folders: await Promise.all(
      folders.map(async (session): Promise<KnowledgeToolAnswer> => {
        try {
          const index = await session.ready();
          if (!index) return { folder: session.uri, name: session.name, error: `${session.name}: ${session.reason ?? 'the index is not open yet'}` };
          const context: KnowledgeContext = { store: index.store, root: session.folder, embedder: await session.queryEmbedder(), thresholds };
          return { folder: session.uri, name: session.name, result: await run(context, params) };
        } catch (error) {
          const reason = error instanceof KnowledgeRequestError ? error.message : `could not read the store: ${(error as Error).message}`;
          return { folder: session.uri, name: session.name, error: reason };
        }
      }),
    ),
  };
}
