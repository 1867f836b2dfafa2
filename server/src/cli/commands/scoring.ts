// `relata scoring`: the live scoring model (weights, factors, thresholds and version), read from
// the scoring module itself so what is shown is what is used.

import { scoringModel, thresholdsFromEnv } from '../../scoring/index.ts';
import { COMMON_OPTIONS, type Command } from '../command.ts';

export const scoringCommand: Command = {
  name: 'scoring',
  summary: 'show the relationship scoring model: weights, thresholds, version',
  usage: `relata scoring [--json]

  --json            print exactly one JSON document on stdout`,
  options: { json: COMMON_OPTIONS.json!, help: COMMON_OPTIONS.help! },
  async run({ values, out }) {
    const model = scoringModel(thresholdsFromEnv());
    if (values.json) {
      out(JSON.stringify(model, null, 2));
      return 0;
    }
    out(
      [
        `${model.score_version}: score = min(1, Σ strength × weight × diminishing factor); a heuristic strength, not a probability`,
        '',
        ...Object.entries(model.weights).map(([signal, weight]) => `  ${signal.padEnd(22)} ${weight.toFixed(2).padStart(5)}`),
        '',
        `  diminishing factors per signal type: ${model.diminishing_factors.join(', ')}, then 0`,
        `  similarity strength = max(0, (cosine − ${model.similarity_floor}) / ${(1 - model.similarity_floor).toFixed(2)})`,
        `  concepts start at ${model.concept_base_strength}; dates closer than ${model.temporal_window_days} days count as temporal proximity`,
        `  a name or figure the model stage found counts × ${model.model_found_factor}, and only on a pair that rule-found evidence ` +
          'brings to the discard threshold',
        `  discard below ${model.thresholds.minScore}, store as pending from ${model.thresholds.storeScore}, ` +
          `flag near-duplicates from ${model.thresholds.nearDuplicateSimilarity} similarity`,
      ].join('\n'),
    );
    return 0;
  },
};
