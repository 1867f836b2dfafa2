// A test double at the provider interface: a "model" that returns exactly what a test scripts,
// because the point of the answer tests is a model that misbehaves on purpose (invents citations,
// echoes the schema, answers in prose, returns nothing, never answers). It records every prompt
// it is given, so tests can check what a model would have seen.

import type { AnswerPrompt, AnswerProvider, ProviderOutput } from '../../server/src/answer/provider.ts';

export type Script = string | ProviderOutput | ((prompt: AnswerPrompt, signal: AbortSignal) => Promise<ProviderOutput>);

export class ScriptedProvider implements AnswerProvider {
  readonly name = 'scripted-test-double';
  readonly prompts: AnswerPrompt[] = [];

  constructor(private readonly script: Script) {}

  async generate(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput> {
    this.prompts.push(prompt);
    if (typeof this.script === 'string') return { kind: 'text', text: this.script };
    if (typeof this.script === 'function') return this.script(prompt, signal);
    return this.script;
  }

  async close(): Promise<void> {}
}

