// The scoring model page: the live weights, repeat factors, thresholds and versions, as the
// server reads them from the scoring and ranking modules.

import type { ScoringModelView } from '../../shared/protocol.ts';
import { figure, h, render } from './dom.ts';
import { onHostMessage } from './host.ts';
import { signalName } from '../../shared/wording.ts';

function table(headers: string[], rows: string[][]): HTMLElement {
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...headers.map((header) => h('th', {}, header)))),
    h('tbody', {}, ...rows.map((row) => h('tr', {}, ...row.map((cell, index) => h('td', index > 0 && /^-?\d/.test(cell) ? { class: 'num' } : {}, cell))))),
  );
}

function show(model: ScoringModelView): void {
  const weights = Object.entries(model.weights).sort(([, a], [, b]) => Math.abs(b!) - Math.abs(a!));
  const paths = Object.entries(model.path_weights).sort(([, a], [, b]) => b! - a!);
  render(
    h('h1', {}, 'Relata scoring model'),
    h('h2', {}, `Relationship strength: ${model.score_version}`),
    h('p', { class: 'muted' }, 'score = min(1, Σ strength × weight × repeat factor), never below 0. A heuristic strength of evidence, not a probability.'),
    // The identifier beside the words: this page is where a person matches them to the JSON and --json output.
    table(['Signal', 'Weight'], weights.map(([type, weight]) => [`${signalName(type)} (${type})`, figure(weight!)])),
    h('p', {}, `Repeat factors for the strongest, second and third signal of one type: ${model.diminishing_factors.map((factor) => figure(factor)).join(', ')}; later ones count nothing.`),
    h('p', {}, `Concepts start at strength ${figure(model.concept_base_strength)}; temporal proximity looks ${model.temporal_window_days} days apart.`),
    h('h3', {}, 'How evidence is read'),
    h('ul', {}, ...model.evidence_rules.map((rule) => h('li', {}, rule))),
    h('p', {}, `A name or figure the model stage found (not a rule) counts × ${figure(model.model_found_factor)}, and only on a pair that rule-found evidence alone brings to the discard threshold: a model cannot make a relationship.`),
    h('p', {}, `A shared name the rules guessed from capitals alone (a product or tool name) counts × ${figure(model.guessed_name_factor)}.`),
    h('p', { class: 'muted' }, `Versions: ${model.versions.join(', ')}. Relationships keep the version that scored them; relata reprocess --all --score-version V scores them again under another.`),
    h('h2', {}, 'Thresholds'),
    table(['Threshold', 'Value', 'Override'], model.thresholds.map((threshold) => [threshold.name, figure(threshold.value), threshold.env])),
    h('h2', {}, `Query relevance: ${model.rank_version}`),
    table(['Retrieval path', 'Weight'], paths.map(([path, weight]) => [path, figure(weight!)])),
  );
}

onHostMessage((message) => {
  if (message.kind === 'scoringModel') show(message.model);
  else if (message.kind === 'error') render(h('p', { class: 'error' }, message.message));
});
