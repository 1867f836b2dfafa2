// The messages between the extension and its webviews (relationship panel, Ask panel, scoring
// model page), typed once for both sides. Messages from a webview are checked against these
// schemas by the extension before anything acts on them: a webview renders document text, so
// the extension treats what it sends as untrusted input.

import { GRAPH_STATUSES, GRAPH_TYPES } from './graph.ts';
import { array, integer, number, object, oneOf, optional, string, type Schema } from './schema.ts';
import type { AskResult, GraphResult, RelationshipDetail, ScoringModelView } from './protocol.ts';
import type { RelationshipStatus, RelationshipType } from './types.ts';
import { LOCATION_KINDS, SHEET_NAME_MAX_CHARS, type Location } from './types.ts';

/** A workspace folder the Ask panel can ask. */
export interface AskFolder {
  uri: string;
  name: string;
}

/** One folder's answer to a question, or why there is none. */
export interface FolderAnswer {
  folder: AskFolder;
  answer?: AskResult;
  error?: string;
}

/** A question and what each folder asked answered: the Ask panel's conversation is a list of these. */
export interface AskTurn {
  question: string;
  answers: FolderAnswer[];
}

/** extension → webview */
export type HostMessage =
  | { kind: 'relationship'; detail: RelationshipDetail }
  /** The conversation so far and the folders that can be asked: sent whenever the Ask page (re)loads. */
  | { kind: 'askState'; turns: AskTurn[]; folders: AskFolder[]; pending: { question: string; folders: AskFolder[] } | null }
  | { kind: 'asking'; question: string; folders: AskFolder[] }
  | { kind: 'answer'; turn: AskTurn }
  | { kind: 'scoringModel'; model: ScoringModelView }
  /** The graph view's drawing, for the query it answers; `focusPath` names the current file of a neighbourhood. */
  | { kind: 'graph'; query: GraphQuery; result: GraphResult; focusPath: string | null; folders: { folder: string; name: string }[] }
  /** A request failed: shown in the panel in words, never as a blank page. */
  | { kind: 'error'; message: string };

/** webview → extension */
export type ViewMessage =
  | { kind: 'ready' }
  | { kind: 'confirm'; folder: string; id: string; note?: string }
  | { kind: 'reject'; folder: string; id: string; note?: string }
  | { kind: 'openRelationship'; folder: string; id: string }
  /** Open a folder-relative file, at a passage when given. */
  | { kind: 'open'; folder: string; path: string; location?: Location }
  /** `folder` asks one workspace folder; without it, every folder is asked. */
  | { kind: 'ask'; question: string; folder?: string }
  | ({ kind: 'graphQuery' } & GraphQuery);

/** What the graph view asks to be drawn: the current file's neighbourhood or everything, and the filters. */
export interface GraphQuery {
  scope: 'neighbourhood' | 'all';
  /** One folder; every folder when absent. */
  folder?: string;
  types?: RelationshipType[];
  statuses: RelationshipStatus[];
  minStrength: number;
}

const text = (maxLength: number) => string({ minLength: 1, maxLength });
const location: Schema<Location> = object({
  kind: oneOf(LOCATION_KINDS),
  start: integer({ min: 1 }),
  end: integer({ min: 1 }),
  sheet: optional(string({ maxLength: SHEET_NAME_MAX_CHARS })),
});
const decision = object({ kind: oneOf(['confirm', 'reject'] as const), folder: text(4096), id: text(200), note: optional(string({ maxLength: 2000 })) });

const VIEW_MESSAGES: { [K in ViewMessage['kind']]: Schema<Extract<ViewMessage, { kind: K }>> } = {
  ready: object({ kind: oneOf(['ready'] as const) }),
  confirm: decision as Schema<Extract<ViewMessage, { kind: 'confirm' }>>,
  reject: decision as Schema<Extract<ViewMessage, { kind: 'reject' }>>,
  openRelationship: object({ kind: oneOf(['openRelationship'] as const), folder: text(4096), id: text(200) }),
  open: object({ kind: oneOf(['open'] as const), folder: text(4096), path: text(4096), location: optional(location) }),
  ask: object({ kind: oneOf(['ask'] as const), question: text(2000), folder: optional(text(4096)) }),
  graphQuery: object({
    kind: oneOf(['graphQuery'] as const),
    scope: oneOf(['neighbourhood', 'all'] as const),
    folder: optional(text(4096)),
    types: optional(array(oneOf(GRAPH_TYPES), { maxItems: GRAPH_TYPES.length })),
    statuses: array(oneOf(GRAPH_STATUSES), { maxItems: GRAPH_STATUSES.length }),
    minStrength: number({ min: 0, max: 1 }),
  }),
};

/** The message if it is one a webview may send, else the problems with it. */
export function parseViewMessage(raw: unknown): { message: ViewMessage } | { problems: string[] } {
  const kind = (raw as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !Object.hasOwn(VIEW_MESSAGES, kind)) {
    return { problems: [`message.kind must be one of ${Object.keys(VIEW_MESSAGES).join(', ')}`] };
  }
  const problems: string[] = [];
  VIEW_MESSAGES[kind as ViewMessage['kind']].check(raw, 'message', problems);
  return problems.length > 0 ? { problems } : { message: raw as ViewMessage };
}
