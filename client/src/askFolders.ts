// One question asked of each chosen folder in turn (relevance and sources are per folder, as in
// search), keeping every folder's outcome. The question is registered as a live ask for as long as
// it runs, so the server may borrow the editor's model for it (editorModel/lending.ts): the Ask
// panel and the chat view both come through here, always from a person's action.

import { AskRequest, type AskResult } from '../../shared/protocol.ts';
import type { AskFolder, AskTurn, FolderAnswer } from '../../shared/webviewMessages.ts';
import type { Cancellation, ChatModel, LiveAsks } from './editorModel/lending.ts';

/** What asking needs of the server connection. */
export interface AskServer {
  request(type: typeof AskRequest.type, params: { question: string; folder?: string; askId?: string }, token?: Cancellation): Promise<AskResult>;
}

export interface AskOptions {
  /** The chat view's own model (request.model); the Ask panel selects one by relata.answers.editorModel. */
  model?: ChatModel;
  /** Cancelling it (the chat view's stop button) cancels the ask and the model's request. */
  token?: Cancellation;
}

export async function askFolders(server: AskServer, asks: LiveAsks, question: string, folders: readonly AskFolder[], options: AskOptions = {}): Promise<AskTurn> {
  const live = asks.begin({ ...(options.model ? { model: options.model } : {}), ...(options.token ? { token: options.token } : {}) });
  const answers: FolderAnswer[] = [];
  try {
    for (const folder of folders) {
      if (options.token?.isCancellationRequested) break;
      try {
        answers.push({ folder, answer: await server.request(AskRequest.type, { question, folder: folder.uri, askId: live.askId }, options.token) });
      } catch (error) {
        answers.push({ folder, error: (error as Error).message ?? String(error) });
      }
    }
  } finally {
    live.end();
  }
  return { question, answers };
}
