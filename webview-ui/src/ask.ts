// The Ask panel: a question, then the answer from stored knowledge with "Sources used" (each
// opens its file at the passage; one for each group of near-duplicates, naming the others) and
// "Uncertainty and conflicts" (each disagreement once, with the sources on each side). When the model's output was
// rejected, the retrieval and the reason are still shown; with no model configured, it says how
// to configure one.

import { describeAlso } from '../../shared/alsoText.ts';
import type { AskResult } from '../../shared/protocol.ts';
import { action, h, render } from './dom.ts';
import { onHostMessage, send } from './host.ts';

const conversation: HTMLElement[] = [];
let pending: HTMLElement | null = null;

function sources(folder: string, result: AskResult['result']): HTMLElement {
  return h(
    'section',
    {},
    h('h3', {}, 'Sources used'),
    result.sources.length === 0
      ? h('p', { class: 'muted' }, 'No passage was retrieved for this question.')
      : h(
          'ol',
          { class: 'sources' },
          ...result.sources.map((source) =>
            h(
              'li',
              {},
              h('strong', {}, `[${source.label}] `),
              action(source.title ?? source.path, () => send({ kind: 'open', folder, path: source.path, location: source.location })),
              h('span', { class: 'muted' }, ` ${source.path}, ${source.location.kind} ${source.location.start}${source.location.end !== source.location.start ? `-${source.location.end}` : ''}`),
              ...(source.also && source.also.length > 0 ? [h('div', { class: 'muted' }, describeAlso(source.also))] : []),
              h('blockquote', {}, source.passage),
            ),
          ),
        ),
  );
}

function uncertainty(folder: string, result: AskResult['result']): HTMLElement | null {
  const notes: HTMLElement[] = [];
  if (!result.sufficient) notes.push(h('li', {}, 'The retrieved passages are not enough to answer fully.'));
  for (const conflict of result.conflicts) {
    notes.push(
      h(
        'li',
        {},
        conflict.detail,
        ...(conflict.sides ?? [])
          .filter((side) => side.value !== '')
          .map((side) => h('div', { class: 'muted' }, `${side.value}: ${side.items.map((item) => item.path).join(', ')}`)),
        ' ',
        action('See the relationship', () => send({ kind: 'openRelationship', folder, id: conflict.relationship_id })),
      ),
    );
  }
  for (const relationship of result.inferred_relationships) {
    notes.push(
      h(
        'li',
        {},
        `A source was brought in through a relationship suggested by analysis, not yet reviewed: ${relationship.from.title ?? relationship.from.path} ${relationship.type} ${relationship.to.title ?? relationship.to.path} (strength ${relationship.score.toFixed(2)}). `,
        action('Review it', () => send({ kind: 'openRelationship', folder, id: relationship.id })),
      ),
    );
  }
  for (const warning of result.injection_warnings) {
    notes.push(h('li', {}, `Source ${warning.label} contains text that tries to instruct the model (${warning.kind}); it was treated as data: `, h('q', {}, warning.text)));
  }
  if (result.injection_warnings.length > 0) notes.push(h('li', { class: 'muted' }, 'Detection is best-effort: a passage not flagged is not proven safe.'));
  if (result.invalid_citations > 0) notes.push(h('li', {}, `${result.invalid_citations} citation(s) in the model's output named no supplied source and were dropped.`));
  for (const unavailable of result.unavailable_paths ?? []) {
    notes.push(h('li', {}, `Retrieved without the ${unavailable.path.replace(/_/g, ' ')} search path: ${unavailable.reason}.`));
  }
  if (notes.length === 0) return null;
  return h('section', {}, h('h3', {}, 'Uncertainty and conflicts'), h('ul', {}, ...notes));
}

function answerBlock({ folder, result }: AskResult): HTMLElement {
  const body: HTMLElement[] = [];
  if (result.answer !== null) {
    body.push(h('p', { class: 'answer' }, result.answer));
  } else if (result.model === null) {
    body.push(
      h(
        'p',
        { class: 'notice' },
        'No language model is configured, so Relata shows what it retrieved instead of an answer. ' +
          'To get answers, set "relata.answers.llmModelPath" to a local GGUF model file, or "relata.answers.llmEndpoint" to an OpenAI-compatible endpoint, in the settings.',
      ),
    );
  }
  if (result.rejected_reason) {
    body.push(h('p', { class: 'notice' }, `The model's output was rejected: ${result.rejected_reason}. The retrieval below is unaffected.`));
  }
  if (result.model) body.push(h('p', { class: 'muted' }, `Model: ${result.model}`));
  return h('div', { class: 'turn-answer' }, ...body, sources(folder, result), uncertainty(folder, result));
}

const input = h('textarea', { rows: '2', placeholder: 'Ask a question about this folder’s documents', 'aria-label': 'Question' });
const ask = () => {
  const question = input.value.trim();
  if (!question) return;
  input.value = '';
  send({ kind: 'ask', question });
};
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    ask();
  }
});

function draw(): void {
  render(
    h('h1', {}, 'Ask Relata'),
    h('p', { class: 'muted' }, 'Answers come only from the retrieved passages, with their sources. Treat them as summaries of sources, not as authority.'),
    h('div', { class: 'conversation' }, ...conversation, pending),
    h('div', { class: 'composer' }, input, action('Ask', ask, 'primary')),
  );
  input.focus();
}

onHostMessage((message) => {
  if (message.kind === 'asking') {
    conversation.push(h('div', { class: 'turn-question' }, h('strong', {}, 'You: '), message.question));
    pending = h('p', { class: 'muted' }, 'Retrieving and answering…');
  } else if (message.kind === 'answer') {
    pending = null;
    conversation.push(answerBlock(message.answer));
  } else if (message.kind === 'error') {
    pending = null;
    conversation.push(h('p', { class: 'error' }, message.message));
  } else {
    return;
  }
  draw();
});
draw();
