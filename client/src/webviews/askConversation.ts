// The Ask panel's conversation, kept by the extension rather than the page: a webview's page is
// rebuilt whenever its panel is closed and reopened (or hidden, unless retained), so the host
// holds the turns for the window's lifetime and hands them back when the page loads. Which
// folders a question goes to is decided here too, from the page's choice, checked against the
// open folders (the page renders document text, so its message is not trusted to name a folder).
// Pure, so tested without VS Code.

import type { AskFolder, AskTurn } from '../../../shared/webviewMessages.ts';

/** Turns kept; older ones are dropped, so a long session does not grow without bound. */
export const MAX_TURNS = 50;

export class AskConversation {
  readonly turns: AskTurn[] = [];
  pending: { question: string; folders: AskFolder[] } | null = null;

  begin(question: string, folders: AskFolder[]): void {
    this.pending = { question, folders };
  }

  finish(turn: AskTurn): void {
    this.pending = null;
    this.turns.push(turn);
    if (this.turns.length > MAX_TURNS) this.turns.splice(0, this.turns.length - MAX_TURNS);
  }
}

/** The folders a question goes to: the one chosen, or every open folder; a folder not open is refused. */
export function foldersToAsk(chosen: string | undefined, open: readonly AskFolder[]): { folders: AskFolder[] } | { problem: string } {
  if (open.length === 0) return { problem: 'open a folder to ask about its documents' };
  if (chosen === undefined) return { folders: [...open] };
  const folder = open.find((candidate) => candidate.uri === chosen);
  return folder ? { folders: [folder] } : { problem: `${chosen} is not an open folder: the question was not asked` };
}
