// The editor's language model as an answer provider. The server cannot call vscode.lm (it runs in
// its own process), so it hands the client the same prompt any provider gets and takes back raw
// text, which answer.ts validates exactly as a local model's. The client lends a model only for an
// ask a person started (AskParams.askId), so consent is never asked for in the background.

import { CancellationTokenSource, ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { EditorModelRequest, type EditorModelResult } from '../../../shared/protocol.ts';
import { ANSWER_SCHEMA } from '../answer/schema.ts';
import { ModelUnavailable, ProviderError, type AnswerPrompt, type AnswerProvider, type ProviderOutput } from '../answer/provider.ts';

export const NOT_A_PERSONS_ASK =
  'The editor\'s language model is used only for a question a person asks in the editor (the Ask panel or @relata in the chat view).';
export const EDITOR_LENDS_NO_MODEL = 'This editor does not lend its language model to Relata.';

export class EditorModelProvider implements AnswerProvider {
  readonly name = 'editor';

  constructor(
    private readonly connection: Connection,
    private readonly askId: string | undefined,
  ) {}

  async generate(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput> {
    if (this.askId === undefined) throw new ModelUnavailable('not_user_action', NOT_A_PERSONS_ASK);
    const cancellation = new CancellationTokenSource();
    const cancel = () => cancellation.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    let result: EditorModelResult;
    try {
      result = await this.connection.sendRequest(
        EditorModelRequest.type,
        { askId: this.askId, system: prompt.system, user: prompt.user, output: prompt.output ?? { name: 'relata_answer', schema: ANSWER_SCHEMA } },
        cancellation.token,
      );
    } catch (error) {
      if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) throw new ModelUnavailable('no_model', EDITOR_LENDS_NO_MODEL);
      throw new ProviderError(`the editor's language model failed: ${(error as Error).message}`);
    } finally {
      signal.removeEventListener('abort', cancel);
      cancellation.dispose();
    }
    return fromEditor(result);
  }

  async close(): Promise<void> {}
}

/** What the client sent, read defensively: the text goes on to validation whatever it says, anything else is a bad envelope. */
function fromEditor(result: EditorModelResult): ProviderOutput {
  if (result?.kind === 'unavailable') throw new ModelUnavailable(result.reason, String(result.message ?? 'the editor\'s model is not available'));
  if (result?.kind === 'text' && typeof result.text === 'string') {
    const model = typeof result.model === 'string' && result.model.trim() !== '' ? result.model.trim() : 'model';
    return { kind: 'text', text: result.text, model: `editor:${model}` };
  }
  return { kind: 'malformed', reason: 'the editor returned no model text' };
}
