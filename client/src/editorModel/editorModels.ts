// The editor's side of lending.ts: vscode.lm's chat models and errors, in the narrow shape
// lending uses, and the handler the language client answers EditorModelRequest with.

import * as vscode from 'vscode';
import type { EditorModelParams, EditorModelResult } from '../../../shared/protocol.ts';
import { settingReader } from '../settings.ts';
import { lendModel, type Cancellation, type ChatModel, type EditorModels, type LiveAsks } from './lending.ts';

/** vscode's token, from lending's (the same shape; vscode's event takes more optional arguments). */
const asVscodeToken = (token: Cancellation) => token as unknown as vscode.CancellationToken;

export function chatModel(model: vscode.LanguageModelChat): ChatModel {
  return {
    id: model.id,
    name: model.name,
    vendor: model.vendor,
    family: model.family,
    send: async (messages, justification, token) => {
      const response = await model.sendRequest(
        messages.map((message) => vscode.LanguageModelChatMessage.User(message)),
        { justification },
        asVscodeToken(token),
      );
      return response.text;
    },
  };
}

export const editorModels: EditorModels = {
  select: async (family) => (await vscode.lm.selectChatModels(family ? { family } : {})).map(chatModel),
  errorCode: (error) => (error instanceof vscode.LanguageModelError ? error.code : undefined),
  isCancellation: (error) => error instanceof vscode.CancellationError || (error instanceof Error && error.name === 'Canceled'),
};

/** The language client's handler for EditorModelRequest; the family is read from the user's settings on each request. */
export function editorModelHandler(asks: LiveAsks): (params: EditorModelParams, token: Cancellation) => Promise<EditorModelResult> {
  return (params, token) => {
    const read = settingReader(vscode.workspace.getConfiguration('relata'));
    const family = read<unknown>('answers.editorModel', '');
    return lendModel(params, asks, editorModels, { family: typeof family === 'string' ? family : '' }, token);
  };
}
