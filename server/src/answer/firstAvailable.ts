// `relata.answers.provider: auto`: the editor's model when it can answer, else the configured local
// model or endpoint. A choice that is unavailable (no model, no consent, a quota) hands over to the
// next and the answer says so; a cancellation or a real failure ends the ask there, because asking
// another model would go against what the person did or hide what went wrong.

import { ModelUnavailable, type AnswerPrompt, type AnswerProvider, type ProviderOutput } from './provider.ts';

/** Unavailability that another model may remedy; a cancellation is the person's own choice. */
function handsOver(error: unknown): error is ModelUnavailable {
  return error instanceof ModelUnavailable && error.reason !== 'cancelled';
}

function sentence(message: string): string {
  const trimmed = message.trim().replace(/[.\s]+$/, '');
  return trimmed === '' ? '' : `${trimmed}.`;
}

/** Tries its choices in order; the first that is not unavailable answers (or fails). */
export class FirstAvailable implements AnswerProvider {
  readonly name: string;

  constructor(private readonly choices: readonly AnswerProvider[]) {
    if (choices.length === 0) throw new Error('FirstAvailable needs at least one provider');
    this.name = choices[0]!.name;
  }

  async generate(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput> {
    const passedOver: string[] = [];
    for (const choice of this.choices) {
      try {
        const output = await choice.generate(prompt, signal);
        if (output.kind !== 'text' || passedOver.length === 0) return output;
        const model = output.model ?? choice.name;
        return { ...output, model, note: `${passedOver.join(' ')} Answered with ${model} instead.` };
      } catch (error) {
        if (!handsOver(error)) throw error;
        passedOver.push(sentence(error.message));
      }
    }
    throw new ModelUnavailable('no_model', passedOver.join(' '));
  }

  /** The choices are borrowed (a loaded local model outlives one ask): whoever made them closes them. */
  async close(): Promise<void> {}
}
