// The custom requests of shared/protocol.ts, each answered by engine calls on the folder
// sessions. Params arrive already checked against the protocol's schemas (see handle()).

import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import {
  AskRequest,
  ChooseOriginalRequest,
  ConfirmRequest,
  FileStatusRequest,
  GraphRequest,
  IndexingRequest,
  ItemRequest,
  KnowledgeToolRequest,
  ParsedTextRequest,
  RejectRequest,
  RelataErrorCodes,
  RelatedItemsRequest,
  RelatedRequest,
  RelationshipsChangedNotification,
  RelationshipRequest,
  RelationshipsRequest,
  type RelationshipsParams,
  ReindexFileRequest,
  ScoringModelRequest,
  SearchRequest,
  StatusRequest,
  type ConflictDetail,
  StoreFolderRequest,
  type EntityMentions,
  type ServerSettings,
  type StatusReport,
} from '../../../shared/protocol.ts';
import { UNDETERMINED } from '../../../shared/languages.ts';
import { answerFromRetrieval } from '../answer/answer.ts';
import { retrieveForAnswer } from '../answer/retrieval.ts';
import { itemDetail, itemMetadata, itemViews, viewedItem, withBrokenLinks } from '../engine/itemViews.ts';
import { copyGroupsAmong, relationshipsShownOnce } from '../engine/copyGroups.ts';
import { parsedTextOf } from '../engine/parsedText.ts';
import { RelatedItemError } from '../engine/related.ts';
import type { FolderIndex } from '../engine/folderIndex.ts';
import { NO_FILTER } from '../../../shared/proposalPages.ts';
import { relationshipPages, type PageRequest } from '../engine/relationshipPages.ts';
import { decide, listRelationshipViews, relationshipView } from '../engine/relationships.ts';
import { DEFAULT_RANK_VERSION, WEIGHTS_V1, WEIGHTS_V2 } from '../ranking/weights.ts';
import { scoringModel, THRESHOLD_ENV } from '../scoring/model.ts';
import { describeStore, thresholdsFor, type FolderSession } from './folderSession.ts';
import { relationshipGraph } from './graphRequest.ts';
import type { AnswerProviders } from './answerProviders.ts';
import { mentionsUnderCursor } from './hoverMentions.ts';
import { answerKnowledgeTool } from './knowledgeToolRequest.ts';
import { itemRef, relationshipConflicts, signalContributions } from '../engine/relationshipDetail.ts';
import type { FolderSessions } from './folderSessions.ts';
import { handle } from './handle.ts';

/** Other items listed under a name in a hover: enough to follow, few enough to read. */
const HOVER_MENTIONS = 50;
export interface RequestContext {
  log(message: string): void;
  statusReport(): Promise<StatusReport>;
  settings(): ServerSettings;
  /** Who answers an ask (relata.answers.provider); the server owns and closes them. */
  answerProviders: AnswerProviders;
}

/** A folder whose store could not be opened answers with the reason its status shows. */
async function openIndex(session: FolderSession): Promise<FolderIndex> {
  const index = await session.ready();
  if (!index) {
    throw new ResponseError(RelataErrorCodes.FolderUnavailable, `${session.name}: ${session.reason ?? 'the index is not open yet'}`);
  }
  return index;
}

function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new Error('cancelled');
}

/** Registers every request of the protocol. */
export function registerRequests(connection: Connection, sessions: FolderSessions, context: RequestContext): void {
  const { log } = context;
  const { answerProviders } = context;

  // The engine's decide(), as `relata decide` uses it, so the editor and the CLI record a decision alike.
  const decision = (status: 'confirmed' | 'rejected') => async (params: { folder: string; id: string; note?: string }) => {
    const session = sessions.byFolder(params.folder);
    const { store } = await openIndex(session);
    if (!(await store.getRelationship(params.id))) {
      throw new ResponseError(ErrorCodes.InvalidParams, `no relationship ${params.id} in ${session.name}`);
    }
    const decided = await decide(store, params.id, { status, by: store.workspace, note: params.note });
    void connection.sendNotification(RelationshipsChangedNotification.type, { folder: session.uri });
    return decided;
  };
  const thresholds = () => thresholdsFor(context.settings());

  handle(connection, StatusRequest, () => context.statusReport(), log);

  handle(
    connection,
    FileStatusRequest,
    async (params) => ({
      folders: await Promise.all(
        sessions.selected(params.folder).map(async (session) => ({
          folder: session.uri,
          name: session.name,
          files: session.index ? await withBrokenLinks(session.index.store, await itemViews(session.index.store)) : [],
        })),
      ),
    }),
    log,
  );

  handle(
    connection,
    IndexingRequest,
    async (params) => ({
      folders: await Promise.all(
        sessions.selected(params.folder).map(async (session) => {
          const outcome = await (params.action === 'pause' ? session.pause() : params.action === 'resume' ? session.resume() : session.indexNow());
          return { folder: session.uri, name: session.name, outcome };
        }),
      ),
    }),
    log,
  );

  handle(
    connection,
    ReindexFileRequest,
    async (params) => {
      const found = sessions.byFile(params.uri);
      if (!found) throw new ResponseError(RelataErrorCodes.UnknownFolder, `${params.uri} is not in an open folder`);
      const { session, relative } = found;
      log(`${session.name}: re-indexing ${relative}`);
      return { folder: session.uri, name: session.name, path: relative, outcome: await session.reindexFile(relative) };
    },
    log,
  );

  handle(
    connection,
    StoreFolderRequest,
    async (params) => ({
      folders: sessions.selected(params.folder).flatMap((session) => {
        const location = session.storeLocation();
        if (!location) return [];
        return [{ folder: session.uri, name: session.name, ...describeStore(location), dataDir: location.backend === 'sqlite' ? location.dataDir : null }];
      }),
    }),
    log,
  );

  handle(
    connection,
    ItemRequest,
    async (params) => {
      const found = sessions.byFile(params.uri);
      if (!found) return null;
      const index = await openIndex(found.session);
      const item = await index.store.getItemByPath(found.relative);
      return item ? { folder: found.session.uri, item: await itemDetail(index.store, item) } : null;
    },
    log,
  );

  // Scoped as every request is: a file of an open folder, read from that folder's own store.
  handle(
    connection,
    ParsedTextRequest,
    async (params) => {
      const found = sessions.byFile(params.uri);
      if (!found) return null;
      const { store } = await openIndex(found.session);
      const view = await parsedTextOf(store, found.relative);
      return view ? { folder: found.session.uri, view } : null;
    },
    log,
  );

  handle(
    connection,
    RelatedRequest,
    async (params, signal) => {
      const found = sessions.byFile(params.uri);
      if (!found) return null;
      const index = await openIndex(found.session);
      const { store } = index;
      const atPath = await store.getItemByPath(found.relative);
      if (!atPath) return null;
      const { item, identicalCopy } = await viewedItem(store, atPath);
      if (item.status !== 'indexed') return null;
      // Off the first line the hover is about the name under the cursor only, so the item's relationships are not read.
      const relationships =
        params.relationships === false
          ? []
          : await relationshipsShownOnce(
              store,
              item.id,
              (await listRelationshipViews(store, thresholds(), { itemId: item.id })).filter((relationship) => relationship.status !== 'rejected'),
            );
      checkAborted(signal);
      const conflicts: Record<string, ConflictDetail[]> = {};
      for (const relationship of relationships) {
        if (relationship.type === 'contradicts') conflicts[relationship.id] = await relationshipConflicts(store, relationship);
      }
      const mentions: EntityMentions[] = [];
      if (params.position && params.lineText !== undefined) {
        const entities = await store.listEntities(item.id);
        const ruleKeys = new Set(entities.filter((entity) => entity.producer === 'deterministic').map((entity) => entity.key));
        for (const { entity, start, end } of mentionsUnderCursor(entities, params.lineText, params.position.character)) {
          // An indexed look-up per name under the cursor, not a pass over every entity of the workspace.
          const others = await store.itemsMentioning(entity.key, item.id, HOVER_MENTIONS);
          mentions.push({
            key: entity.key,
            surface: entity.surface,
            type: entity.type,
            items: await Promise.all(others.map((id) => itemRef(store, id))),
            ...(ruleKeys.has(entity.key) ? {} : { byModel: true as const }),
            start,
            end,
          });
        }
      }
      return {
        folder: found.session.uri,
        item: await itemRef(store, item.id),
        ...(identicalCopy ? { identicalCopy } : {}),
        relationships,
        mentions,
        ...(Object.keys(conflicts).length > 0 ? { conflicts } : {}),
        ...(params.relationships === false ? {} : { metadata: await itemMetadata(store, item.id) }),
        ...(params.relationships === false ? {} : languageOf((await store.itemLanguages([item.id])).get(item.id))),
      };
    },
    log,
  );

  handle(
    connection,
    RelatedItemsRequest,
    async (params, signal) => {
      const found = sessions.byFile(params.uri);
      if (!found) return null;
      const index = await openIndex(found.session);
      try {
        const options = { limit: params.limit, onlyUnlinked: params.onlyUnlinked, minPendingScore: thresholds().storeScore };
        const related = await found.session.related(index, found.relative, options, signal);
        return { folder: found.session.uri, related };
      } catch (error) {
        // Not an indexed item (yet): the view says so, as the hover does.
        if (error instanceof RelatedItemError) return null;
        throw error;
      }
    },
    log,
  );

  handle(
    connection,
    RelationshipsRequest,
    async (params) => ({
      folders: await Promise.all(
        sessions.selected(params.folder).map(async (session) => {
          const { store } = await openIndex(session);
          const paged = params.pageSize === undefined ? null : await relationshipPages(store, thresholds(), pageRequest(params, params.pageSize, session.uri));
          const relationships = paged?.relationships ?? (await listRelationshipViews(store, thresholds(), { status: params.status }));
          const contributions = Object.fromEntries(relationships.map((relationship) => [relationship.id, signalContributions(relationship)]));
          const pages = paged ? { unitTotals: paged.unitTotals, awaitingReview: paged.awaitingReview } : {};
          return { folder: session.uri, name: session.name, relationships, copyGroups: copyGroupsAmong(relationships), contributions, ...pages };
        }),
      ),
    }),
    log,
  );

  handle(
    connection,
    RelationshipRequest,
    async (params) => {
      const session = sessions.byFolder(params.folder);
      const { store } = await openIndex(session);
      const relationship = await relationshipView(store, params.id);
      if (!relationship) return null;
      const contributions = signalContributions(relationship);
      return {
        folder: session.uri,
        relationship,
        contributions,
        uncappedTotal: contributions.reduce((sum, signal) => sum + signal.contribution, 0),
        conflicts: await relationshipConflicts(store, relationship),
      };
    },
    log,
  );

  handle(
    connection,
    SearchRequest,
    async (params, signal) => ({
      folders: await Promise.all(
        sessions.selected(params.folder).map(async (session) => {
          try {
            const index = await openIndex(session);
            checkAborted(signal);
            const response = await session.search(index, params.query, { limit: params.limit, confirmedOnly: params.confirmedOnly ?? false }, signal);
            return { folder: session.uri, name: session.name, response };
          } catch (error) {
            if (signal.aborted) throw error;
            return { folder: session.uri, name: session.name, error: (error as Error).message };
          }
        }),
      ),
    }),
    log,
  );

  handle(
    connection,
    AskRequest,
    async (params, signal) => {
      const session = params.folder ? sessions.byFolder(params.folder) : sessions.all()[0];
      if (!session) throw new ResponseError(RelataErrorCodes.UnknownFolder, 'open a folder to ask about its documents');
      const { store } = await openIndex(session);
      const retrieval = await retrieveForAnswer(store, await session.queryEmbedder(), params.question);
      checkAborted(signal);
      return { folder: session.uri, result: await answerFromRetrieval(params.question, retrieval, answerProviders.forAsk(params.askId), { signal }) };
    },
    log,
  );

  handle(connection, KnowledgeToolRequest, (params) => answerKnowledgeTool(sessions, params, thresholds()), log);

  handle(connection, GraphRequest, (params) => relationshipGraph(sessions, params, thresholds()), log);

  handle(connection, ConfirmRequest, decision('confirmed'), log);
  handle(connection, RejectRequest, decision('rejected'), log);

  handle(
    connection,
    ChooseOriginalRequest,
    async (params) => {
      const found = sessions.byFile(params.uri);
      if (!found) throw new ResponseError(ErrorCodes.InvalidParams, `${params.uri} is not in an open folder`);
      const index = await openIndex(found.session);
      const chosen = await index.chooseOriginal(found.relative).catch((error: Error) => {
        throw new ResponseError(ErrorCodes.InvalidParams, error.message);
      });
      const former = await index.store.getItem(chosen.formerOriginalId);
      void connection.sendNotification(RelationshipsChangedNotification.type, { folder: found.session.uri });
      return { folder: found.session.uri, original: found.relative, formerOriginal: former?.path ?? chosen.formerOriginalId };
    },
    log,
  );

  handle(
    connection,
    ScoringModelRequest,
    async () => {
      const model = scoringModel(thresholdsFor(context.settings()));
      return {
        score_version: model.score_version,
        weights: { ...model.weights },
        diminishing_factors: [...model.diminishing_factors],
        similarity_floor: model.similarity_floor,
        concept_base_strength: model.concept_base_strength,
        model_found_factor: model.model_found_factor,
        guessed_name_factor: model.guessed_name_factor,
        temporal_window_days: model.temporal_window_days,
        evidence_rules: [...model.evidence_rules],
        versions: [...model.versions],
        thresholds: (Object.keys(THRESHOLD_ENV) as (keyof typeof THRESHOLD_ENV)[]).map((name) => ({
          name,
          value: model.thresholds[name],
          env: THRESHOLD_ENV[name],
        })),
        rank_version: DEFAULT_RANK_VERSION,
        path_weights: { ...(DEFAULT_RANK_VERSION === 'query-rank-v1' ? WEIGHTS_V1 : WEIGHTS_V2) },
      };
    },
    log,
  );
}

/** The item's detected language for the hover, when one was told (not 'und'). */
function languageOf(language: string | undefined): { language?: string } {
  return language && language !== UNDETERMINED ? { language } : {};
}

/** A paged relationships request for one folder: its filter (narrowed to `status` when one is given) and its "Show more" rows. */
function pageRequest(params: RelationshipsParams, pageSize: number, folder: string): PageRequest {
  const filter = params.filter ?? NO_FILTER;
  return {
    filter: params.status ? { ...filter, statuses: (filter.statuses ?? [params.status]).filter((status) => status === params.status) } : filter,
    pageSize,
    moreRows: new Map((params.moreRows ?? []).filter((more) => more.folder === folder).map((more) => [more.unit, more.rows])),
  };
}
