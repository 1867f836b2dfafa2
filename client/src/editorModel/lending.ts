// Lending the editor's language model (vscode.lm) to the language server for one ask. The server
// runs in its own process and cannot reach the editor's API, so it sends the prompt here
// (EditorModelRequest) and gets raw text back, which it validates like any other provider's. A
// model is lent only for an ask this client started from a person's action (the Ask panel, the
// chat view): the editor may ask the person's consent on the first use, and must only ever do so
// in answer to something they did. Every way the editor can say no becomes a reason and a
// message the person can act on; the retrieval is still shown by the server.
// Pure (the editor's functions are injected), so tested without VS Code.

import type { EditorModelParams, EditorModelResult, EditorModelUnavailable } from '../../../shared/protocol.ts';

/** Shown by the editor when it asks the person whether Relata may use its model. */
export const JUSTIFICATION = 'Relata answers your question from the passages it found in this folder';

/** The reply is a small JSON object; a model that goes on past this is cut off (the server's validation then judges what came). */
export const MAX_REPLY_CHARS = 100_000;

/** What lending needs of a cancellation token (vscode's and the language client's have this shape). */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/** One of the editor's chat models, narrowed to what lending uses. */
export interface ChatModel {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  /** Sends the prompt as user messages, in order; resolves to the streamed text fragments. */
  send(messages: readonly string[], justification: string, token: Cancellation): PromiseLike<AsyncIterable<string>>;
}

export interface EditorModels {
  /** vscode.lm.selectChatModels, by family when one is set. */
  select(family: string | undefined): PromiseLike<readonly ChatModel[]>;
  /** The editor's own error codes (vscode.LanguageModelError's `code`) and its cancellation error. */
  errorCode(error: unknown): string | undefined;
  isCancellation(error: unknown): boolean;
}

/** A live ask: started by a person's action, until it ends. */
interface LiveAsk {
  /** The chat's own model (the chat view's request.model); the Ask panel has none and selects by family. */
  model?: ChatModel;
  /** The ask's own token: the person cancelling the ask also cancels the model's request. */
  token?: Cancellation;
}

/** The asks this window started from a person's action; the server may borrow the model only for one of them. */
export class LiveAsks {
  private readonly asks = new Map<string, LiveAsk>();
  private next = 0;

  /** Registers an ask and returns its id; `end` it when the ask has its answer, or fails. */
  begin(ask: LiveAsk = {}): { askId: string; end(): void } {
    const askId = `ask-${Date.now().toString(36)}-${(this.next++).toString(36)}`;
    this.asks.set(askId, ask);
    return { askId, end: () => this.asks.delete(askId) };
  }

  get(askId: string): LiveAsk | undefined {
    return this.asks.get(askId);
  }

  get size(): number {
    return this.asks.size;
  }
}

/**
 * The prompt as the editor's API takes it. Its messages have no system role in VS Code 1.100
 * (only User and Assistant), so the rules go first as a user message of their own, and the
 * question with its passages second. The API has no structured output either: the schema the
 * reply must follow is written into the prompt, with the instruction to reply with JSON only.
 */
export function promptMessages(params: Pick<EditorModelParams, 'system' | 'user' | 'output'>): string[] {
  const output = params.output
    ? [
        `Reply with JSON only: one JSON object, no prose before or after it and no code fence. It must follow this JSON schema ("${params.output.name}"):`,
        JSON.stringify(params.output.schema),
      ].join('\n')
    : null;
  return [params.system, output ? `${params.user}\n\n${output}` : params.user];
}

const PROVIDER_CHOICE = 'or set relata.answers.provider to "local" (a GGUF model file) or "endpoint" (an OpenAI-compatible server)';

/** The message a person reads beside the retrieval, for each reason the editor's model did not answer. */
export function unavailableMessage(reason: EditorModelUnavailable, detail: { family?: string; said?: string } = {}): string {
  const said = detail.said ? ` (${detail.said})` : '';
  switch (reason) {
    case 'no_model':
      return detail.family
        ? `The editor has no language model of the family "${detail.family}" (relata.answers.editorModel). Clear that setting to use the first model the editor offers, ${PROVIDER_CHOICE}.`
        : 'No language model is available in the editor: install and sign in to a chat model extension (e.g. GitHub Copilot) to have it answer.';
    case 'no_consent':
      return `Relata is not allowed to use the editor's language model${said}. Allow it when the editor asks on your next question (or under Accounts › Manage Language Model Access), ${PROVIDER_CHOICE}.`;
    case 'quota':
      return `The editor's language model refused for now, e.g. a quota or rate limit${said}. Try again later, ${PROVIDER_CHOICE}.`;
    case 'cancelled':
      return 'The question to the editor\'s language model was cancelled.';
    case 'not_user_action':
      return 'The editor\'s language model answers only questions you ask in this window (the Ask panel, or @relata in the chat view).';
    case 'error':
      return `The editor's language model failed${said}. Try again, choose another model with relata.answers.editorModel, ${PROVIDER_CHOICE}.`;
  }
}

/** VS Code's LanguageModelError codes, as reasons; any other code is an `error`. */
const REASON_BY_CODE: Record<string, EditorModelUnavailable> = {
  NoPermissions: 'no_consent',
  Blocked: 'quota',
  NotFound: 'no_model',
};

/** Why a model request failed, from what the editor threw and whether the request was cancelled. */
export function failureReason(error: unknown, models: Pick<EditorModels, 'errorCode' | 'isCancellation'>, cancelled: boolean): EditorModelUnavailable {
  if (cancelled || models.isCancellation(error)) return 'cancelled';
  const code = models.errorCode(error);
  return (code && REASON_BY_CODE[code]) || 'error';
}

function unavailable(reason: EditorModelUnavailable, detail: { family?: string; said?: string } = {}): EditorModelResult {
  return { kind: 'unavailable', reason, message: unavailableMessage(reason, detail) };
}

/** The editor's error text, when it says more than its code. */
function saidBy(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message.trim() : '';
  return message === '' || message === 'Canceled' ? undefined : message;
}

/** One token that is cancelled when either is: the server's request or the person's ask. */
function either(first: Cancellation, second: Cancellation | undefined): Cancellation & { dispose(): void } {
  const listeners = new Set<() => unknown>();
  let cancelled = first.isCancellationRequested || second?.isCancellationRequested === true;
  const fire = () => {
    if (cancelled) return;
    cancelled = true;
    for (const listener of listeners) listener();
  };
  const subscriptions = [first, second].flatMap((token) => (token ? [token.onCancellationRequested(fire)] : []));
  return {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    dispose: () => subscriptions.forEach((subscription) => subscription.dispose()),
  };
}

export interface LendOptions {
  /** relata.answers.editorModel: a model family, or empty for the first model the editor offers. */
  family: string;
}

/** Answers one EditorModelRequest: the model's raw text, or why the editor's model did not answer. */
export async function lendModel(params: EditorModelParams, asks: LiveAsks, models: EditorModels, options: LendOptions, token: Cancellation): Promise<EditorModelResult> {
  const ask = asks.get(params.askId);
  if (!ask) return unavailable('not_user_action');
  const family = options.family.trim() || undefined;
  const cancellation = either(token, ask.token);
  try {
    if (cancellation.isCancellationRequested) return unavailable('cancelled');
    const model = ask.model ?? (await models.select(family))[0];
    if (!model) return unavailable('no_model', { family });
    const stream = await model.send(promptMessages(params), JUSTIFICATION, cancellation);
    let text = '';
    for await (const fragment of stream) {
      text += fragment;
      if (text.length >= MAX_REPLY_CHARS) break;
    }
    if (cancellation.isCancellationRequested) return unavailable('cancelled');
    // The server names it "editor:…" in the answer.
    return { kind: 'text', text: text.slice(0, MAX_REPLY_CHARS), model: `${model.name} (${model.vendor})` };
  } catch (error) {
    const reason = failureReason(error, models, cancellation.isCancellationRequested);
    return unavailable(reason, { family, said: reason === 'cancelled' ? undefined : saidBy(error) });
  } finally {
    cancellation.dispose();
  }
}
