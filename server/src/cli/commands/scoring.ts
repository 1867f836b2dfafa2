// `relata scoring`: the live scoring model (weights, factors, thresholds and version), read from
// the scoring module itself so what is shown is what is used; `--version v1` shows an earlier
// version, so a store's older scores can be read against the numbers that made them.

import { SCORE_VERSION, SCORE_VERSIONS, scoreVersion, scoringModel, thresholdsFromEnv } from '../../scoring/index.ts';
import { COMMON_OPTIONS, type Command } from '../command.ts';
import { UsageError } from '../usage.ts';

export const scoringCommand: Command = {
  name: 'scoring',
  summary: 'show the relationship scoring model: weights, thresholds, version',
  usage: `relata scoring [--version v1|v2] [--json]

  --version V       the scoring version to show (${SCORE_VERSIONS.map((version) => version.version).join(', ')}); default: the live one, ${SCORE_VERSION}
  --json            print exactly one JSON document on stdout`,
  options: { json: COMMON_OPTIONS.json!, help: COMMON_OPTIONS.help!, version: { type: 'string' } },
  async run({ values, out }) {
    const asked = values.version as string | undefined;
    const version = asked === undefined ? undefined : scoreVersion(asked);
    if (version === null) throw new UsageError(`--version ${asked}: no such scoring version (${SCORE_VERSIONS.map((known) => known.version).join(', ')})`);
    const model = scoringModel(thresholdsFromEnv(), version);
    if (values.json) {
      out(JSON.stringify(model, null, 2));
      return 0;
    }
    out(
      [
        `${model.score_version}${model.score_version === SCORE_VERSION ? ' (live)' : ` (not live: discovery scores with ${SCORE_VERSION})`}: ` +
          'score = min(1, Σ strength × weight × diminishing factor); a heuristic strength, not a probability',
        '',
        ...Object.entries(model.weights).map(([signal, weight]) => `  ${signal.padEnd(22)} ${(weight ?? 0).toFixed(2).padStart(5)}`),
        '',
        `  diminishing factors per signal type: ${model.diminishing_factors.join(', ')}, then 0`,
        ...model.evidence_rules.map((rule) => `  ${rule}`),
        `  concepts start at ${model.concept_base_strength}; dates closer than ${model.temporal_window_days} days count as temporal proximity`,
        `  a name or figure the model stage found counts × ${model.model_found_factor}, and only on a pair that rule-found evidence ` +
          'brings to the discard threshold',
        `  a shared name guessed from capitals alone (a product or tool name) counts × ${model.guessed_name_factor}`,
        `  discard below ${model.thresholds.minScore}, store as pending from ${model.thresholds.storeScore}, ` +
          (model.evidence_rules.some((rule) => rule.startsWith('near-duplicates are flagged'))
            ? `flag near-duplicates from ${model.thresholds.nearDuplicateSimilarity} similarity`
            : 'flag near-copies by their text'),
        `  versions: ${model.versions.join(', ')} (relata scoring --version V; relata reprocess --all --score-version V)`,
      ].join('\n'),
    );
    return 0;
  },
};
