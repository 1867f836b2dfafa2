// The language-model flags (--model, --endpoint, --endpoint-model, --allow-insecure-endpoint) shared by `ask`,
// `index --classify`, and `index` / `worker --extract-with-model`, read one way, with the environment as the default.

import { createProvider, HOW_TO_CONFIGURE, modelSettingsFrom } from '../answer/choice.ts';
import type { AnswerProvider } from '../answer/provider.ts';
import type { CommandValues, OptionSpec } from './options.ts';
import { UsageError } from './usage.ts';

export const MODEL_OPTIONS: OptionSpec = {
  model: { type: 'string' },
  endpoint: { type: 'string' },
  'endpoint-model': { type: 'string' },
  'allow-insecure-endpoint': { type: 'boolean' },
};

/** The configured model, or null when neither the flags nor the environment name one. */
export function providerFromFlags(values: CommandValues, log: (line: string) => void): AnswerProvider | null {
  if (values.model !== undefined && values.endpoint !== undefined) throw new UsageError('choose --model or --endpoint, not both');
  return createProvider(
    modelSettingsFrom({
      model: values.model as string | undefined,
      endpoint: values.endpoint as string | undefined,
      endpointModel: values['endpoint-model'] as string | undefined,
      allowInsecureEndpoint: values['allow-insecure-endpoint'] === true,
      log,
    }),
  );
}

/** The model a flag that needs one uses (--classify, --extract-with-model); a clear error when none is configured. */
export function requiredProvider(values: CommandValues, flag: string, log: (line: string) => void): AnswerProvider {
  const provider = providerFromFlags(values, log);
  if (!provider) throw new UsageError(`${flag} needs a language model. ${HOW_TO_CONFIGURE}`);
  return provider;
}
