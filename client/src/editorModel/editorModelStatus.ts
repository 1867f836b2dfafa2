// Relata: Show Editor Model Status: the provider setting, the editor's models Relata would use,
// and whether @relata and the agent tools are registered (statusText.ts words it).

import * as vscode from 'vscode';
import { ANSWER_PROVIDERS, type AnswersProvider } from '../../../shared/protocol.ts';
import { AGENT_TOOLS } from '../chat/toolText.ts';
import { settingReader } from '../settings.ts';
import { editorModelStatusText } from './statusText.ts';

export async function showEditorModelStatus(participantProblem: string | null): Promise<void> {
  const read = settingReader(vscode.workspace.getConfiguration('relata'));
  const chosen = read<unknown>('answers.provider', 'auto');
  const provider: AnswersProvider = ANSWER_PROVIDERS.includes(chosen as AnswersProvider) ? (chosen as AnswersProvider) : 'auto';
  const family = String(read<unknown>('answers.editorModel', '') ?? '').trim();
  // Listing the models asks no consent; only a request to one does.
  const models = await vscode.lm.selectChatModels(family ? { family } : {});
  const tools = vscode.lm.tools.filter((tool) => tool.name in AGENT_TOOLS).map((tool) => tool.name);
  const text = editorModelStatusText({ provider, family, models: models.map((model) => `${model.name} (${model.vendor})`), participantProblem, tools });
  // Modal, as "why in full" is: the person asked to read it, and it is too long for a toast.
  await vscode.window.showInformationMessage('Relata: the editor\'s model, @relata and the agent tools', { modal: true, detail: text });
}
