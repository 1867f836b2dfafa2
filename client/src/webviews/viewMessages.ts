// What the extension does with a message from a webview: check it against the shared schemas,
// then hand it to exactly one action. A malformed message is reported and otherwise ignored.
// Pure dispatch over an actions interface, so it is tested without VS Code.

import { parseViewMessage, type ViewMessage } from '../../../shared/webviewMessages.ts';

export interface ViewActions {
  ready(): Promise<void> | void;
  decide(message: Extract<ViewMessage, { kind: 'confirm' | 'reject' }>): Promise<void> | void;
  openRelationship(message: Extract<ViewMessage, { kind: 'openRelationship' }>): Promise<void> | void;
  open(message: Extract<ViewMessage, { kind: 'open' }>): Promise<void> | void;
  ask(message: Extract<ViewMessage, { kind: 'ask' }>): Promise<void> | void;
  /** The graph view's query; only the graph panel accepts it. */
  graphQuery?(message: Extract<ViewMessage, { kind: 'graphQuery' }>): Promise<void> | void;
  /** A message that is not one a webview may send. */
  invalid(problems: string[]): void;
}

/** Which message kinds each panel accepts; anything else is treated as invalid. */
export type AcceptedKinds = readonly ViewMessage['kind'][];

export async function dispatchViewMessage(raw: unknown, accepted: AcceptedKinds, actions: ViewActions): Promise<void> {
  const parsed = parseViewMessage(raw);
  if ('problems' in parsed) return actions.invalid(parsed.problems);
  const message = parsed.message;
  if (!accepted.includes(message.kind)) return actions.invalid([`this panel does not accept "${message.kind}" messages`]);
  switch (message.kind) {
    case 'ready':
      return actions.ready();
    case 'confirm':
    case 'reject':
      return actions.decide(message);
    case 'openRelationship':
      return actions.openRelationship(message);
    case 'open':
      return actions.open(message);
    case 'ask':
      return actions.ask(message);
    case 'graphQuery':
      return actions.graphQuery?.(message);
  }
}

type Decision = Extract<ViewMessage, { kind: 'confirm' | 'reject' }>;

/**
 * A relationship panel's Confirm or Reject is for the relationship that panel shows: the page
 * renders document text, so the relationship comes from the panel, never from the message. A
 * message naming another relationship is refused rather than quietly redirected.
 */
export function panelDecision(shown: { folder: string; id: string }, message: Decision): { decision: Decision } | { problem: string } {
  if (message.id !== shown.id) return { problem: `this panel shows relationship ${shown.id}, not ${message.id}: the decision was not recorded` };
  return { decision: { kind: message.kind, folder: shown.folder, id: shown.id, ...(message.note ? { note: message.note } : {}) } };
}
