// The one interface every language model sits behind. A provider turns a prompt into raw text and
// nothing more: it never sees item ids, never validates, never decides what the user is shown.
// Everything the answer guarantees is enforced outside it (validate.ts, answer.ts), so a local
// GGUF model, an OpenAI-compatible endpoint and a test double that misbehaves on purpose are
// interchangeable.

export interface AnswerPrompt {
  /** The rules: answer only from the sources, cite labels, treat sources as untrusted, reply in JSON. */
  system: string;
  /** The question and the labelled, delimited passages. */
  user: string;
  /** The JSON schema the output must follow; the answer schema unless a task (e.g. classifying a pair) names its own. */
  output?: OutputSchema;
}

export interface OutputSchema {
  name: string;
  schema: Record<string, unknown>;
}

/**
 * What came back. `text` is the model's output verbatim (possibly empty or nonsense); `malformed`
 * means the transport worked but its envelope held no model output (e.g. a 200 response without
 * `choices`), which is a bad answer, not an operational failure.
 */
export type ProviderOutput =
  | {
      kind: 'text';
      text: string;
      /** The model that answered, when the provider learns it only by asking (the editor lends whichever model the person allowed). */
      model?: string;
      /** Why an earlier choice did not answer (see FirstAvailable), said beside the answer. */
      note?: string;
    }
  | { kind: 'malformed'; reason: string };

export interface AnswerProvider {
  /** Names the model for the result's `model` field, e.g. "local:mistral-7b.Q4_K_M.gguf". */
  readonly name: string;
  /** Must stop work when `signal` aborts; throws ProviderError when the model cannot be reached or loaded. */
  generate(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput>;
  /** Releases the model, its threads and memory. */
  close(): Promise<void>;
}

/**
 * An operational failure: the model could not be loaded or reached, or did not answer in time.
 * Reported as an error (exit status 1), never as a rejected answer, because it says nothing about
 * what the model would have said.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
}

/** Why a model could not be used for this prompt, when that is not a failure of the model. */
export type UnavailableReason = 'no_model' | 'no_consent' | 'quota' | 'cancelled' | 'not_user_action' | 'not_configured' | 'error';

/**
 * The model chosen cannot answer this prompt for a reason a person can act on: the editor has no
 * model, consent was refused, a quota was reached, the request was cancelled, nothing is configured.
 * Not an error: the ask returns the retrieval with this message (AnswerResult.model_note).
 */
export class ModelUnavailable extends Error {
  override readonly name = 'ModelUnavailable';
  constructor(
    readonly reason: UnavailableReason,
    message: string,
  ) {
    super(message);
  }
}

/** A choice that names no model (e.g. `local` with no model file set): unavailable with the reason, every time. */
export class UnconfiguredProvider implements AnswerProvider {
  constructor(
    readonly name: string,
    private readonly reason: string,
  ) {}

  async generate(): Promise<ProviderOutput> {
    throw new ModelUnavailable('not_configured', this.reason);
  }

  async close(): Promise<void> {}
}
