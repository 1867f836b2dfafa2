// Which model answers, as a user names it: a local GGUF file (--model, RELATA_LLM_MODEL) or an
// OpenAI-compatible endpoint (--endpoint, RELATA_LLM_ENDPOINT), or none. One place reads the flags
// and the environment, so the CLI and (later) the editor setting cannot drift apart. With neither
// configured there is no provider, and `ask` returns the retrieval alone.

import { LlamaProvider } from './llamaProvider.ts';
import { OpenAiProvider } from './openaiProvider.ts';
import type { AnswerProvider } from './provider.ts';

export interface ModelSettings {
  /** Path to a GGUF file. */
  model?: string;
  /** OpenAI-compatible base URL. */
  endpoint?: string;
  endpointModel?: string;
  apiKey?: string;
  /** Plain http to another machine is allowed (--allow-insecure-endpoint, RELATA_LLM_ALLOW_INSECURE=1). */
  allowInsecureEndpoint?: boolean;
  log?: (line: string) => void;
}

export const HOW_TO_CONFIGURE =
  'To get an answer, pass --model PATH (a local GGUF file, run on the CPU) or --endpoint URL (an ' +
  'OpenAI-compatible server such as Ollama, LM Studio or llama.cpp\'s, e.g. http://localhost:11434/v1, ' +
  'with --endpoint-model NAME), or set RELATA_LLM_MODEL or RELATA_LLM_ENDPOINT.';

/** Flags win over the environment; a flag for one kind of model also overrides the other kind's variable. */
export function modelSettingsFrom(flags: ModelSettings, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const fromFlags = flags.model !== undefined || flags.endpoint !== undefined;
  return {
    model: fromFlags ? flags.model : env.RELATA_LLM_MODEL || undefined,
    endpoint: fromFlags ? flags.endpoint : env.RELATA_LLM_ENDPOINT || undefined,
    endpointModel: flags.endpointModel ?? (env.RELATA_LLM_ENDPOINT_MODEL || undefined),
    apiKey: env.RELATA_LLM_API_KEY || undefined,
    allowInsecureEndpoint: flags.allowInsecureEndpoint === true || env.RELATA_LLM_ALLOW_INSECURE === '1',
    log: flags.log,
  };
}

export function createProvider(settings: ModelSettings): AnswerProvider | null {
  if (settings.model !== undefined && settings.endpoint !== undefined) {
    throw new Error('both a local model (--model or RELATA_LLM_MODEL) and an endpoint (--endpoint or RELATA_LLM_ENDPOINT) are configured; choose one');
  }
  if (settings.model !== undefined) return new LlamaProvider({ modelPath: settings.model, log: settings.log });
  if (settings.endpoint !== undefined) {
    return new OpenAiProvider({
      endpoint: settings.endpoint,
      model: settings.endpointModel ?? '',
      apiKey: settings.apiKey,
      allowInsecure: settings.allowInsecureEndpoint,
    });
  }
  return null;
}
