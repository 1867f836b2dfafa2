// The language-model flags (--model, --endpoint, --endpoint-model, --allow-insecure-endpoint) shared by `ask` and
// `index --classify`, read one way, with the environment as the default.

import { createProvider, modelSettingsFrom } from '../answer/choice.ts';
import type { AnswerProvider } from '../answer/provider.ts';
import type { CommandValues, OptionSpec } from './command.ts';
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
