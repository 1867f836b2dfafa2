// Which model answers an ask in the editor (`relata.answers.provider`), built per ask because the
// editor's model is lent for one ask at a time (its askId), while a local model or an endpoint
// client is loaded once and kept until the server stops. The extract stage's model
// (relata.extraction.useModel) is that same loaded model: a GGUF file is loaded once, and its
// provider takes one prompt at a time.

import type { Connection } from 'vscode-languageserver/node';
import type { ServerSettings } from '../../../shared/protocol.ts';
import { createProvider, modelSettingsFrom, type ModelSettings } from '../answer/choice.ts';
import { FirstAvailable } from '../answer/firstAvailable.ts';
import { UnconfiguredProvider, type AnswerProvider } from '../answer/provider.ts';
import { EditorModelProvider } from './editorModelProvider.ts';

type Configured = 'local' | 'endpoint' | 'either';

export class AnswerProviders {
  /** By model file and endpoint, so `local` and `auto` share one loaded model. */
  private readonly loaded = new Map<string, AnswerProvider | null>();

  constructor(
    private readonly connection: Connection,
    private readonly settings: () => ServerSettings,
    private readonly log: (line: string) => void,
  ) {}

  /** The provider for one ask; null when no model may be asked (`none`). */
  forAsk(askId: string | undefined): AnswerProvider | null {
    const editor = new EditorModelProvider(this.connection, askId);
    switch (this.settings().answersProvider) {
      case 'none':
        return null;
      case 'editor':
        return editor;
      case 'local':
        return this.configured('local') ?? new UnconfiguredProvider('local', 'relata.answers.provider is "local" but no model file is set (relata.answers.llmModelPath).');
      case 'endpoint':
        return this.configured('endpoint') ?? new UnconfiguredProvider('endpoint', 'relata.answers.provider is "endpoint" but no endpoint is set (relata.answers.llmEndpoint).');
      case 'auto':
        return new FirstAvailable([
          editor,
          this.configured('either') ??
            new UnconfiguredProvider('none', 'No local model file or endpoint is configured (relata.answers.llmModelPath, relata.answers.llmEndpoint).'),
        ]);
    }
  }

  /** The user's local model or endpoint, whichever is set; null when neither is. Throws when both are. */
  configuredModel(): AnswerProvider | null {
    return this.configured('either');
  }

  /** The user's local model or endpoint (the environment's RELATA_LLM_* when the settings are empty), loaded on first use. */
  private configured(kind: Configured): AnswerProvider | null {
    const settings = this.settings();
    const chosen = modelSettingsFrom({
      model: settings.llmModelPath || undefined,
      endpoint: settings.llmEndpoint || undefined,
      allowInsecureEndpoint: settings.allowInsecureEndpoint,
      log: this.log,
    });
    const only: ModelSettings = kind === 'local' ? { ...chosen, endpoint: undefined } : kind === 'endpoint' ? { ...chosen, model: undefined } : chosen;
    const key = `${only.model ?? ''}\n${only.endpoint ?? ''}`;
    if (!this.loaded.has(key)) this.loaded.set(key, createProvider(only));
    return this.loaded.get(key) ?? null;
  }

  async close(): Promise<void> {
    await Promise.all([...this.loaded.values()].map((provider) => provider?.close()));
    this.loaded.clear();
  }
}
