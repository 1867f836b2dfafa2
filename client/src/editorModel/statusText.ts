// "Relata: Show Editor Model Status" in words: which provider is chosen, which of the editor's
// language models Relata would use, and whether @relata and the agent tools are registered. It
// answers "why did Ask not use my Copilot?" without opening the logs. Pure, so tested without VS Code.

import type { AnswersProvider } from '../../../shared/protocol.ts';

export interface EditorModelStatus {
  provider: AnswersProvider;
  /** relata.answers.editorModel; empty for the first model the editor offers. */
  family: string;
  /** The editor's chat models matching the family, as "name (vendor)". */
  models: string[];
  /** Why @relata is not registered, or null when it is. */
  participantProblem: string | null;
  /** Relata's tools as the editor lists them (vscode.lm.tools). */
  tools: string[];
}

function modelsText(status: EditorModelStatus): string {
  const wanted = status.family ? ` of the family "${status.family}"` : '';
  if (status.models.length > 0) return `The editor's language models${wanted}: ${status.models.join(', ')}; Ask uses the first (the chat uses the one chosen there).`;
  return `The editor has no language model${wanted}: Ask uses the local model file or endpoint when one is set, else it shows the passages alone.`;
}

/** One line each: the provider, the models, the participant, the tools. */
export function editorModelStatusText(status: EditorModelStatus): string {
  const provider = {
    auto: 'Answers: "auto" (the editor\'s model when there is one and you allow it, else the local model or endpoint, else the passages alone).',
    editor: 'Answers: "editor" (only the editor\'s model; without one, the passages alone).',
    local: 'Answers: "local" (the GGUF model file only; the editor\'s model is not used).',
    endpoint: 'Answers: "endpoint" (the OpenAI-compatible endpoint only; the editor\'s model is not used).',
    none: 'Answers: "none" (no model; Ask shows the passages alone).',
  }[status.provider];
  const participant = status.participantProblem === null ? 'Chat participant @relata: registered.' : `Chat participant @relata: not registered (${status.participantProblem}).`;
  const tools = status.tools.length > 0 ? `Agent tools: ${status.tools.join(', ')}.` : 'Agent tools: none registered.';
  return [provider, modelsText(status), participant, tools].join('\n');
}
